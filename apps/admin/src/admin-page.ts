import type { HookView } from '@hookline/core';

// The admin's way into Bull Board: find the queues of one account, one hook, or the suspended hooks, and open
// them on the board (which registers them). Plain server-rendered HTML; every value is escaped.

export interface AdminPageModel {
  /** Where Bull Board is mounted, e.g. /admin/queues. */
  readonly boardPath: string;
  readonly query: { readonly account?: string; readonly name?: string };
  /** Hooks of the account searched for, when there was a search. */
  readonly found?: readonly HookView[];
  readonly suspended: readonly HookView[];
  readonly message?: string;
}

export function renderAdminPage(m: AdminPageModel): string {
  const board = m.boardPath;
  const account = m.query.account ?? '';
  const name = m.query.name ?? '';
  const openAll = m.found?.length
    ? `<p><a href="${attr(`${board}?account=${encodeURIComponent(account)}&name=${encodeURIComponent(name)}`)}">${m.found.length === 1 ? 'Open this queue' : `Open these ${m.found.length} queues`} in Bull Board</a></p>`
    : '';
  return `${document()}
<p><a href="${attr(board)}">Bull Board</a> shows the queues opened from this page (or by a link to one).
On a hook's queue page, Resume re-enables a suspended hook and delivers its held events in order; Pause suspends it.</p>
<form method="get" action="">
<label>Account id <input name="account" value="${attr(account)}" placeholder="acct_…" required></label>
<label>Hook name contains <input name="name" value="${attr(name)}" placeholder="optional"></label>
<button type="submit">Find hooks</button>
</form>
<form method="get" action="${attr(board)}">
<label>Hook id <input name="hook" placeholder="hk_…" required></label>
<button type="submit">Open in Bull Board</button>
</form>
${m.message ? `<p role="status">${text(m.message)}</p>` : ''}
${m.found?.length ? `<h2>Hooks found</h2>${hookTable(m.found, board)}${openAll}` : ''}
<h2>Suspended hooks</h2>
${m.suspended.length ? hookTable(m.suspended, board) : '<p>None.</p>'}
</main></body></html>`;
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

function hookTable(hooks: readonly HookView[], board: string): string {
  const rows = hooks
    .map((hook) => {
      const link = `${board}/queue/${encodeURIComponent(`hook-{${hook.id}}`)}`;
      const state =
        hook.state === 'suspended'
          ? `<span class="suspended">suspended</span> ${text(hook.suspended_reason ?? '')}`
          : 'active';
      // On a phone each row is a block of labelled lines (data-label), so no column is out of sight.
      return `<tr><td data-label="Hook"><a href="${attr(link)}">${text(hook.description || hook.id)}</a></td><td data-label="Account">${text(hook.account_id)}</td><td data-label="Host">${text(new URL(hook.url).host)}</td><td data-label="State">${state}</td></tr>`;
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
