import type { AttemptResult, DeliveryRequest } from '@hookline/core';
import type { LookupFunction } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { classifyAttemptError } from './attempt-error';
import { readCappedBody } from './capped-body';
import { guardedConnector } from './guarded-connector';
import { createNetworkPolicy } from './network-policy';

export interface DelivererOptions {
  /** The whole attempt: DNS, connect, TLS and the status line (the setting's default is 15000). */
  readonly timeoutMs: number;
  /** CIDRs exempt from the network policy, e.g. ['127.0.0.0/8']. */
  readonly allowNetworks: readonly string[];
  /** DNS, replaceable in tests; dns.lookup by default. Its answers still pass the network policy. */
  readonly lookup?: LookupFunction;
  /** Clock for durationMs, in milliseconds. */
}

export interface Deliverer {
  /** One POST. Always settles, by the deadline at the latest; never throws for anything the network does. */
  attempt(req: DeliveryRequest): Promise<AttemptResult>;
  /** Waits for attempts in flight (bounded by their deadlines), then closes every connection. */
  close(): Promise<void>;
}

type FirstEvent =
  | { readonly kind: 'response'; readonly response: Dispatcher.ResponseData }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'deadline' };

const whenAborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

export function createDeliverer(options: DelivererOptions): Deliverer {
  const { timeoutMs } = options;
  if (!(Number.isInteger(timeoutMs) && timeoutMs > 0))
    throw new Error(`timeoutMs must be > 0, got ${timeoutMs}`);
  // A stopwatch, not a clock: durations must not jump when the wall clock is set.
  const now = () => performance.now();
  const policy = createNetworkPolicy(options.allowNetworks);
  // Our own dispatcher, never the global one. Redirects are never followed: undici's request only does
  // that with a redirect interceptor, which this agent does not have. The connect and headers timeouts
  // are backstops that free undici's resources; the attempt's own timer is what decides the outcome.
  const agent = new Agent({
    connect: guardedConnector(policy, { timeoutMs, lookup: options.lookup }),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const inFlight = new Set<Promise<AttemptResult>>();

  async function deliver(req: DeliveryRequest): Promise<AttemptResult> {
    const started = now();
    const elapsed = () => Math.max(0, Math.round(now() - started));
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new Error(`no response within ${timeoutMs} ms`)),
      timeoutMs,
    );
    try {
      const pending = request(req.url, {
        dispatcher: agent,
        method: 'POST',
        headers: req.headers,
        body: req.body,
        signal: deadline.signal,
      });
      // undici ignores the abort while a TCP connect is pending (undici#386), so the deadline is a race that
      // the timer always wins on time; whatever undici reports later is dropped, its body destroyed.
      const first = await Promise.race<FirstEvent>([
        pending.then(
          (response) => ({ kind: 'response', response }),
          (error: unknown) => ({ kind: 'error', error }),
        ),
        whenAborted(deadline.signal).then(() => ({ kind: 'deadline' })),
      ]);
      if (first.kind === 'deadline' || (first.kind === 'error' && deadline.signal.aborted)) {
        pending.then(
          (late) => late.body.destroy(),
          () => undefined,
        );
        return { outcome: 'timed_out', durationMs: elapsed(), error: `no response within ${timeoutMs} ms` };
      }
      if (first.kind === 'error') return { ...classifyAttemptError(first.error), durationMs: elapsed() };

      const { statusCode, body } = first.response;
      // The outcome is fixed by the status line; the duration too, so a slow body does not inflate it.
      const durationMs = elapsed();
      const excerpt = await readCappedBody(body, deadline.signal);
      return {
        outcome: statusCode >= 200 && statusCode < 300 ? 'delivered' : 'failed',
        statusCode,
        durationMs,
        ...(excerpt ? { responseExcerpt: excerpt } : {}),
      };
    } catch (error) {
      // request() can throw synchronously for a URL undici refuses (e.g. an unsupported protocol).
      return { ...classifyAttemptError(error), durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    attempt(req) {
      const result = deliver(req);
      inFlight.add(result);
      void result.finally(() => inFlight.delete(result));
      return result;
    },
    async close() {
      await Promise.allSettled([...inFlight]);
      // destroy, not close: an abandoned connect (see above) must not hold shutdown until its own timeout.
      await agent.destroy();
    },
  };
}
