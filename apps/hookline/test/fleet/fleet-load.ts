import { setTimeout as sleep } from 'node:timers/promises';
import { SAMPLE_CALL_DATA } from '@hookline/core';

// The producers of the failover fleet tests: one per hook (one account per hook, so order per hook is
// publish order), each publishing its events one after another, as a producer that keeps order does, and
// retrying an event with the same id on 503 (what the README tells producers). Publishes are paced to a
// schedule, not spaced by a fixed sleep: each producer's n-th event is due at start + n × (hooks ÷ rate), so
// slow answers are caught up on and the fleet aims at `rate` events/s overall; what it reached is reported
// (never asserted: the machine's load decides it).

/** How long a producer keeps retrying one event on 503 before the test calls it refused. */
const RETRY_FOR_MS = 60_000;

export type Call = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number | string; json: () => Record<string, unknown> }>;

/** One event as its producer saw it: when it was first tried and when it was accepted (202/200). */
export interface Publish {
  readonly firstTriedAt: number;
  acceptedAt?: number;
  /** Answers other than 202/200 before it was accepted (or given up). */
  refusals: number;
  /** Every answer, with when it came: what a lost event's producer saw, for the run's log. */
  readonly answers: { at: number; status: number | string }[];
}

export interface LoadRate {
  /** Events/s the producers aimed at. */
  readonly aimed: number;
  /** Events accepted per second of publishing. */
  readonly achieved: number;
  /** Publish requests (retries included) per second of publishing. */
  readonly requests: number;
}

export function startLoad(accounts: readonly { account: string }[], call: Call, rate: number) {
  const statuses: Record<string, number> = {};
  const publishes = new Map<string, Publish>();
  let publishing = true;
  let requests = 0;
  const startedAt = Date.now();
  let stoppedAt: number | undefined;
  const gapMs = (1000 * accounts.length) / rate;
  const producers = accounts.map(async ({ account }, i) => {
    // Producers start spread over one gap, so the fleet's publishes are spread evenly over time.
    const firstAt = startedAt + (gapMs * i) / accounts.length;
    for (let seq = 0; publishing; seq++) {
      const due = firstAt + seq * gapMs;
      if (due > Date.now()) await sleep(due - Date.now());
      if (!publishing) break;
      const callId = `h${i}-${seq}`;
      const publish: Publish = { firstTriedAt: Date.now(), refusals: 0, answers: [] };
      publishes.set(callId, publish);
      for (;;) {
        requests += 1;
        const res = await call('POST', `/v1/accounts/${account}/events`, {
          id: callId,
          type: 'call_created',
          data: { ...SAMPLE_CALL_DATA, call_id: callId },
        }).catch((error: Error) => ({ status: `error ${error.message}`, json: () => ({}) }));
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        publish.answers.push({ at: Date.now(), status: res.status });
        if (res.status === 202 || res.status === 200) {
          publish.acceptedAt = Date.now();
          break;
        }
        publish.refusals += 1;
        if (res.status !== 503 || Date.now() - publish.firstTriedAt > RETRY_FOR_MS) break;
        await sleep(100);
      }
    }
  });
  return {
    statuses,
    publishes,
    /** The events accepted so far (202, or 200 for a retry of an accepted one). */
    accepted(): string[] {
      return [...publishes].filter(([, p]) => p.acceptedAt !== undefined).map(([id]) => id);
    },
    /** Events accepted per second between two moments (ms since the epoch), by when they were accepted. */
    acceptedPerSecond(from: number, to: number): number {
      let n = 0;
      for (const p of publishes.values())
        if (p.acceptedAt !== undefined && p.acceptedAt >= from && p.acceptedAt < to) n++;
      return Math.round((10_000 * n) / (to - from)) / 10;
    },
    /** Stops publishing and waits for every producer's last publish. */
    async stop(): Promise<LoadRate> {
      publishing = false;
      stoppedAt ??= Date.now();
      await Promise.all(producers);
      const seconds = (stoppedAt - startedAt) / 1000;
      const round = (n: number) => Math.round(n * 10) / 10;
      return {
        aimed: rate,
        achieved: round(this.accepted().length / seconds),
        requests: round(requests / seconds),
      };
    },
  };
}
