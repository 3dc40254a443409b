import { AuditReader, AuditTrail } from '@hookline/history';
import { AuditOutbox } from '@hookline/redis';
import { waitUntil, watchCommands } from '@hookline/testing';
import { useMonitorHarness } from './harness';

const h = useMonitorHarness();

// The monitor moves audit entries from the Redis outbox into PostgreSQL, as it does the delivery history.
describe('the monitor’s audit writer', () => {
  it('writes each recorded entry to the database once and empties the outbox', async () => {
    const outbox = new AuditOutbox(h.ctx.redis, h.keys);
    const trail = new AuditTrail(outbox, new AuditReader(h.history.client, outbox), () => undefined);
    const entry = await trail.record({
      account_id: h.hook.account_id,
      action: 'hook.paused',
      hook_id: h.hook.id,
      actor: { kind: 'admin', name: 'ops' },
      address: '127.0.0.1',
      detail: {},
    });
    h.start({ HOOKLINE_SUSPEND_AFTER_FAILURES: 3, HOOKLINE_SUSPEND_AFTER_MS: 1000 });
    await waitUntil(async () => (await outbox.read()).length === 0, 'the audit outbox emptied');
    const rows = await h.history.client.query<{ id: string; actor: unknown }>(
      'SELECT id, actor FROM audit_entries',
    );
    expect(rows).toEqual([{ id: entry.id, actor: { kind: 'admin', name: 'ops' } }]);
  });

  // What an idle fleet costs Redis does not include an audit writer asking ten times a second: an idle one
  // backs off to one look a second (DrainLoop). Counted as Redis sees them, on this test's own audit key.
  it('looks at an empty outbox less and less often, down to once a second', async () => {
    const looks: number[] = [];
    const watch = await watchCommands(h.ctx.redis, (args) => {
      if (args[0]?.toLowerCase() === 'lrange' && args[1] === h.keys.auditOutbox()) looks.push(Date.now());
    });
    try {
      h.start({ HOOKLINE_SUSPEND_AFTER_FAILURES: 3, HOOKLINE_SUSPEND_AFTER_MS: 1000 });
      await new Promise((resolve) => setTimeout(resolve, 3500));
      // 0, 100, 300, 700, 1500, 2500, 3500 ms: at most 7 (a loaded machine only makes it fewer); 35 without.
      expect(looks.length).toBeGreaterThan(0);
      expect(looks.length).toBeLessThanOrEqual(7);
    } finally {
      watch.stop();
    }
  });
});
