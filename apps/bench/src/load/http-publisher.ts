import { Pool } from 'undici';
import { nowMicros, sleep } from '../clock';
import { GrowableSeries } from '../receivers/growable-series';
import { summarizeLatencies, type LatencySummary } from '../stats';
import { benchEventData } from './bench-event';
import type { BenchHook, Publish } from './hookline-load';

/** The publish API's body (product spec §6, `POST /v1/accounts/{acct}/events`) for the bench's event. */
export function httpEventBody(publishedAtMicros: number): string {
  return JSON.stringify({ type: 'call_created', data: benchEventData(publishedAtMicros) });
}

export const eventsPath = (hook: Pick<BenchHook, 'accountId'>) =>
  `/v1/accounts/${encodeURIComponent(hook.accountId)}/events`;

// A request the tier has not answered by then counts as a publish error: nothing in the bench waits for ever.
const ANSWER_WITHIN_MS = 10_000;

/**
 * Publishes through the HTTP API with undici, over keep-alive connections to the tier. Counts the events
 * accepted (202) and times each answer from the moment the event was due (the open loop's stamp).
 */
export class HttpPublisher {
  private readonly pool: Pool;
  private acceptedCount = 0;
  private readonly answers = new GrowableSeries();

  constructor(
    base: string,
    private readonly apiKey: string,
    connections = 64,
  ) {
    this.pool = new Pool(base, {
      connections,
      keepAliveTimeout: 30_000,
      headersTimeout: ANSWER_WITHIN_MS,
      bodyTimeout: ANSWER_WITHIN_MS,
    });
  }

  /** Events the tier answered 202 so far. */
  get accepted(): number {
    return this.acceptedCount;
  }

  readonly publish: Publish = async (hook, publishedAtMicros) => {
    const res = await this.pool.request({
      path: eventsPath(hook),
      method: 'POST',
      headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
      body: httpEventBody(publishedAtMicros),
    });
    const text = await res.body.text();
    if (res.statusCode !== 202) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
    const answeredAt = nowMicros();
    this.acceptedCount += 1;
    this.answers.push(answeredAt, answeredAt - publishedAtMicros);
  };

  /** Due time -> 202, over the answers received within [from, to] (monotonic µs); older ones are dropped. */
  answerLatency(from: number, to: number): LatencySummary | undefined {
    return summarizeLatencies(this.answers.take(from, to));
  }

  /** Lets requests in flight finish (a few seconds at most), then closes every connection. */
  async close(): Promise<void> {
    await Promise.race([this.pool.close().catch(() => undefined), sleep(5000)]);
    await this.pool.destroy().catch(() => undefined);
  }
}
