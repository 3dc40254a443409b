import type { HookView } from '@hookline/core';
import type { AccountView } from '@hookline/store';
import type { HookSearchQuery } from './hook-search';

// The admin's way into Bull Board: find the queues of one account (by id or e-mail address), of the hooks whose
// endpoint URL contains a text, of one hook, or the suspended hooks, and open them on the board (which registers
// them). Plain server-rendered HTML; every value is escaped.

export interface AdminPageModel {
  /** Where Bull Board is mounted, e.g. /admin/queues. */
  readonly boardPath: string;
  readonly query: HookSearchQuery;
  /** The hooks the search found, when there was one. */
  readonly found?: readonly HookView[];
  readonly suspended: readonly HookView[];
  /** The accounts of the hooks listed, by id: each row names its account. */
  readonly accounts: ReadonlyMap<string, AccountView>;
  readonly message?: string;
}

export function renderAdminPage(m: AdminPageModel): string {
  const board = m.boardPath;
  const value = (name: keyof HookSearchQuery) => attr(m.query[name] ?? '');
  const openAll = m.found?.length
    ? `<p><a href="${attr(`${board}?${searchParams(m.query)}`)}">${m.found.length === 1 ? 'Open this queue' : `Open these ${m.found.length} queues`} in Bull Board</a></p>`
    : '';
  return `${document()}
<p><a href="${attr(board)}">Bull Board</a> shows the queues opened from this page (or by a link to one).
On a hook's queue page, Resume re-enables a suspended hook and delivers its held events in order; Pause suspends it.</p>
<form method="get" action="">
<label>Account id <input name="account" value="${value('account')}" placeholder="acct_…" required></label>
<label>Hook name contains <input name="name" value="${value('name')}" placeholder="optional"></label>
<button type="submit">Find hooks</button>
</form>
<form method="get" action="">
<label>Account e-mail <input name="email" value="${value('email')}" inputmode="email" autocomplete="off" spellcheck="false" placeholder="ops@example.com" required></label>
<button type="submit">Find by e-mail</button>
</form>
<form method="get" action="">
<label>Endpoint URL contains <input name="url" value="${value('url')}" inputmode="url" autocomplete="off" spellcheck="false" maxlength="2048" placeholder="crm.example.com/hooks" required></label>
<button type="submit">Find by URL</button>
</form>
<form method="get" action="${attr(board)}">
<label>Hook id <input name="hook" placeholder="hk_…" required></label>
<button type="submit">Open in Bull Board</button>
</form>
${m.message ? `<p role="status">${text(m.message)}</p>` : ''}
${m.found?.length ? `<h2>Hooks found</h2>${hookTable(m.found, board, m.accounts)}${openAll}` : ''}
<h2>Suspended hooks</h2>
${m.suspended.length ? hookTable(m.suspended, board, m.accounts) : '<p>None.</p>'}
</main></body></html>`;
}

/** The search the page made, as the board's address takes it (the board runs it again to open the queues). */
function searchParams(query: HookSearchQuery): string {
  const { account, name, email, url } = query;
  const params: Record<string, string> = account?.trim()
    ? { account, name: name ?? '' }
    : email?.trim()
      ? { email }
      : { url: url ?? '' };
  return new URLSearchParams(params).toString();
}

/** A refusal as a browser shows it: the page's own frame, one sentence. */
export function refusalPage(sentence: string): string {
  return `${document()}\n<p>${text(sentence)}</p>\n</main></body></html>`;
}

// The admin pages' head and heading, one for both: the search page and a refusal.
const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1b1f24}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #d0d7de;padding:.35rem .5rem;text-align:left}
.suspended{color:#b42318;font-weight:600}input{padding:.3rem;margin-right:.5rem;max-width:100%;box-sizing:border-box}form{margin:1rem 0}
label{display:inline-block;margin:.25rem 0}button,input{min-height:2rem}.table-wrap{overflow-x:auto}
@media (max-width:40rem){body{margin:1rem auto}label,label input{display:block;width:100%}label input{margin:.25rem 0 0}
.hooks thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.hooks tr{display:block;border-bottom:1px solid #d0d7de;padding:.35rem 0}
.hooks td{display:block;border:0;padding:.1rem 0;overflow-wrap:anywhere}
.hooks td::before{content:attr(data-label) ": ";font-weight:600}}`;

function document(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>hookline admin</title>
<style>
${STYLE}
</style></head><body><main>
<h1>hookline admin</h1>`;
}

function hookTable(
  hooks: readonly HookView[],
  board: string,
  accounts: ReadonlyMap<string, AccountView>,
): string {
  const rows = hooks
    .map((hook) => {
      const link = `${board}/queue/${encodeURIComponent(`hook-{${hook.id}}`)}`;
      const state =
        hook.state === 'suspended'
          ? `<span class="suspended">suspended</span> ${text(hook.suspended_reason ?? '')}`
          : 'active';
      const account = accounts.get(hook.account_id);
      const owner = account ? `${account.name} (${hook.account_id})` : hook.account_id;
      // On a phone each row is a block of labelled lines (data-label), so no column is out of sight.
      return `<tr><td data-label="Hook"><a href="${attr(link)}">${text(hook.description || hook.id)}</a></td><td data-label="Account">${text(owner)}</td><td data-label="Host">${text(new URL(hook.url).host)}</td><td data-label="State">${state}</td></tr>`;
    })
    .join('\n');
  return `<div class="table-wrap"><table class="hooks"><thead><tr><th>Hook</th><th>Account</th><th>Host</th><th>State</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
