import { createHash, randomBytes } from 'node:crypto';
import { fingerprint, systemClock, type Clock } from '@hookline/core';
import { type RedisKeys } from '@hookline/redis';
import { STORE_SCRIPTS } from './scripts';
import type { Redis } from 'ioredis';

/** How long a link's key outlives the link: the refusal page can still lead back to `return_url` meanwhile. */
const KEPT_AFTER_EXPIRY_MS = 24 * 3600 * 1000;

export interface PortalLinkOptions {
  readonly returnUrl?: string;
  readonly readOnly: boolean;
  readonly ttlSeconds: number;
}

export interface NewPortalLink {
  /** The secret part of the URL: shown once, stored only as its SHA-256. */
  readonly token: string;
  /** The link's public name in audit entries (a fingerprint of the token). */
  readonly link: string;
  readonly expiresAt: string;
}

export type PortalLinkUse =
  | {
      readonly kind: 'ok';
      readonly accountId: string;
      readonly readOnly: boolean;
      readonly returnUrl?: string;
      readonly link: string;
    }
  | { readonly kind: 'used' | 'expired'; readonly returnUrl?: string }
  /** Never made, mistyped, or expired more than a day ago. */
  | { readonly kind: 'unknown' };

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Single-use, short-lived sign-in links into the website (product.md §16). Redis keeps the SHA-256 of each
 * token, never the token: a leaked dump opens nothing. Use is one script (portal-link-use.lua): once, before
 * the expiry, decided on the server's clock.
 */
export class PortalLinks {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly clock: Clock = systemClock,
  ) {}

  async create(accountId: string, options: PortalLinkOptions): Promise<NewPortalLink> {
    const token = randomBytes(32).toString('base64url');
    const link = fingerprint(token);
    const expires = this.clock().getTime() + options.ttlSeconds * 1000;
    const key = this.keys.portalLink(hashOf(token));
    await this.redis
      .multi()
      .hset(key, {
        account: accountId,
        read_only: options.readOnly ? '1' : '0',
        return_url: options.returnUrl ?? '',
        expires_at: String(expires),
        link,
      })
      .pexpireat(key, expires + KEPT_AFTER_EXPIRY_MS)
      .exec();
    return { token, link, expiresAt: new Date(expires).toISOString() };
  }

  async use(token: string): Promise<PortalLinkUse> {
    if (!TOKEN.test(token)) return { kind: 'unknown' };
    const reply = (await STORE_SCRIPTS.portalLinkUse.run(
      this.redis,
      [this.keys.portalLink(hashOf(token))],
      [this.clock().getTime()],
    )) as string[];
    const back = (url: string | undefined) => (url ? { returnUrl: url } : {});
    const [kind, a, b, c, d] = reply;
    if (kind === 'ok') return { kind, accountId: a!, readOnly: b === '1', ...back(c), link: d ?? '' };
    if (kind === 'used' || kind === 'expired') return { kind, ...back(a) };
    return { kind: 'unknown' };
  }
}
