import { clientCertificateFacts, type DeliveryRequest, type SendResult } from '@hookline/core';
import type { LookupFunction } from 'node:net';
import { buildConnector, Client } from 'undici';
import { NO_UNDICI_DEADLINES, noResponseWithin } from './attempt-deadline';
import { classifyAttemptError } from './attempt-error';
import { clientTlsOptions, explainCertificateRefusal } from './client-tls';
import type { EgressProxy } from './egress-proxy';
import type { NetworkPolicy } from './network-policy';
import { openTunnel } from './proxy-tunnel';
import { resolveAllowed } from './resolve-allowed';
import { sendRequest, whenAborted } from './send-request';

export interface ProxyRoute {
  readonly proxy: EgressProxy;
  readonly policy: NetworkPolicy;
  readonly timeoutMs: number;
  readonly lookup?: LookupFunction;
}

/**
 * One attempt through the egress proxy, in three steps under one deadline: the destination's name is
 * resolved and judged by the network policy here (blocked: the proxy never hears of it); the proxy is asked
 * for a tunnel to that very address (refused or unreachable: nothing was written, `not_sent`; the proxy's
 * answer that the destination cannot be reached: the endpoint's `error`, see connect-answer.ts); the request
 * then goes through the tunnel as it would directly (TLS with the hook's host name for SNI and the
 * certificate check, `Host` the hook's). A tunnel serves one attempt: the proxy is asked again for the next,
 * so a proxy that goes down is noticed before a request is written, never half-way.
 */
export async function sendViaProxy(
  route: ProxyRoute,
  req: DeliveryRequest,
  deadline: AbortSignal,
  elapsed: () => number,
): Promise<SendResult> {
  const { timeoutMs } = route;
  const url = new URL(req.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { outcome: 'error', error: `unsupported protocol ${url.protocol}`, durationMs: elapsed() };
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;

  const resolved = resolveAllowed(url.hostname, route.policy, route.lookup).then(
    (address) => ({ kind: 'address' as const, address }),
    (error: unknown) => ({ kind: 'error' as const, error }),
  );
  const found = await Promise.race([
    resolved,
    whenAborted(deadline).then(() => ({ kind: 'deadline' as const })),
  ]);
  if (found.kind === 'deadline')
    return { outcome: 'timed_out', error: noResponseWithin(timeoutMs), durationMs: elapsed() };
  if (found.kind === 'error') return { ...classifyAttemptError(found.error), durationMs: elapsed() };

  const tunnel = await openTunnel(route.proxy, found.address, port, deadline);
  // The proxy reached out and the endpoint was not there: the endpoint's failure, as a direct refusal is.
  if (tunnel.kind === 'destination') return { outcome: 'error', error: tunnel.reason, durationMs: elapsed() };
  if (tunnel.kind !== 'open')
    return { outcome: 'not_sent', cause: tunnel.kind, error: tunnel.reason, durationMs: elapsed() };

  const tls = buildConnector({ timeout: timeoutMs, ...clientTlsOptions(req.tls) });
  let socket: typeof tunnel.socket | undefined = tunnel.socket;
  const client = new Client(url.origin, {
    ...NO_UNDICI_DEADLINES,
    pipelining: 1,
    connect: (options, callback) => {
      const given = socket;
      socket = undefined;
      if (!given)
        return process.nextTick(() => callback(new Error('the tunnel served its one request already'), null));
      if (options.protocol === 'https:') return tls({ ...options, httpSocket: given }, callback);
      // Later, never from inside the call: undici's client starts dispatching only once connect has returned.
      process.nextTick(() => callback(null, given));
    },
  });
  try {
    const result = await sendRequest(client, req, deadline, timeoutMs, elapsed);
    return explainCertificateRefusal(result, req.tls, () => clientCertificateFacts(req.tls!).subject);
  } finally {
    // destroy, not close: nothing else will use this tunnel, and a timed-out request must not hold it.
    void client.destroy().catch(() => undefined);
    tunnel.socket.destroy();
  }
}
