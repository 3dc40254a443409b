import { encodeCursor } from '@hookline/history';
import { useApi } from '../test-support/api-harness';

// GET /v1/accounts/{acct}/hooks in pages (product.md §6, paged as §10's lists): `limit` 1–200 (default 200),
// `cursor` from the previous page's `next_cursor`, oldest first by creation then id.

interface Listed {
  id: string;
  created_at: string;
}

/** The documented order: by creation time, then by id. */
const oldestFirst = (hooks: Listed[]) =>
  [...hooks]
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    .map((h) => h.id);

const INVALID_CURSOR = {
  error: {
    code: 'VALIDATION_FAILED',
    message: 'Invalid request: cursor',
    details: [{ field: 'cursor', message: 'is not a cursor this API gave (use next_cursor)' }],
  },
};

describe('listing hooks in pages', () => {
  const api = useApi();
  const list = async (acct: string, query = '') => {
    const res = await api.call('GET', `/v1/accounts/${acct}/hooks${query}`);
    expect(res.statusCode).toBe(200);
    return res.json() as { data: Listed[]; next_cursor?: string };
  };
  const hooksOf = async (acct: string, count: number) => {
    const made: Listed[] = [];
    for (let i = 0; i < count; i++) made.push((await api.createHook(acct)) as unknown as Listed);
    return made;
  };

  it('pages through every hook once, in order, while hooks are created and deleted between pages', async () => {
    const acct = await api.createAccount();
    const made = await hooksOf(acct, 5);
    const order = oldestFirst(made);
    const seen: string[] = [];

    const first = await list(acct, '?limit=2');
    expect(first.data.map((h) => h.id)).toEqual(order.slice(0, 2));
    seen.push(...first.data.map((h) => h.id));
    // Between pages: a hook already seen, the one the cursor names and one not yet seen go; a new one comes.
    for (const gone of [order[0]!, order[1]!, order[2]!])
      expect((await api.call('DELETE', `/v1/accounts/${acct}/hooks/${gone}`)).statusCode).toBe(204);
    const [late] = await hooksOf(acct, 1);

    let cursor = first.next_cursor;
    for (let page = 0; cursor && page < 5; page++) {
      const next = await list(acct, `?limit=2&cursor=${cursor}`);
      seen.push(...next.data.map((h) => h.id));
      cursor = next.next_cursor;
    }
    // An offset would have skipped order[3] (two hooks before it went) and a creation could repeat one.
    expect(seen).toEqual([order[0], order[1], order[3], order[4], late!.id]);
  });

  it('answers every hook at once by default as it always did, and gives next_cursor only while more follow', async () => {
    const acct = await api.createAccount();
    const made = await hooksOf(acct, 3);
    await hooksOf(await api.createAccount('Other'), 1);
    const all = await list(acct);
    expect(Object.keys(all)).toEqual(['data']);
    expect(all.data.map((h) => h.id)).toEqual(oldestFirst(made));

    const first = await list(acct, '?limit=2');
    expect(first.data).toEqual(all.data.slice(0, 2));
    expect(typeof first.next_cursor).toBe('string');
    // The last page, full or not, has no next_cursor.
    expect(await list(acct, `?limit=1&cursor=${first.next_cursor}`)).toEqual({ data: all.data.slice(2) });
    expect(await list(acct, '?limit=3')).toEqual(all);
  });

  it('refuses a bad limit, naming it', async () => {
    const acct = await api.createAccount();
    for (const limit of ['0', '201', '1e2', '007', 'all', '']) {
      const res = await api.call('GET', `/v1/accounts/${acct}/hooks?limit=${limit}`);
      expect([limit, res.statusCode]).toEqual([limit, 400]);
      expect(res.json()).toEqual({
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Invalid request: limit',
          details: [{ field: 'limit', message: 'must be a whole number from 1 to 200' }],
        },
      });
    }
  });

  it('refuses a cursor it did not give, naming it: garbage, another list’s cursor, a forged time', async () => {
    const acct = await api.createAccount();
    await hooksOf(acct, 2);
    const { next_cursor } = await list(acct, '?limit=1');
    const [, id] = Buffer.from(next_cursor!, 'base64url').toString('utf8').split('|');
    for (const cursor of [
      'zzz!',
      // The delivery log's cursors have the same form around an attempt id.
      encodeCursor('2026-11-20T09:00:00.000Z', 'att_000000000000000000000001'),
      Buffer.from(`-100000-01-01T00:00:00.000Z|${id}`).toString('base64url'),
      Buffer.from(`2026-11-31T00:00:00.000Z|${id}`).toString('base64url'),
    ]) {
      const res = await api.call('GET', `/v1/accounts/${acct}/hooks?cursor=${encodeURIComponent(cursor)}`);
      expect([cursor, res.statusCode]).toEqual([cursor, 400]);
      expect(res.json()).toEqual(INVALID_CURSOR);
    }
  });
});
