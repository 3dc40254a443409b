import {
  HooklineError,
  isSigningSecret,
  newSigningSecret,
  rotatedKeys,
  type Clock,
  type HookWithSecret,
} from '@hookline/core';
import type { RedisActivityFeed } from './activity-feed';
import { openSigningKeys, SIGNING_FIELDS, signingFields } from './hook-record';
import { STALE_VERSION, type HookRecordAccess } from './hook-record-access';
import type { HookViews } from './hook-views';
import type { SecretBox } from './secret-box';

/** Rotating a hook's signing secret (24 h overlap) and setting one the customer brings. */
export class HookSigningSecrets {
  constructor(
    private readonly records: HookRecordAccess,
    private readonly views: HookViews,
    private readonly secretBox: SecretBox,
    private readonly activity: RedisActivityFeed,
    private readonly clock: Clock,
  ) {}

  async rotate(accountId: string, hookId: string, actor: string): Promise<HookWithSecret | undefined> {
    const stored = await this.records.readOwned(accountId, hookId);
    if (!stored) return undefined;
    const keys = openSigningKeys(stored, this.secretBox);
    if (!keys)
      throw new HooklineError(
        'CONFLICT',
        'This hook does not sign its requests; turn signing on (signing: true) to get a secret',
      );
    const clock = this.clock();
    const secret = newSigningSecret();
    const set = {
      ...signingFields(this.secretBox, hookId, rotatedKeys(keys, secret, clock)),
      updated_at: clock.toISOString(),
    };
    // The version bump makes every worker re-read the hook: the new secret signs from the next request on.
    // Written only over the record as read: two rotations at once each answered a secret, and the one written
    // first was dropped by the other (a rotation keeps one previous secret), dead on arrival.
    const written = await this.records.change(hookId, accountId, true, [], set, stored.version);
    if (written === STALE_VERSION) throw changedMeanwhile();
    if (written < 0) return undefined;
    await this.activity.append(accountId, {
      kind: 'hook.updated',
      at: set.updated_at,
      hook_id: hookId,
      actor,
      detail: 'signing secret rotated',
    });
    const updated = await this.views.get(accountId, hookId);
    return updated && { ...updated, signing_secret: secret };
  }

  async set(accountId: string, hookId: string, secret: string, actor: string): Promise<boolean> {
    if (!isSigningSecret(secret))
      throw new HooklineError(
        'VALIDATION_FAILED',
        'A signing secret is whsec_ followed by base64 of 32 bytes',
      );
    const stored = await this.records.readOwned(accountId, hookId);
    if (!stored) return false;
    const current = openSigningKeys(stored, this.secretBox);
    if (current?.current === secret && !current.previous) return true;
    const set = {
      ...signingFields(this.secretBox, hookId, { current: secret }),
      updated_at: this.records.now(),
    };
    // Unconditional, unlike a rotation: the caller gave the secret and is shown none, so the last one set wins.
    if ((await this.records.change(hookId, accountId, true, [...SIGNING_FIELDS], set)) < 0) return false;
    await this.activity.append(accountId, {
      kind: 'hook.updated',
      at: set.updated_at,
      hook_id: hookId,
      actor,
      detail: 'signing secret set',
    });
    return true;
  }
}

const changedMeanwhile = () =>
  new HooklineError('CONFLICT', 'The hook was changed by another request meanwhile; send the change again');
