import { parseIp } from '@hookline/core';
import type { LookupFunction } from 'node:net';
import { DestinationBlockedError } from './destination-blocked';
import type { NetworkPolicy } from './network-policy';
import { policyLookup } from './policy-lookup';

/**
 * The one address a request through the egress proxy goes to: an IP literal as given, a name resolved here
 * (the first address the policy allows). Rejects with DestinationBlockedError when the policy forbids every
 * address, or with the resolver's error. The proxy is then asked for this address, never for the name.
 */
export function resolveAllowed(
  hostname: string,
  policy: NetworkPolicy,
  resolver?: LookupFunction,
): Promise<string> {
  const literal = parseIp(hostname);
  if (literal) {
    const bare = hostname.replace(/^\[|\]$/g, '');
    const decision = policy.check(bare);
    return decision.allowed
      ? Promise.resolve(bare)
      : Promise.reject(new DestinationBlockedError(hostname, [{ address: bare, reason: decision.reason }]));
  }
  const lookup = policyLookup(policy, resolver);
  return new Promise((resolve, reject) =>
    lookup(hostname, { all: false }, (err, address) => (err ? reject(err) : resolve(address as string))),
  );
}
