import { html } from './html';

// A read-only session (a sign-in link made with read_only) sees every page and changes nothing. The server
// refuses every change (web-app.ts); the pages also hide what would be refused. One class on <body> and the
// rules below hide every form that posts (sign-out aside) and every link to a page that only leads to one,
// so a button added to any page later is hidden as well without a change here.

export const READ_ONLY_CLASS = 'read-only';

export const READ_ONLY_CSS = `
.read-only form[method="post"]:not([action="/logout"]),
.read-only a[href="/hooks/new"],
.read-only a[href$="/edit"],
.read-only a[href$="/delete"] { display: none !important; }
`;

export const readOnlyNotice = html`<div class="alert alert-warning" role="status">
  <p>You can see everything here, but not change anything.</p>
</div>`;
