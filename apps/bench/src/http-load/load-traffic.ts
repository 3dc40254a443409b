import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Tier } from './load-tier';

// What the HTTP-tier load script sends (see publish-load.ts): accounts with one hook each, then events at a
// fixed rate.

export async function createAccounts(tier: Tier, count: number): Promise<string[]> {
  const accounts: string[] = [];
  for (let i = 0; i < count; i++) {
    const account = await tier.call('POST', '/v1/accounts', { name: `load ${i}` });
    if (account.status !== 201) throw new Error(`POST /v1/accounts answered ${account.status}`);
    const id = (account.json as { id: string }).id;
    const hook = await tier.call('POST', `/v1/accounts/${id}/hooks`, {
      url: 'http://127.0.0.1:9/',
      format: 'json',
      auth: { scheme: 'none' },
    });
    if (hook.status !== 201)
      throw new Error(`POST hooks answered ${hook.status} ${JSON.stringify(hook.json)}`);
    accounts.push(id);
  }
  return accounts;
}

let sequence = 0;

function eventBody(withId: boolean): string {
  const n = ++sequence;
  const call = `${process.pid.toString(16)}-${n.toString(16)}`;
  const id = withId ? `"id":"load-${call}-${randomBytes(4).toString('hex')}",` : '';
  return (
    `{"type":"call_created",${id}"data":{"call_id":"${call}","direction":"outbound","from":"jonas1",` +
    `"from_cnam":"Jonas 1","to":"78791245","rate":0.0,"date":"2016-03-01T08:31:55.0000000"}}`
  );
}

/** Publishes at `rate` events/s for `seconds` (open loop: the schedule does not wait for answers). */
export async function publishAt(
  tier: Tier,
  accounts: readonly string[],
  rate: number,
  seconds: number,
  withId: boolean,
): Promise<{ accepted: number; refused: number; latencies: number[]; elapsed: number }> {
  const latencies: number[] = [];
  let accepted = 0;
  let refused = 0;
  const inFlight = new Set<Promise<void>>();
  const total = Math.round(rate * seconds);
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
    while (sent < due) {
      const account = accounts[sent % accounts.length]!;
      const sentAt = performance.now();
      const p = tier
        .pool!.request({
          method: 'POST',
          path: `/v1/accounts/${account}/events`,
          headers: { authorization: `Bearer ${tier.apiKey}`, 'content-type': 'application/json' },
          body: eventBody(withId),
        })
        .then(async (res) => {
          await res.body.dump();
          latencies.push(performance.now() - sentAt);
          if (res.statusCode === 202) accepted++;
          else refused++;
        })
        .catch(() => void refused++);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      sent++;
    }
    await sleep(2);
  }
  await Promise.all(inFlight);
  return { accepted, refused, latencies, elapsed: (performance.now() - start) / 1000 };
}
