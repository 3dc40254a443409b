import type { AccountView } from '@hookline/store';
import { ASSETS } from '../assets/assets';
import { CSRF_FIELD } from '../session/csrf';
import type { Flash } from '../session/session-store';
import { brandHead, brandMark, DEFAULT_BRAND, supportLink, type Brand } from './brand';
import { zoneName } from './zone';
import { html, trusted, type Renderable, type SafeHtml } from './html';
import { readOnlyNotice } from './read-only';

export type Section = 'hooks' | 'activity' | 'account';

export interface Viewer {
  readonly account: AccountView;
  readonly csrf: string;
  readonly flash?: Flash;
  /** A sign-in link's read-only session: pages leave out change controls (read-only.ts), refused anyway. */
  readonly readOnly?: boolean;
  /** The operator's brand; hookline's own when absent. */
  readonly brand?: Brand;
}

/** The hidden field every state-changing form carries. */
export const csrfField = (csrf: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}" />`;

/**
 * What a change did, on the page its form redirected to. `focus`: the page's script moves the focus to it (as a
 * refused form's does to the field to fix), so a screen reader reads it and the keyboard goes on from there; the
 * sign-in page leaves it to the email field.
 */
export function flashMessage(flash: Flash | undefined, { focus = false } = {}): SafeHtml {
  if (!flash) return html``;
  const role = flash.kind === 'error' ? 'alert' : 'status';
  const link = flash.link ? html` <a href="${flash.link.href}">${flash.link.text}</a>` : '';
  const focusable = focus ? trusted('tabindex="-1" data-flash') : '';
  const words = html`<p>${flash.message}${link}</p>`;
  return html`<div class="alert alert-${flash.kind}" role="${role}" ${focusable}>${words}</div>`;
}

function document(title: string, bodyClass: string, content: Renderable, brand: Brand): SafeHtml {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · ${brand.name}</title>
        <link
          rel="icon"
          href="${brand.logo?.path ?? ASSETS.icon.path}"
          type="${brand.logo?.type ?? 'image/svg+xml'}"
        />
        <link rel="stylesheet" href="${ASSETS.css.path}" />
        ${brandHead(brand)}
        <script src="${ASSETS.js.path}" defer></script>
      </head>
      <body class="${bodyClass}">
        ${content}
      </body>
    </html>`;
}

function navLink(href: string, label: string, section: Section, active: Section | undefined): SafeHtml {
  return html`<a href="${href}" ${active === section ? trusted('aria-current="page"') : ''}>${label}</a>`;
}

/** A signed-in page: top bar with the product, sections and the account; then the page content. */
export function layout(
  title: string,
  viewer: Viewer,
  active: Section | undefined,
  content: Renderable,
): SafeHtml {
  return document(
    title,
    'app',
    html`<a class="skip-link" href="#main">Skip to content</a>
      <header class="topbar">
        <div class="topbar-inner">
          ${brandMark(viewer.brand ?? DEFAULT_BRAND)}
          <nav class="nav" aria-label="Main">
            ${navLink('/', 'Hooks', 'hooks', active)} ${navLink('/activity', 'Activity', 'activity', active)}
            ${navLink('/account', 'Account', 'account', active)}
          </nav>
          <div class="who">
            <span class="account-name" title="${viewer.account.email ?? ''}">${viewer.account.name}</span>
            <form method="post" action="/logout">
              ${csrfField(viewer.csrf)}
              <button class="btn btn-ghost" type="submit">Sign out</button>
            </form>
          </div>
        </div>
      </header>
      <main id="main" tabindex="-1">
        ${viewer.readOnly ? readOnlyNotice : ''}${flashMessage(viewer.flash, { focus: true })} ${content}
        ${supportLink(viewer.brand ?? DEFAULT_BRAND)}
      </main>
      <footer class="zone-note"><p>Times are in ${zoneName()}.</p></footer>`,
    viewer.brand ?? DEFAULT_BRAND,
  );
}

/** A page without the app chrome: sign-in, and errors shown to visitors who are not signed in. */
export function bareLayout(title: string, content: Renderable, brand: Brand = DEFAULT_BRAND): SafeHtml {
  return document(
    title,
    'bare',
    html`<main class="auth-shell" id="main">
      <div class="auth-card">${brandMark(brand)} ${content} ${supportLink(brand)}</div>
    </main>`,
    brand,
  );
}
