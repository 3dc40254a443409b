import { ID_PATTERN, type IdPrefix } from '@hookline/core';

/**
 * Ids reach the store from URLs. Anything not shaped like one of our ids cannot name a record, and must not
 * be spliced into a Redis key (a `}` would move it out of its hash tag), so lookups answer "not found".
 */
export function isIdOf(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && ID_PATTERN.test(value);
}
