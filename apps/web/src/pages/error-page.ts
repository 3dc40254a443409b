import { html, type SafeHtml } from '../view/html';
import type { Brand } from '../view/brand';
import { bareLayout, layout, type Viewer } from '../view/layout';

export interface ErrorPageInput {
  readonly status: number;
  readonly title: string;
  /** Words, or markup of this app's own (a time in the page's zone). */
  readonly message: string | SafeHtml;
  readonly action?: { readonly href: string; readonly label: string };
}

/** With the app's chrome when the visitor is signed in, bare otherwise. */
export function errorPage(
  viewer: Viewer | undefined,
  { status, title, message, action }: ErrorPageInput,
  brand?: Brand,
): SafeHtml {
  const body = html`<div class="card error-page" data-status="${status}">
    <div class="code" aria-hidden="true">${status}</div>
    <h1>${title}</h1>
    <p class="muted">${message}</p>
    ${action ? html`<a class="btn btn-primary" href="${action.href}">${action.label}</a>` : ''}
  </div>`;
  return viewer ? layout(title, viewer, undefined, body) : bareLayout(title, body, brand);
}

export const NOT_FOUND: ErrorPageInput = {
  status: 404,
  title: 'Page not found',
  message: 'There is nothing here, or it belongs to another account.',
  action: { href: '/', label: 'Go to your hooks' },
};

/** A path that cannot be decoded (a % not starting a percent-encoded character): a mistyped or cut link. */
export const BAD_ADDRESS: ErrorPageInput = {
  status: 400,
  title: 'This address is not valid',
  message: 'The link may have been cut short or mistyped. Open the page again from your hooks.',
  action: { href: '/', label: 'Go to your hooks' },
};

export const CSRF_REFUSED: ErrorPageInput = {
  status: 403,
  title: 'This request was refused',
  message:
    'The form was sent from another site or has expired, so nothing was changed. Go back, reload the page and try again.',
  action: { href: '/', label: 'Go to your hooks' },
};

export const SERVER_ERROR = (requestId: string): ErrorPageInput => ({
  status: 500,
  title: 'Something went wrong',
  message: `Nothing was lost, but this page could not be shown. Try again in a moment. (Reference: ${requestId})`,
  action: { href: '/', label: 'Go to your hooks' },
});

export const UNAVAILABLE: ErrorPageInput = {
  status: 503,
  title: 'Temporarily unavailable',
  message: 'This site cannot reach its database right now. Try again in a moment.',
};
