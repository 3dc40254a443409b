import { randomFillSync } from 'node:crypto';

// Prefixed ids say what they name in logs and URLs. Event and attempt ids start with the time so they sort
// by when they were made; the random tail makes them unguessable.
export type IdPrefix = 'acct' | 'hk' | 'evt' | 'att' | 'ers';

// Random bytes are drawn from the CSPRNG a few kilobytes at a time and each byte is handed out once, as
// crypto.randomUUID does: one randomBytes call per id cost more than the rest of newId (a native call and a
// fresh Buffer each time), and an event id is made on every publish.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function randomHex(bytes: number): string {
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

// Attempt and audit ids made in one millisecond by one process sort in the order they were made: records
// written together (held events dropped in one go, a hook's change and its test) then list in their order,
// newest first, under one timestamp.
let lastMs = 0;
let seq = 0;

/** The time (base 36) and a sequence within its millisecond: 13 characters that sort as they were made. */
function sequencedTime(now: number): string {
  seq = now === lastMs ? seq + 1 : 0;
  lastMs = now;
  return `${now.toString(36).padStart(9, '0')}${(seq % 36 ** 4).toString(36).padStart(4, '0')}`;
}

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  if (prefix === 'att') return `att_${sequencedTime(now)}${randomHex(6)}`;
  const timed = prefix === 'evt';
  const time = timed ? now.toString(36).padStart(9, '0') : '';
  return `${prefix}_${time}${randomHex(timed ? 8 : 10)}`;
}

/** Audit ids sort by time like attempt ids: `aud_` + time and sequence (ids.ts) + random. */
export function newAuditId(now: number): string {
  return `aud_${sequencedTime(now)}${randomHex(6)}`;
}

export const ID_PATTERN = /^(acct|hk|evt|att|ers)_[0-9a-z]{8,40}$/;
