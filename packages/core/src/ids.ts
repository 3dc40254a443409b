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

// Attempt ids made in one millisecond by one process sort in the order they were made: records written
// together (held events dropped in one go) then list in their order, newest first, under one timestamp.
let lastAttemptMs = 0;
let attemptSeq = 0;

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  if (prefix === 'att') {
    attemptSeq = now === lastAttemptMs ? attemptSeq + 1 : 0;
    lastAttemptMs = now;
    const seq = (attemptSeq % 36 ** 4).toString(36).padStart(4, '0');
    return `att_${now.toString(36).padStart(9, '0')}${seq}${randomHex(6)}`;
  }
  const timed = prefix === 'evt';
  const time = timed ? now.toString(36).padStart(9, '0') : '';
  return `${prefix}_${time}${randomHex(timed ? 8 : 10)}`;
}

export const ID_PATTERN = /^(acct|hk|evt|att|ers)_[0-9a-z]{8,40}$/;
