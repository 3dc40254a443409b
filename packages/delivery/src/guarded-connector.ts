import type { LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { DestinationBlockedError } from './destination-blocked';
import { parseIp, type HookTls } from '@hookline/core';
import { clientTlsOptions } from './client-tls';
import type { NetworkPolicy } from './network-policy';
import { policyLookup } from './policy-lookup';

/**
 * undici's own connector, with the network policy in front of it. IP literals are judged before any
 * socket exists (net.connect never calls lookup for them); host names are filtered in the lookup. The
 * connected socket's remote address is checked once more, a last line that costs one comparison.
 */
export function guardedConnector(
  policy: NetworkPolicy,
  options: { timeoutMs: number; lookup?: LookupFunction; tls?: HookTls },
): buildConnector.connector {
  const connect = buildConnector({
    timeout: options.timeoutMs,
    lookup: policyLookup(policy, options.lookup),
    ...clientTlsOptions(options.tls),
  });

  const refuse = (host: string, address: string) => {
    const decision = policy.check(address);
    return decision.allowed
      ? undefined
      : new DestinationBlockedError(host, [{ address, reason: decision.reason }]);
  };

  return (target, callback) => {
    if (parseIp(target.hostname)) {
      const blocked = refuse(target.hostname, target.hostname);
      if (blocked) {
        callback(blocked, null);
        return;
      }
    }
    connect(target, (err, socket) => {
      if (err) {
        callback(err, null);
        return;
      }
      // An already closed socket has no remote address; undici reports it as the error it is.
      const remote = socket.remoteAddress;
      const blocked = remote === undefined ? undefined : refuse(target.hostname, remote);
      if (blocked) {
        socket.destroy();
        callback(blocked, null);
        return;
      }
      callback(null, socket);
    });
  };
}
