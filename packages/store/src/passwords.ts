import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// scrypt with the interactive-login parameters of RFC 7914 §2 (N=2^14, r=8, p=1): ~16 MiB and tens of
// milliseconds per hash. The parameters travel with each hash, so raising them later keeps old hashes valid.
const DEFAULT = { N: 16384, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

// Bounds on parameters read back from a stored hash, so a corrupted record cannot make us allocate gigabytes.
const MAX_LOG2_N = 20;
const MAX_R = 32;
const MAX_P = 16;

interface ParsedHash {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Buffer;
  readonly hash: Buffer;
}

/** `scrypt$N$r$p$<salt base64url>$<hash base64url>`, with a random 16-byte salt. */
export async function hashPassword(pw: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(pw, salt, DEFAULT);
  return format({ ...DEFAULT, salt, hash });
}

/** False for a wrong password and for a malformed hash; compares in constant time. */
export async function verifyPasswordHash(pw: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const actual = await derive(pw, parsed.salt, parsed, parsed.hash.length);
  return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
}

/**
 * A well-formed hash that matches no password, with today's parameters: verifying against it costs what a
 * real check costs, so "no such email" and "wrong password" take the same time.
 */
export const DUMMY_PASSWORD_HASH = format({
  ...DEFAULT,
  salt: randomBytes(SALT_BYTES),
  hash: randomBytes(HASH_BYTES),
});

function format(h: ParsedHash): string {
  return ['scrypt', h.N, h.r, h.p, h.salt.toString('base64url'), h.hash.toString('base64url')].join('$');
}

function parse(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map((v) => (/^[1-9][0-9]{0,9}$/.test(v ?? '') ? Number(v) : NaN));
  if (N === undefined || r === undefined || p === undefined) return undefined;
  const validN = Number.isInteger(Math.log2(N)) && N >= 2 && N <= 2 ** MAX_LOG2_N;
  if (!validN || !(r >= 1 && r <= MAX_R) || !(p >= 1 && p <= MAX_P)) return undefined;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const hash = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length < 8 || hash.length < 16 || hash.length > 64) return undefined;
  return { N, r, p, salt, hash };
}

function derive(
  pw: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
  length = HASH_BYTES,
): Promise<Buffer> {
  // Node refuses above 32 MiB by default; allow exactly what these parameters need (128·N·r plus slack).
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(pw.normalize('NFC'), salt, length, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}
