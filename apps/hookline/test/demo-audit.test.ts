import { randomBytes } from 'node:crypto';
import { loadConfig } from '@hookline/config';
import { createServices, type Services } from '@hookline/services';
import { TEST_REDIS_URL, useRedis } from '@hookline/testing';
import { ensureDemoAccount, startDemo } from '../src/demo';
import { openTestHistory } from './support/test-history';

// What `pnpm start` (and `--demo`) creates is in the audit log like any other change (product.md §16): one
// entry per change, the actor the command the operator ran.
describe('the first-run account and the demo in the audit log', () => {
  const ctx = useRedis('demo');
  let services: Services;

  beforeEach(async () => {
    const config = loadConfig(
      {
        HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
        HOOKLINE_QUEUE_PREFIX: ctx.prefix,
        REDIS_URL: TEST_REDIS_URL,
      },
      'worker',
    );
    const history = await openTestHistory(ctx.onCleanup, 'demo');
    services = createServices({
      redis: ctx.redis,
      settings: config,
      secretKey: randomBytes(32),
      historyDb: history.client,
    });
    ctx.onCleanup(() => services.close());
  });

  const entries = async (accountId: string) => (await services.audit.list(accountId, { limit: 50 })).data;

  it('records the account once, then each demo hook change and test event once, by the command', async () => {
    const first = await ensureDemoAccount(services, 'demo-password-1');
    expect(await entries(first.id)).toEqual([
      expect.objectContaining({
        account_id: first.id,
        action: 'account.created',
        actor: { kind: 'start_command', command: 'pnpm start' },
        detail: { sign_in: true },
      }),
    ]);
    // A second start finds the account: nothing is created, nothing recorded.
    expect((await ensureDemoAccount(services, 'demo-password-1')).id).toBe(first.id);
    expect(await entries(first.id)).toHaveLength(1);

    const demo = { kind: 'start_command', command: 'pnpm start --demo' };
    const one = await startDemo(services, first.id, () => undefined);
    await one.close();
    const afterOne = await entries(first.id);
    expect(afterOne.slice(0, 2)).toEqual([
      expect.objectContaining({ action: 'hook.tested', hook_id: one.hookId, actor: demo }),
      expect.objectContaining({
        action: 'hook.created',
        hook_id: one.hookId,
        actor: demo,
        detail: { url: one.receiverUrl, description: 'Demo receiver (pnpm start --demo)' },
      }),
    ]);
    expect(afterOne).toHaveLength(3);

    // The next demo start points the same hook at its new receiver: a change of address, and a test.
    const two = await startDemo(services, first.id, () => undefined);
    await two.close();
    expect(two.hookId).toBe(one.hookId);
    const afterTwo = await entries(first.id);
    expect(afterTwo).toHaveLength(5);
    // Written within the same millisecond, the two newest entries still list in the order they were made.
    expect(afterTwo.slice(0, 2)).toEqual([
      expect.objectContaining({ action: 'hook.tested', hook_id: two.hookId, actor: demo }),
      expect.objectContaining({ action: 'hook.updated', actor: demo, detail: { fields: ['url'] } }),
    ]);
    expect(two.held).toBe(false);
    // Suspended since (an earlier run's endpoint failed, or an admin paused it): its test event is held.
    await services.control.suspend(two.hookId, 'paused by admin', 'admin:ops');
    const three = await startDemo(services, first.id, () => undefined);
    await three.close();
    expect(three.held).toBe(true);
    // Nothing in an entry holds the password or the address of the machine.
    expect(JSON.stringify(afterTwo)).not.toContain('demo-password-1');
    expect(afterTwo.every((e) => e.address === undefined)).toBe(true);
  });
});
