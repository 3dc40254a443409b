import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';

export type FlashKind = 'success' | 'warning' | 'error';
export interface Flash {
  readonly kind: FlashKind;
  readonly message: string;
  /** Where to read more (a failed test's attempt page). */
  readonly link?: { readonly href: string; readonly text: string };
}

/**
 * A signing secret waiting to be shown once, by the GET its POST redirected to (Post/Redirect/Get): the POST
 * never answers the secret itself, so reloading or going back cannot make or rotate another one.
 */
export interface PendingSecret {
  /** Random, in the redirect's URL: only that GET, once, shows the secret. */
  readonly token: string;
  readonly hookId: string;
  readonly secret: string;
  readonly rotated: boolean;
  /** ms; not shown after this (a page left unopened). */
  readonly until: number;
}

/** A session opened by an operator's sign-in link rather than the account's password. */
export interface PortalSession {
  readonly readOnly: boolean;
  /** Where signing out (and a refused link) leads: the operator's own site. */
  readonly returnUrl?: string;
  /** The link's fingerprint, for audit entries. */
  readonly link: string;
}

export interface SessionData {
  /** Absent before sign-in: the login form still needs a CSRF token bound to the visitor. */
  readonly accountId?: string;
  readonly csrf: string;
  readonly flash?: Flash;
  readonly pendingSecret?: PendingSecret;
  /** When the session was started (ms): a password change ends every session started before it. */
  readonly issuedAt?: number;
  readonly portal?: PortalSession;
}

export interface Session {
  readonly id: string;
  readonly data: SessionData;
}

// Signed-in sessions live for a working day of inactivity; anonymous ones only as long as a login form.
const SIGNED_IN_TTL_SECONDS = 12 * 3600;
const ANONYMOUS_TTL_SECONDS = 3600;

const ttlOf = (data: SessionData) => (data.accountId ? SIGNED_IN_TTL_SECONDS : ANONYMOUS_TTL_SECONDS);
const newToken = () => randomBytes(32).toString('base64url');

/**
 * Server-side sessions in Redis. The cookie carries a random 32-byte id; Redis stores only its SHA-256, so a
 * leaked Redis dump cannot be replayed as a cookie.
 */
export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  private key(id: string): string {
    return this.keys.session(createHash('sha256').update(id).digest('hex'));
  }

  async create(accountId?: string, portal?: PortalSession): Promise<Session> {
    const id = newToken();
    const data: SessionData = {
      csrf: newToken(),
      issuedAt: Date.now(),
      ...(accountId ? { accountId } : {}),
      ...(portal ? { portal } : {}),
    };
    await this.save(id, data);
    return { id, data };
  }

  async get(id: string): Promise<Session | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const raw = await this.redis.get(this.key(id));
    if (raw === null) return undefined;
    const data = JSON.parse(raw) as SessionData;
    // Sliding expiry: an active user is not signed out mid-task.
    await this.redis.expire(this.key(id), ttlOf(data));
    return { id, data };
  }

  async save(id: string, data: SessionData): Promise<void> {
    await this.redis.set(this.key(id), JSON.stringify(data), 'EX', ttlOf(data));
  }

  async destroy(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }

  /**
   * Ends every session of the account started until now, wherever it is signed in (no index of sessions
   * needed: each one is checked against this time when it is used).
   */
  async endAllFor(accountId: string): Promise<void> {
    await this.redis.set(this.keys.accountSessionsAfter(accountId), Date.now());
  }

  /** False for a session of the account started before its sessions were last ended. */
  async isCurrent(session: Session, accountId: string): Promise<boolean> {
    const after = Number((await this.redis.get(this.keys.accountSessionsAfter(accountId))) ?? 0);
    return (session.data.issuedAt ?? 0) >= after;
  }
}
