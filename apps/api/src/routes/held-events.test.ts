import { callCreated, useApi, type ApiHarness } from '../test-support/api-harness';

// GET …/hooks/{hook}/held (product.md §5, §6, §10's paging): a suspended hook's held events in delivery order,
// paged with a cursor that never shows an event twice while events are held at the tail and let go from the
// head between pages; held_count on the hook's GET while it is suspended.

const hookUrl = (acct: string, hook: string) => `/v1/accounts/${acct}/hooks/${hook}`;
const pause = () => new Promise((resolve) => setTimeout(resolve, 3));

/** Publishes one event per call id (distinct acceptance times), returning their event ids in order. */
async function publish(api: ApiHarness, acct: string, callIds: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const call_id of callIds) {
    const res = await api.call('POST', `/v1/accounts/${acct}/events`, {
      type: 'call_created',
      data: callCreated({ call_id }),
    });
    expect(res.statusCode).toBe(202);
    ids.push((res.json() as { id: string }).id);
    await pause();
  }
  return ids;
}

async function suspendedHook(api: ApiHarness) {
  const acct = await api.createAccount();
  const hook = await api.createHook(acct);
  expect(await api.deps.control.suspend(hook.id, '10 failures in a row', 'monitor')).toBe(true);
  return { acct, hookId: hook.id };
}

interface HeldPage {
  data: { event_id: string; call_id?: string }[];
  next_cursor?: string;
}

/** Page after page of `limit`, with `between` run before each page after the first; the call ids of each. */
async function walk(
  api: ApiHarness,
  url: string,
  limit: number,
  between: ((page: number) => Promise<void>)[] = [],
): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    if (pages.length > 0) await between[pages.length - 1]?.(pages.length);
    const res = await api.call('GET', `${url}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode).toBe(200);
    const page = res.json() as HeldPage;
    pages.push(page.data.map((e) => e.call_id ?? '?'));
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

describe('GET …/hooks/{hook}/held', () => {
  const api = useApi();

  it('lists the held events oldest first, exactly, and the hook counts them while suspended', async () => {
    const { acct, hookId } = await suspendedHook(api);
    const ids = await publish(api, acct, ['c-1', 'c-2', 'c-3']);
    const jobs = await api.jobsOf(hookId);
    expect(jobs.map((j) => j.event.id)).toEqual(ids);

    const res = await api.call('GET', `${hookUrl(acct, hookId)}/held`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      JSON.stringify({
        data: jobs.map((j) => ({
          event_id: j.event.id,
          type: 'call_created',
          accepted_at: new Date(j.acceptedAt).toISOString(),
          call_id: j.event.fields.call_id,
        })),
      }),
    );
    expect((await api.call('GET', hookUrl(acct, hookId))).json()).toMatchObject({
      state: 'suspended',
      held_count: 3,
    });
  });

  it("shows held_count on suspended hooks only, in the list too, and an active hook's waiting events", async () => {
    const { acct, hookId } = await suspendedHook(api);
    const active = await api.createHook(acct);
    await publish(api, acct, ['c-1', 'c-2']);
    const one = (await api.call('GET', hookUrl(acct, active.id))).json();
    expect(one.state).toBe('active');
    expect(one).not.toHaveProperty('held_count');
    const list = (await api.call('GET', `/v1/accounts/${acct}/hooks`)).json() as {
      data: { id: string; held_count?: number }[];
    };
    expect(list.data.map((h) => [h.id, h.held_count])).toEqual([
      [hookId, 2],
      [active.id, undefined],
    ]);
    // An active hook holds nothing; its list shows the events waiting their turn (no worker runs here).
    const waiting = (await api.call('GET', `${hookUrl(acct, active.id)}/held`)).json() as HeldPage;
    expect(waiting.data.map((e) => e.call_id)).toEqual(['c-1', 'c-2']);
  });

  it('pages on behind the last event shown while a re-enable lets events go from the head', async () => {
    const { acct, hookId } = await suspendedHook(api);
    await publish(api, acct, ['r-1', 'r-2', 'r-3', 'r-4', 'r-5', 'r-6']);
    const acceptedAt = async (callId: string) =>
      new Date((await api.jobsOf(hookId)).find((j) => j.event.fields.call_id === callId)!.acceptedAt);
    const enableSince = async (callId: string) => {
      const since = (await acceptedAt(callId)).toISOString();
      const res = await api.call('POST', `${hookUrl(acct, hookId)}/enable`, { held: 'since', since });
      expect(res.statusCode).toBe(200);
    };
    const pages = await walk(api, `${hookUrl(acct, hookId)}/held`, 2, [
      // One more held at the tail; r-1 discarded from the head, r-2 (the last shown) stays: no worker runs.
      async () => {
        await publish(api, acct, ['r-7']);
        await enableSince('r-2');
      },
      // Suspended again, then r-2 to r-5 discarded: the last shown (r-4) is gone with those before it.
      async () => {
        expect(await api.deps.control.suspend(hookId, 'again', 'monitor')).toBe(true);
        await enableSince('r-6');
      },
    ]);
    expect(pages).toEqual([
      ['r-1', 'r-2'],
      ['r-3', 'r-4'],
      ['r-6', 'r-7'],
    ]);
  });

  it('leaves out the call id of an event an erasure reaches, and the event once the erasure removed it', async () => {
    const { acct, hookId } = await suspendedHook(api);
    const ids = await publish(api, acct, ['c-1', 'c-secret', 'c-3']);
    const erasure = await api.call('POST', `/v1/accounts/${acct}/erasures`, { call_id: 'c-secret' });
    expect(erasure.statusCode).toBe(202);
    const running = await api.call('GET', `${hookUrl(acct, hookId)}/held`);
    expect(running.json().data).toEqual([
      expect.objectContaining({ event_id: ids[0], call_id: 'c-1' }),
      { event_id: ids[1], type: 'call_created', accepted_at: expect.any(String) },
      expect.objectContaining({ event_id: ids[2], call_id: 'c-3' }),
    ]);
    expect(running.body).not.toContain('c-secret');

    // The erasure's step over the hook's queue (the monitor's) removes the event.
    await api.queues.eraseWaitingWindow(hookId, { kind: 'call_id', value: 'c-secret' }, 0, 100);
    const done = await api.call('GET', `${hookUrl(acct, hookId)}/held`);
    expect(done.json().data.map((e: { event_id: string }) => e.event_id)).toEqual([ids[0], ids[2]]);
    expect(done.body).not.toContain('c-secret');
  });

  it("answers 404 for another account's hook and 400 naming a bad limit or cursor", async () => {
    const { acct, hookId } = await suspendedHook(api);
    await publish(api, acct, ['c-1']);
    const intruder = await api.createAccount('Intruder');
    const res = await api.call('GET', `${hookUrl(intruder, hookId)}/held`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Hook not found' } });
    expect(res.body).not.toContain('c-1');

    for (const [query, field] of [
      ['limit=201', 'limit'],
      ['limit=0', 'limit'],
      ['cursor=nope', 'cursor'],
    ]) {
      const bad = await api.call('GET', `${hookUrl(acct, hookId)}/held?${query}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details).toEqual([expect.objectContaining({ field })]);
    }
  });
});

describe('GET …/hooks/{hook}/held with a hold cap', () => {
  const api = useApi({ settings: { HOOKLINE_HOLD_MAX: '5' } });

  it('never shows an event twice while events are held at the tail and expire from the head', async () => {
    const { acct, hookId } = await suspendedHook(api);
    await publish(api, acct, ['h-1', 'h-2', 'h-3', 'h-4', 'h-5']);
    const pages = await walk(api, `${hookUrl(acct, hookId)}/held`, 2, [
      // Three more held: the cap expires h-1, h-2 (shown) and h-3 (not reached yet).
      () => publish(api, acct, ['h-6', 'h-7', 'h-8']).then(() => undefined),
    ]);
    expect(pages).toEqual([['h-1', 'h-2'], ['h-4', 'h-5'], ['h-6', 'h-7'], ['h-8']]);
    const log = (await api.call('GET', `${hookUrl(acct, hookId)}/deliveries`)).json().data as {
      call_id: string;
      outcome: string;
    }[];
    expect(log.map((r) => [r.call_id, r.outcome]).sort()).toEqual([
      ['h-1', 'expired'],
      ['h-2', 'expired'],
      ['h-3', 'expired'],
    ]);
  });
});
