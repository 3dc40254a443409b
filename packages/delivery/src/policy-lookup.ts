import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { DestinationBlockedError } from './destination-blocked';
import type { NetworkPolicy } from './network-policy';

// Resolution happens inside net.connect, which then connects only to what this returns: filtering here
// means the policy judges the very address the socket uses, so a DNS answer cannot change between
// check and connect (no rebinding window).
export function policyLookup(policy: NetworkPolicy, resolve: LookupFunction = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, result, family) => {
      if (err) {
        callback(err, '', undefined);
        return;
      }
      // An injected lookup may ignore `all` and answer with one address.
      const addresses: LookupAddress[] =
        typeof result === 'string' ? [{ address: result, family: family ?? 4 }] : result;
      const allowed = addresses.filter((a) => policy.check(a.address).allowed);
      if (allowed.length === 0) {
        const refused = addresses.map(({ address }) => {
          const decision = policy.check(address);
          return { address, reason: decision.allowed ? ('not_an_ip' as const) : decision.reason };
        });
        callback(new DestinationBlockedError(hostname, refused), '', undefined);
        return;
      }
      if (options.all) callback(null, allowed);
      else callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
