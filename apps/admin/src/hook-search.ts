import type { FastifyBaseLogger } from 'fastify';
import type { HookView } from '@hookline/core';
import { isEmailAddress, normaliseEmail, type Accounts, type Hooks } from '@hookline/store';
import type { BoardRegistry } from './board-registry';

// The admin page's searches: by account id (and hook name within it), by the account's e-mail address, and by a
// piece of the endpoint URL. Each registers what it finds on the board (so "open these queues" shows them),
// and says what was searched when it finds nothing.

/** Most hooks a search by URL lists: the first found; the page says when there are more. */
export const URL_MATCHES_LISTED = 50;
const URL_MAX = 2048;

/** The query string of the admin page and of the board's own address. */
export interface HookSearchQuery {
  readonly account?: string;
  readonly name?: string;
  readonly email?: string;
  readonly url?: string;
}

export interface HookSearchResult {
  /** The hooks found (oldest first), when there was a search that could be made. */
  readonly found?: readonly HookView[];
  /** What the page says: what was searched when nothing was found, what to do, what may be missing. */
  readonly message?: string;
}

export interface HookSearchDeps {
  readonly accounts: Pick<Accounts, 'get' | 'idByEmail'>;
  readonly hooks: Pick<Hooks, 'findByUrl'>;
  readonly registry: Pick<BoardRegistry, 'registerAccount' | 'registerHooks'>;
  /** Started when a search by URL finds the URL index incomplete. */
  readonly urlIndex: UrlIndexWalk;
}

/** The search the query asks for (one: account, else e-mail, else URL); undefined when it asks for none. */
export async function searchHooks(
  query: HookSearchQuery,
  deps: HookSearchDeps,
): Promise<HookSearchResult | undefined> {
  const account = query.account?.trim() ?? '';
  const name = query.name?.trim() ?? '';
  if (account) {
    const found = await deps.registry.registerAccount(account, name);
    const within = name ? ` with a name containing “${name}”` : '';
    return found.length > 0
      ? { found }
      : { message: `No hooks found for the account “${account}”${within}.` };
  }
  // Names are looked for within one account (hooks are listed per account): said, not an empty answer.
  if (name) return { message: 'Give the account id too: hook names are looked for within one account.' };
  if (query.email?.trim()) return byEmail(normaliseEmail(query.email), deps);
  if (query.url?.trim()) return byUrl(query.url.trim(), deps);
  return undefined;
}

async function byEmail(email: string, deps: HookSearchDeps): Promise<HookSearchResult> {
  if (!isEmailAddress(email)) return { message: `“${email}” is not an e-mail address.` };
  const accountId = await deps.accounts.idByEmail(email);
  if (!accountId) return { message: `No account has the e-mail address “${email}”.` };
  const found = await deps.registry.registerAccount(accountId);
  if (found.length > 0) return { found };
  const account = await deps.accounts.get(accountId);
  return {
    message: `${account?.name ?? 'The account'} (${accountId}), the account with the e-mail address “${email}”, has no hooks.`,
  };
}

async function byUrl(text: string, deps: HookSearchDeps): Promise<HookSearchResult> {
  if (text.length > URL_MAX)
    return { message: `An endpoint URL is at most ${URL_MAX} characters: give a part of it.` };
  const { hooks, more, complete } = await deps.hooks.findByUrl(text, URL_MATCHES_LISTED);
  deps.registry.registerHooks(hooks);
  const said = [
    hooks.length === 0 ? `No hook has an endpoint URL containing “${text}”.` : '',
    more
      ? `More than ${URL_MATCHES_LISTED} hooks have an endpoint URL containing “${text}”: the first ${URL_MATCHES_LISTED} found are listed; give more of the URL.`
      : '',
  ];
  if (!complete) {
    deps.urlIndex.start();
    said.push(
      'Hooks made before this version of hookline are still being added to the search by URL: some may be missing; search again in a minute.',
    );
  }
  const message = said.filter(Boolean).join(' ');
  return { found: hooks, ...(message ? { message } : {}) };
}

/**
 * The walk that adds hooks made before the URL index to it (Hooks.indexUrls): started when the admin area is
 * mounted and again by a search that finds it unfinished (a walk cut short by a restart or a Redis outage),
 * one at a time in this process. It costs three reads when there is nothing to add.
 */
export class UrlIndexWalk {
  private running?: Promise<void>;

  constructor(
    private readonly hooks: Pick<Hooks, 'indexUrls'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.running ??= this.hooks
      .indexUrls()
      .catch((error: unknown) =>
        this.log.warn(
          { err: error },
          'admin: adding hooks to the search by URL failed; the next search retries',
        ),
      )
      .finally(() => (this.running = undefined));
  }
}
