import { randomBytes } from 'node:crypto';

// Prefixed ids say what they name in logs and URLs. Event ids start with the time so they sort by
// acceptance; the random tail makes them unguessable.
export type IdPrefix = 'acct' | 'hk' | 'evt';

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  const time = prefix === 'evt' ? now.toString(36).padStart(9, '0') : '';
  return `${prefix}_${time}${randomBytes(prefix === 'evt' ? 8 : 10).toString('hex')}`;
}

export const ID_PATTERN = /^(acct|hk|evt)_[0-9a-z]{8,40}$/;
