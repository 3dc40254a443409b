import { connect, type Socket } from 'node:net';
import { connectFailure, parseConnectHead } from './connect-answer';
import type { EgressProxy } from './egress-proxy';

/**
 * How asking the proxy for a tunnel ended. Anything but `open` happened before one byte of the request was
 * written: the endpoint cannot have seen it.
 */
export type TunnelResult =
  | { readonly kind: 'open'; readonly socket: Socket }
  /** The proxy would not tunnel: its own refusal (403 policy, 407 credentials, 503 overloaded, …). */
  | { readonly kind: 'refused'; readonly reason: string }
  /** The proxy tried the destination and could not reach it (502, 504, …: see connect-answer.ts). */
  | { readonly kind: 'destination'; readonly reason: string }
  /** No connection to the proxy, or it closed or stalled before answering. */
  | { readonly kind: 'unreachable'; readonly reason: string };

/** A CONNECT answer's head larger than this is not a proxy talking. */
const MAX_HEAD_BYTES = 16 * 1024;

/** `host:port` for a CONNECT line: an IPv6 address goes in brackets (RFC 9110 authority-form). */
export const authorityOf = (address: string, port: number) =>
  `${address.includes(':') ? `[${address}]` : address}:${port}`;

/**
 * Opens an HTTP CONNECT tunnel through `proxy` to `address:port`, an IP address the network policy has
 * allowed: the proxy is never given a name to resolve again, so what it connects to is what was judged.
 * Settles once; `signal` (the attempt's deadline) ends a proxy that does not answer.
 */
export function openTunnel(
  proxy: EgressProxy,
  address: string,
  port: number,
  signal: AbortSignal,
): Promise<TunnelResult> {
  return new Promise((resolve) => {
    const authority = authorityOf(address, port);
    const socket = connect({ host: proxy.host, port: proxy.port });
    let head = Buffer.alloc(0);
    let settled = false;

    const finish = (result: TunnelResult) => {
      if (settled) return;
      settled = true;
      // Out of flowing mode before the listener goes: undici (or TLS) reads the tunnel from here, and a
      // flowing socket with no 'data' listener would drop what arrives meanwhile.
      socket.pause();
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
      if (result.kind !== 'open') socket.destroy();
      resolve(result);
    };
    const unreachable = (why: string) =>
      finish({ kind: 'unreachable', reason: `the egress proxy ${proxy.shown} ${why}` });
    const onError = (error: NodeJS.ErrnoException) =>
      unreachable(`cannot be reached: ${error.code ?? error.message}`);
    const onClose = () => unreachable('closed the connection before answering CONNECT');
    const onAbort = () => unreachable('did not answer CONNECT before the deadline');
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) unreachable('answered CONNECT with no HTTP head');
        return;
      }
      const answer = parseConnectHead(head.subarray(0, end).toString('latin1'));
      if (!answer) return unreachable('answered CONNECT with no HTTP status line');
      if (answer.status !== 200) {
        // squid names its error in a header (`ERR_CONNECT_FAIL 111`): the reason keeps it.
        const squid = answer.headers['x-squid-error'];
        const said =
          `${answer.status}${answer.phrase ? ` ${answer.phrase.slice(0, 100)}` : ''}` +
          (squid ? ` (${squid.slice(0, 60)})` : '');
        return connectFailure(answer) === 'destination'
          ? finish({
              kind: 'destination',
              reason: `the egress proxy ${proxy.shown} could not reach ${authority}: it answered CONNECT with ${said}`,
            })
          : finish({
              kind: 'refused',
              reason: `the egress proxy ${proxy.shown} refused CONNECT ${authority}: ${said}`,
            });
      }
      // The endpoint speaks only after the request (or the TLS hello): anything past the head is a proxy bug,
      // but it belongs to the tunnel, not to the proxy's answer.
      const rest = head.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      finish({ kind: 'open', socket });
    };

    socket.on('error', onError);
    socket.on('close', onClose);
    socket.on('data', onData);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
      if (proxy.authorization) lines.push(`Proxy-Authorization: ${proxy.authorization}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
  });
}
