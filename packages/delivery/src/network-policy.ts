import { cidrContains, parseCidr, parseIp, type Cidr, type IpAddress } from '@hookline/core';

// Customers choose the URLs, so without this policy a hook could reach the operator's own network, the
// cloud metadata service or the machine itself (SSRF). Checked against the address actually connected to.
export type BlockReason =
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'cgnat'
  | 'unique_local'
  | 'multicast'
  | 'unspecified'
  | 'reserved'
  | 'not_an_ip';

export type PolicyDecision =
  | { readonly allowed: true; readonly exempt: boolean }
  | { readonly allowed: false; readonly reason: BlockReason };

export interface NetworkPolicy {
  /** Judges one IP address (as DNS or a URL gives it); anything unparsable is refused. */
  check(address: string): PolicyDecision;
}

const table = (rows: readonly (readonly [string, BlockReason])[]) =>
  rows.map(([cidr, reason]) => ({ cidr: parseCidr(cidr)!, reason }));

const BLOCKED_V4 = table([
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'reserved'], // documentation
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'], // benchmarking
  ['198.51.100.0/24', 'reserved'], // documentation
  ['203.0.113.0/24', 'reserved'], // documentation
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // future use, and 255.255.255.255 broadcast
]);

// Most specific first: ::1 and :: sit inside the deprecated IPv4-compatible block ::/96.
const BLOCKED_V6 = table([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'reserved'], // IPv4-compatible, deprecated
  ['64:ff9b:1::/48', 'reserved'], // local-use NAT64 (RFC 8215): the operator's own translator
  ['100::/64', 'reserved'], // discard
  ['2001:db8::/32', 'reserved'], // documentation
  ['fc00::/7', 'unique_local'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'reserved'], // site-local, deprecated
  ['ff00::/8', 'multicast'],
]);

// IPv6 forms that carry an IPv4 address. The mapped and translated forms ARE that IPv4 host; NAT64 and 6to4
// reach it through a gateway. Either way a blocked IPv4 address stays blocked in any of these clothes.
const EMBEDDINGS = [
  { cidr: parseCidr('::ffff:0:0/96')!, shift: 0n, sameHost: true }, // IPv4-mapped
  { cidr: parseCidr('::ffff:0:0:0/96')!, shift: 0n, sameHost: true }, // IPv4-translated (RFC 2765)
  { cidr: parseCidr('64:ff9b::/96')!, shift: 0n, sameHost: false }, // NAT64 well-known prefix
  { cidr: parseCidr('2002::/16')!, shift: 80n, sameHost: false }, // 6to4
];

function embeddedIPv4(ip: IpAddress): { v4: IpAddress; sameHost: boolean } | undefined {
  for (const { cidr, shift, sameHost } of EMBEDDINGS)
    if (cidrContains(cidr, ip))
      return { v4: { family: 4, value: (ip.value >> shift) & 0xffffffffn }, sameHost };
  return undefined;
}

/** Parses allowNetworks; throws on a malformed entry, which is a configuration bug caught at start. */
export function parseAllowNetworks(allowNetworks: readonly string[]): Cidr[] {
  return allowNetworks.map((text) => {
    const cidr = parseCidr(text);
    if (!cidr) throw new Error(`not a CIDR: ${JSON.stringify(text)}`);
    return cidr;
  });
}

export function createNetworkPolicy(allowNetworks: readonly string[]): NetworkPolicy {
  const exemptions = parseAllowNetworks(allowNetworks);

  const judge = (ip: IpAddress): PolicyDecision => {
    if (exemptions.some((cidr) => cidrContains(cidr, ip))) return { allowed: true, exempt: true };
    if (ip.family === 6) {
      const embedded = embeddedIPv4(ip);
      if (embedded) {
        const verdict = judge(embedded.v4);
        if (!verdict.allowed || embedded.sameHost) return verdict;
      }
    }
    const blocked = (ip.family === 4 ? BLOCKED_V4 : BLOCKED_V6).find(({ cidr }) => cidrContains(cidr, ip));
    return blocked ? { allowed: false, reason: blocked.reason } : { allowed: true, exempt: false };
  };

  return {
    check(address) {
      const ip = parseIp(address);
      return ip ? judge(ip) : { allowed: false, reason: 'not_an_ip' };
    },
  };
}

/**
 * What can be known about a URL's destination without DNS, for a warning when a hook is created: an IP
 * literal is judged, `localhost` and `*.localhost` always mean loopback (RFC 6761), other names are
 * judged only at delivery time (undefined).
 */
export function checkUrlDestination(policy: NetworkPolicy, url: string): PolicyDecision | undefined {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  if (parseIp(hostname)) return policy.check(hostname);
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    const v4 = policy.check('127.0.0.1');
    return v4.allowed ? v4 : { allowed: false, reason: 'loopback' };
  }
  return undefined;
}
