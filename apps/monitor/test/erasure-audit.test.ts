import type { AuditEntry, HookView } from '@hookline/core';
import { AuditReader, AuditTrail, openHistory } from '@hookline/history';
import { AuditOutbox } from '@hookline/redis';
import type { ErasureAsker } from '@hookline/store';
import { createLogger } from '@hookline/telemetry';
import { startReceiver, usePostgres, useRedis, waitUntil } from '@hookline/testing';
import { startErasureRunner } from '../src/erasures/erasure-runner';
import { callEvent as call, erasingMonitor, erasureDone, erasureStepsFor } from './erasure-support';
import { openPipeline } from './pipeline';

jest.setTimeout(60000);

// An erasure's audit entries (product.md §16, §18): `erasure.requested` when asked (the API's), and
// `erasure.done` when done, naming who asked and how many records were erased, never the number; one JSON
// log line with it, like every audit entry; written once, also when the runner is taken over.

const ctx = useRedis('erasure-audit');
const pg = usePostgres('erasure_audit');
const NUMBER = '+15550100777';
// As the API keeps it: the operator key's fingerprint and the caller's address.
const ASKER: ErasureAsker = {
  actor: { kind: 'operator_key', key: 'sha256:0123456789abcdef' },
  address: '203.0.113.7',
};

const doneEntries = (entries: readonly AuditEntry[]) => entries.filter((e) => e.action === 'erasure.done');

describe('an erasure done', () => {
  it('is in the audit log once, with who asked, the erasure and its counts, and one JSON log line', async () => {
    const p = await openPipeline(ctx, pg);
    const { store, producer, history } = p;
    const receiver = ctx.closeLater(await startReceiver());
    const account = await store.accounts.create({ name: 'Acme Telecom' });
    const hook: HookView = await store.hooks.create(
      account.id,
      { url: receiver.url('/h'), format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    const lines: string[] = [];
    p.run({
      deliveryTimeoutMs: 5000,
      monitor: erasingMonitor(store.erasures),
      monitorLogger: createLogger('info', 'test-monitor', { write: (line: string) => lines.push(line) }),
    });
    await producer.publish(account.id, call('d1', NUMBER, '+4420'));
    await receiver.waitFor(1);
    await waitUntil(
      async () => ((await store.deliveryLog.list(hook.id, 10)).length === 1 ? true : undefined),
      'the delivery to be recorded',
    );
    // The log reads the outbox too: a record the writer has inserted but not yet trimmed is in both places,
    // and an erasure then would count its two copies.
    await waitUntil(
      async () => ((await ctx.redis.llen(p.keys.hookHistoryOutbox(hook.id))) === 0 ? true : undefined),
      'the record in the database alone',
    );

    const { id } = await store.erasures.request(
      account.id,
      { kind: 'number', value: NUMBER },
      'operator',
      ASKER,
    );
    const done = await erasureDone(store.erasures, account.id, id);
    expect(done.counts.history + done.counts.outboxes).toBe(1);
    const outbox = new AuditOutbox(ctx.redis, p.keys);
    const reader = new AuditReader(history.client, outbox);
    const entries = await waitUntil(async () => {
      const page = await reader.list(account.id, { limit: 200 });
      return doneEntries(page.data).length > 0 ? page.data : undefined;
    }, 'the erasure.done entry');
    expect(doneEntries(entries)).toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        at: done.done_at,
        account_id: account.id,
        action: 'erasure.done',
        actor: ASKER.actor,
        address: ASKER.address,
        detail: { erasure_id: id, by: 'number', counts: done.counts },
      },
    ]);
    const logged = lines
      .map((line) => JSON.parse(line) as { audit?: boolean; action?: string; id?: string })
      .filter((line) => line.audit === true);
    expect(logged).toEqual([
      expect.objectContaining({
        action: 'erasure.done',
        id: doneEntries(entries)[0]!.id,
        detail: expect.anything(),
      }),
    ]);
    expect(JSON.stringify(entries)).not.toContain(NUMBER);
    expect(lines.join('\n')).not.toContain(NUMBER);
    // Once in the database too, after the audit writer moved it.
    await waitUntil(
      async () => ((await outbox.read()).length === 0 ? true : undefined),
      'the audit outbox emptied',
    );
    expect(doneEntries((await reader.list(account.id, { limit: 200 })).data)).toHaveLength(1);
  });
});

describe("an erasure's audit entry, taken over", () => {
  it('is written by the runner that takes over, once, whether or not the one that died had written it', async () => {
    const { deps, store, keys } = erasureStepsFor(ctx);
    const history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
    ctx.onCleanup(() => history.close());
    const account = await store.accounts.create({ name: 'Acme Telecom' });
    await store.hooks.create(account.id, { url: 'http://127.0.0.1:9/h', format: 'json' }, 'operator');
    const outbox = new AuditOutbox(ctx.redis, keys);
    const reader = new AuditReader(history.client, outbox);
    const written: AuditEntry[] = [];
    const trail = new AuditTrail(outbox, reader, (entry) => written.push(entry));
    const runner = (holder: string) =>
      startErasureRunner({
        ...deps,
        sql: history.client,
        erasures: store.erasures,
        audit: (entry) => trail.append(entry),
        holder,
        log: createLogger('silent', 'test-erasures'),
        settleMs: 0,
        pollMs: 50,
      });
    const target = { kind: 'number', value: NUMBER } as const;
    const counts = { history: 3, outboxes: 0, queued: 1, inbox: 0, retained: 0, idempotency: 1, hooks: 0 };

    // A runner finished the erasure and died before writing its entry.
    const one = await store.erasures.request(account.id, target, 'operator', ASKER);
    await store.erasures.finish(account.id, one.id, target, counts);
    // Another wrote it and died before the erasure left the queue.
    const two = await store.erasures.request(account.id, target, 'operator', ASKER);
    await store.erasures.finish(account.id, two.id, target, counts);
    await trail.append((await store.erasures.unclosed(account.id, two.id))!.audit!);
    expect(await store.erasures.get(account.id, one.id)).toMatchObject({ state: 'done', counts });

    const next = runner('next-monitor');
    ctx.onCleanup(() => next.close());
    await waitUntil(
      async () => ((await store.erasures.running()).length === 0 ? true : undefined),
      'both erasures to leave the queue',
    );
    // Another pass, and another runner, write nothing more.
    const another = runner('another-monitor');
    ctx.onCleanup(() => another.close());
    await new Promise((resolve) => setTimeout(resolve, 300));
    const entries = doneEntries((await reader.list(account.id, { limit: 200 })).data);
    expect(entries.map((e) => e.detail.erasure_id).sort()).toEqual([one.id, two.id].sort());
    expect(entries.every((e) => e.detail.counts?.queued === 1 && e.actor.kind === 'operator_key')).toBe(true);
    // The one that died after writing left the same entry, by id: the log keeps it once.
    expect(written.filter((e) => e.detail.erasure_id === one.id)).toHaveLength(1);
  });
});
