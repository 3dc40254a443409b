import { createHash } from 'node:crypto';
import { AA_CONTRAST, contrastRatio, type Config } from '@hookline/config';
import { html, trusted, type SafeHtml } from './html';
import { LOGO_SVG } from '../assets/logo';

// The operator's brand (product.md §16) on every page: name, colour, logo and help link. Without brand
// settings, hookline's own. With a name set, no page text names hookline.

export type BrandSettings = Partial<
  Pick<Config, 'HOOKLINE_BRAND_NAME' | 'HOOKLINE_BRAND_COLOR' | 'HOOKLINE_BRAND_SUPPORT_URL' | 'brandLogo'>
>;

interface BrandAsset {
  readonly path: string;
  readonly type: string;
  readonly body: string | Buffer;
}

export interface Brand {
  readonly name: string;
  readonly supportUrl?: string;
  /** Served by the website itself, content-hashed like its other assets. */
  readonly stylesheet?: BrandAsset;
  readonly logo?: BrandAsset;
}

export const DEFAULT_BRAND: Brand = { name: 'hookline' };

const hashed = (name: string, ext: string, type: string, body: string | Buffer): BrandAsset => ({
  path: `/assets/${name}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${ext}`,
  type,
  body,
});

/**
 * The light grounds links are drawn on besides white cards: the page (--bg) and the notices (--ok-soft,
 * --bad-soft, --warn-soft, --neutral-soft in base-styles.ts).
 */
const LINK_GROUNDS = ['#f5f6f8', '#e7f8ef', '#fdecea', '#fff5e0', '#eef0f3'];

/**
 * The brand colour as link text: itself when it reaches AA on every ground a link sits on, else the same hue
 * darkened just enough. The start check holds it to 4.5:1 with white only (buttons, text on cards); on the
 * page's grey a colour at the edge (#767676: 4.54:1 with white, 4.2:1 on #f5f6f8) would fail.
 */
export function linkColorOf(color: string): string {
  const channels = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  for (let keep = 100; keep >= 0; keep -= 1) {
    const shade = `#${channels
      .map((c) =>
        Math.floor((c * keep) / 100)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
    if (LINK_GROUNDS.every((ground) => contrastRatio(shade, ground) >= AA_CONTRAST)) return shade;
  }
  return '#000000';
}

export function brandOf(settings: BrandSettings): Brand {
  const color = settings.HOOKLINE_BRAND_COLOR;
  const logo = settings.brandLogo;
  return {
    name: settings.HOOKLINE_BRAND_NAME ?? DEFAULT_BRAND.name,
    ...(settings.HOOKLINE_BRAND_SUPPORT_URL ? { supportUrl: settings.HOOKLINE_BRAND_SUPPORT_URL } : {}),
    // The colour was checked at start to contrast 4.5:1 with white: links on the page, white text on buttons.
    ...(color
      ? {
          stylesheet: hashed(
            'brand',
            'css',
            'text/css; charset=utf-8',
            `:root { --primary: ${color}; --primary-hover: ${color}; }\n` +
              `a, a:hover { color: ${linkColorOf(color)}; }\n` +
              `.brand img { width: 26px; height: 26px; object-fit: contain; }\n`,
          ),
        }
      : {}),
    ...(logo
      ? { logo: hashed('brand-logo', logo.type === 'image/png' ? 'png' : 'svg', logo.type, logo.body) }
      : {}),
  };
}

/** The brand's mark and name, for the top bar and the sign-in card. */
export function brandMark(brand: Brand): SafeHtml {
  const mark = brand.logo ? html`<img src="${brand.logo.path}" alt="" />` : trusted(LOGO_SVG);
  return html`<a class="brand" href="/">${mark}<span>${brand.name}</span></a>`;
}

export function brandHead(brand: Brand): SafeHtml {
  return brand.stylesheet ? html`<link rel="stylesheet" href="${brand.stylesheet.path}" />` : html``;
}

export function supportLink(brand: Brand): SafeHtml {
  return brand.supportUrl
    ? html`<p class="muted center support"><a href="${brand.supportUrl}">Get help</a></p>`
    : html``;
}
