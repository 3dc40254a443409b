import { html, type SafeHtml } from './html';

// A read-only session (a sign-in link made with read_only) sees every page and changes nothing. The server
// refuses every change (read-only-guard.ts); the pages do not offer one either: every control that changes
// something is built through changeControl, which is also the only way a page gets the form token for it. A
// live part rendered again for the page's script goes through the same call, so no update brings one back.

/** Who a page is for, as far as changing things goes: the session's form token, and whether it only looks. */
export interface ChangeRights {
  readonly csrf: string;
  readonly readOnly?: boolean;
}

/**
 * A control that changes something (a form that posts, a link to a page that only makes a change), rendered
 * for a visitor who may change things and left out, not hidden, for a read-only session: `instead` is what
 * that session reads in its place, when the page would otherwise leave a gap.
 */
export function changeControl(
  who: ChangeRights,
  control: (csrf: string) => SafeHtml,
  instead: SafeHtml = html``,
): SafeHtml {
  return who.readOnly ? instead : control(who.csrf);
}

export const readOnlyNotice = html`<div class="alert alert-warning" role="status">
  <p>You can see everything here, but not change anything.</p>
</div>`;
