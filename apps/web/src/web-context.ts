import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditActor, AuditInput } from '@hookline/core';
import { LoginLimiter, type AccountView } from '@hookline/store';
import type { WebDeps } from './deps';
import { errorPage, NOT_FOUND } from './pages/error-page';
import { hookGonePage } from './pages/hook-gone-page';
import { hookDeletion } from './hook-deletion';
import { SessionStore, type Session } from './session/session-store';
import { Sessions } from './session/sessions';
import type { SafeHtml } from './view/html';
import { brandOf, type Brand } from './view/brand';
import type { Viewer } from './view/layout';

export interface SignedIn {
  readonly account: AccountView;
  readonly session: Session;
  /** The actor recorded in the activity feed for this visitor's changes. */
  readonly actor: string;
  /** The actor recorded in the audit log: the account's user, or a session opened by a sign-in link. */
  readonly auditActor: AuditActor;
  /** A sign-in link's read-only session: sees everything, changes nothing. */
  readonly readOnly: boolean;
}

/** The site is served over https: secure cookies and HSTS. */
export const isHttps = (config: WebDeps['config']): boolean =>
  config.HOOKLINE_PUBLIC_URL?.startsWith('https://') === true;

/** What every route shares: the deps, sessions, the login limiter and a few reply helpers. */
export class WebContext {
  readonly sessions: Sessions;
  readonly limiter: LoginLimiter;
  /** The operator's brand (or hookline's own), on every page. */
  readonly brand: Brand;
  /** HOOKLINE_FRAME_ANCESTORS names pages that may frame the website. */
  readonly embeddable: boolean;

  constructor(readonly deps: WebDeps) {
    this.embeddable = (deps.config.HOOKLINE_FRAME_ANCESTORS ?? []).length > 0;
    this.sessions = new Sessions(
      new SessionStore(deps.redis, deps.keys),
      isHttps(deps.config),
      this.embeddable,
    );
    this.limiter = new LoginLimiter(deps.redis, deps.keys);
    this.brand = brandOf(deps.config);
  }

  now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  /** The signed-in account, or undefined (no session, signed out, or the account is gone). */
  async signedIn(request: FastifyRequest): Promise<SignedIn | undefined> {
    const session = await this.sessions.current(request);
    const accountId = session?.data.accountId;
    const account = accountId ? await this.deps.store.accounts.get(accountId) : undefined;
    if (!session || !account) return undefined;
    const portal = session.data.portal;
    return {
      account,
      session,
      actor: portal ? `portal:${account.id}` : `customer:${account.id}`,
      auditActor: portal
        ? { kind: 'portal_session', read_only: portal.readOnly, link: portal.link }
        : { kind: 'account_user' },
      readOnly: portal?.readOnly === true,
    };
  }

  /** For pages and actions: the signed-in account, or a redirect to the sign-in page (then back here). */
  async require(request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | undefined> {
    const who = await this.signedIn(request);
    if (!who) {
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      await reply.redirect(`/login${next}`, 303);
    }
    return who;
  }

  /** Records a change this visitor made in the audit log (after it succeeded). */
  async audit(
    request: FastifyRequest,
    who: SignedIn,
    entry: Omit<AuditInput, 'actor' | 'address' | 'account_id'>,
  ): Promise<void> {
    await this.deps.audit.record({
      ...entry,
      account_id: who.account.id,
      actor: who.auditActor,
      address: request.ip,
    });
  }

  /** What the layout needs; takes the pending one-time message, so call it only when rendering a page. */
  async viewer(request: FastifyRequest, who: SignedIn): Promise<Viewer> {
    const flash = await this.sessions.takeFlash(request);
    return {
      account: who.account,
      csrf: who.session.data.csrf,
      ...(flash ? { flash } : {}),
      ...(who.readOnly ? { readOnly: true } : {}),
      brand: this.brand,
    };
  }

  page(reply: FastifyReply, body: SafeHtml, status = 200): FastifyReply {
    return reply.code(status).type('text/html; charset=utf-8').send(body.value);
  }

  /** Another account's hook answers exactly like a hook that does not exist. */
  async notFound(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const who = await this.signedIn(request).catch(() => undefined);
    const viewer = who ? { account: who.account, csrf: who.session.data.csrf, brand: this.brand } : undefined;
    return this.page(reply, errorPage(viewer, NOT_FOUND, this.brand), 404);
  }

  /** A hook this visitor's account cannot find: 410 with when and by whom when it was deleted, else a 404. */
  async hookNotFound(
    request: FastifyRequest,
    reply: FastifyReply,
    who: SignedIn,
    hookId: string,
  ): Promise<FastifyReply> {
    const deletion = await hookDeletion(this.deps, who.account.id, hookId);
    if (!deletion) return this.notFound(request, reply);
    const viewer = {
      account: who.account,
      csrf: who.session.data.csrf,
      brand: this.brand,
      ...(who.readOnly ? { readOnly: true } : {}),
    };
    return this.page(reply, hookGonePage(viewer, deletion), 410);
  }
}
