import { isDeepStrictEqual } from 'node:util';
import type { HookAuth, HookTls, UpdateHookInput } from '@hookline/core';
import { toHookTarget, type StoredHook } from './hook-record';
import type { SecretBox } from './secret-box';

/**
 * A change without the credentials and client certificate it gives again exactly as the hook has them: the
 * same token or certificate sent again changes nothing, like any other field's own value, so it writes nothing
 * and records no credentials change. The stored ones are opened to compare, in this process, and never leave
 * it; credentials that no longer open (HOOKLINE_SECRET_KEY changed) count as different.
 */
export function withoutKeptCredentials(
  stored: StoredHook,
  box: SecretBox,
  change: UpdateHookInput,
): UpdateHookInput {
  if (change.auth === undefined && (change.tls === undefined || change.tls === null)) return change;
  let kept: { auth: HookAuth; tls?: HookTls };
  try {
    kept = toHookTarget(stored, box);
  } catch {
    return change;
  }
  const { auth, tls, ...rest } = change;
  return {
    ...rest,
    ...(auth !== undefined && !isDeepStrictEqual(canonical(auth), canonical(kept.auth)) ? { auth } : {}),
    ...(tls !== undefined && !(tls !== null && kept.tls && sameTls(tls, kept.tls)) ? { tls } : {}),
  };
}

const sameTls = (a: HookTls, b: HookTls) => a.cert === b.cert && a.key === b.key && a.ca === b.ca;

/** Fields in one order and absent ones left out, so two parses of the same credentials compare equal. */
function canonical(value: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}
