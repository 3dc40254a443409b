import { connect } from 'node:net';
import type { EgressProxy } from './egress-proxy';

/**
 * Whether the egress proxy accepts a connection within `ms`, for readiness: a TCP connection, no CONNECT (that
 * would need a destination) and no credentials sent. Never throws.
 */
export function proxyAnswers(
  proxy: EgressProxy,
  ms: number,
): Promise<{ ok: true; ms: number } | { ok: false; reason: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect({ host: proxy.host, port: proxy.port, timeout: ms });
    const done = (result: { ok: true; ms: number } | { ok: false; reason: string }) => {
      socket.destroy();
      resolve(result);
    };
    socket.once('connect', () => done({ ok: true, ms: Math.round(performance.now() - started) }));
    socket.once('timeout', () => done({ ok: false, reason: `no connection within ${ms} ms` }));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done({ ok: false, reason: error.code ?? error.message }),
    );
  });
}
