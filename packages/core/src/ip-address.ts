import { isIP } from 'node:net';

/** An IP address as a number: 32 bits for IPv4, 128 bits for IPv6. */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly value: bigint;
}

export interface Cidr {
  readonly family: 4 | 6;
  readonly prefix: bigint;
  readonly length: number;
}

const BITS = { 4: 32, 6: 128 } as const;

function parseIPv4(text: string): bigint {
  return text.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

function parseIPv6(text: string): bigint {
  // A trailing dotted quad (::ffff:1.2.3.4) stands for the last two 16-bit groups: rewrite it as hex.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  const hex = tail.includes('.')
    ? `${text.slice(0, lastColon + 1)}${(parseIPv4(tail) >> 16n).toString(16)}:${(parseIPv4(tail) & 0xffffn).toString(16)}`
    : text;
  const [head = '', rest] = hex.split('::');
  const toGroups = (s: string) => (s === '' ? [] : s.split(':').map((g) => BigInt(parseInt(g, 16))));
  const left = toGroups(head);
  const right = rest === undefined ? [] : toGroups(rest);
  const fill = new Array<bigint>(8 - left.length - right.length).fill(0n);
  return [...left, ...fill, ...right].reduce((acc, g) => (acc << 16n) | g, 0n);
}

/**
 * Parses a literal IP address as DNS or a URL gives it: dotted IPv4, or IPv6 with or without brackets
 * and zone id. Returns undefined for anything else (host names included).
 */
export function parseIp(text: string): IpAddress | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const unzoned = bare.split('%')[0] ?? '';
  const family = isIP(unzoned);
  if (family === 4) return { family: 4, value: parseIPv4(unzoned) };
  if (family === 6) return { family: 6, value: parseIPv6(unzoned) };
  return undefined;
}

/** Parses `address/length` (or a bare address, meaning that one address). Undefined when malformed. */
export function parseCidr(text: string): Cidr | undefined {
  const [address, length, ...extra] = text.trim().split('/');
  if (address === undefined || extra.length > 0) return undefined;
  const ip = parseIp(address);
  if (!ip) return undefined;
  const bits = BITS[ip.family];
  if (length !== undefined && !/^\d{1,3}$/.test(length)) return undefined;
  const n = length === undefined ? bits : Number(length);
  if (n > bits) return undefined;
  return { family: ip.family, prefix: ip.value >> BigInt(bits - n), length: n };
}

export function cidrContains(cidr: Cidr, ip: IpAddress): boolean {
  return cidr.family === ip.family && ip.value >> BigInt(BITS[ip.family] - cidr.length) === cidr.prefix;
}
