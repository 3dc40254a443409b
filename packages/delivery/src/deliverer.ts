import { clientCertificateFacts, type DeliveryRequest, type HookTls, type SendResult } from '@hookline/core';
import type { LookupFunction } from 'node:net';
import { Agent, Client } from 'undici';
import { afterPendingReads, NO_UNDICI_DEADLINES, noResponseWithin } from './attempt-deadline';
import { classifyAttemptError } from './attempt-error';
import type { EgressProxy } from './egress-proxy';
import { explainCertificateRefusal } from './client-tls';
import { guardedConnector } from './guarded-connector';
import { createNetworkPolicy } from './network-policy';
import { sendRequest } from './send-request';
import { sendViaProxy } from './via-proxy';

export interface DelivererOptions {
  /** The whole attempt: DNS, connect, TLS and the status line (the setting's default is 15000). */
  readonly timeoutMs: number;
  /** CIDRs exempt from the network policy, e.g. ['127.0.0.0/8']. */
  readonly allowNetworks: readonly string[];
  /** DNS, replaceable in tests; dns.lookup by default. Its answers still pass the network policy. */
  readonly lookup?: LookupFunction;
  /** `HOOKLINE_EGRESS_PROXY`: every request goes through this proxy's CONNECT tunnels when set. */
  readonly proxy?: EgressProxy;
}

export interface Deliverer {
  /**
   * One POST. Always settles, by the deadline at the latest; never throws for anything the network does.
   * `not_sent` only with an egress proxy that refused or could not be reached before the request was written.
   * `began`: when the attempt began, on the stopwatch (`performance.now()`), if before this request (an OAuth
   * 2.0 hook's token request is part of its attempt): the deadline and the duration count from it, so the
   * request gets what is left of the deadline, and nothing is sent when nothing is left (`timed_out`).
   */
  attempt(req: DeliveryRequest, began?: number): Promise<SendResult>;
  /** Waits for attempts in flight (bounded by their deadlines), then closes every connection. */
  close(): Promise<void>;
}

export function createDeliverer(options: DelivererOptions): Deliverer {
  const { timeoutMs } = options;
  if (!(Number.isInteger(timeoutMs) && timeoutMs > 0))
    throw new Error(`timeoutMs must be > 0, got ${timeoutMs}`);
  // A stopwatch, not a clock: durations must not jump when the wall clock is set.
  const now = () => performance.now();
  const { proxy } = options;
  const policy = createNetworkPolicy(options.allowNetworks);
  // Our own dispatcher, never the global one. Redirects are never followed: undici's request only does
  // that with a redirect interceptor, which this agent does not have. The attempt's own timer is what
  // decides the outcome (attempt-deadline.ts).
  const agent = new Agent({
    connect: guardedConnector(policy, { timeoutMs, lookup: options.lookup }),
    ...NO_UNDICI_DEADLINES,
  });
  const inFlight = new Set<Promise<SendResult>>();

  async function deliver(req: DeliveryRequest, began?: number): Promise<SendResult> {
    const started = began ?? now();
    const elapsed = () => Math.max(0, Math.round(now() - started));
    const left = timeoutMs - (now() - started);
    if (left <= 0) return { outcome: 'timed_out', error: noResponseWithin(timeoutMs), durationMs: elapsed() };
    const deadline = new AbortController();
    const timer = setTimeout(
      () => afterPendingReads(() => deadline.abort(new Error(noResponseWithin(timeoutMs)))),
      left,
    );
    try {
      const route = { proxy, policy, timeoutMs, lookup: options.lookup };
      if (proxy) return await sendViaProxy({ ...route, proxy }, req, deadline.signal, elapsed);
      if (!req.tls) return await sendRequest(agent, req, deadline.signal, timeoutMs, elapsed);
      // A hook with a client certificate gets a connection of its own for the attempt: the shared agent's
      // connections are anonymous, and a certificate must never be presented to another hook's endpoint.
      const client = new Client(new URL(req.url).origin, {
        connect: guardedConnector(policy, { timeoutMs, lookup: options.lookup, tls: req.tls }),
        ...NO_UNDICI_DEADLINES,
        pipelining: 1,
      });
      try {
        const result = await sendRequest(client, req, deadline.signal, timeoutMs, elapsed);
        return explainCertificateRefusal(result, req.tls, () => subjectOf(req.tls!));
      } finally {
        void client.destroy().catch(() => undefined);
      }
    } catch (error) {
      // request() can throw synchronously for a URL undici refuses (e.g. an unsupported protocol).
      return { ...classifyAttemptError(error), durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    attempt(req, began) {
      const result = deliver(req, began);
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

const subjectOf = (tls: HookTls) => clientCertificateFacts(tls).subject;
