import { readFileSync } from 'node:fs';
import { crc32, inflateSync } from 'node:zlib';

// The operator's brand (product.md §16): checked once at start like every setting.

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2 contrast ratio of two #rrggbb colours (the same whichever is text and which ground). */
export function contrastRatio(a: string, b: string): number {
  const [dark, light] = [luminance(a), luminance(b)].sort((x, y) => x - y) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** WCAG 2 contrast ratio of a #rrggbb colour against white (the same whether the colour is text or ground). */
export function contrastWithWhite(hex: string): number {
  return contrastRatio(hex, '#ffffff');
}

/** WCAG AA for normal text. */
export const AA_CONTRAST = 4.5;

export interface BrandLogo {
  readonly type: 'image/png' | 'image/svg+xml';
  readonly body: Buffer;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A logo larger than this is refused: it is sent with every page's first view. */
export const LOGO_MAX_BYTES = 512 * 1024;

/** The logo file, read and recognised (PNG by its signature, SVG by an <svg> element), or a problem. */
export function loadBrandLogo(path: string, problems: string[]): BrandLogo | undefined {
  const name = 'HOOKLINE_BRAND_LOGO';
  let body: Buffer;
  try {
    body = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problems.push(`${name}: cannot read ${path}${code ? ` (${code})` : ''}`);
    return undefined;
  }
  if (body.length > LOGO_MAX_BYTES) {
    problems.push(`${name}: ${path} is larger than ${LOGO_MAX_BYTES / 1024} KiB`);
    return undefined;
  }
  if (body.subarray(0, 8).equals(PNG_SIGNATURE)) {
    const broken = pngProblem(body);
    if (!broken) return { type: 'image/png', body };
    problems.push(`${name}: ${path} starts as a PNG file but is not a whole one: ${broken}`);
    return undefined;
  }
  if (/<svg[\s>]/.test(body.toString('utf8', 0, Math.min(body.length, 4096))))
    return { type: 'image/svg+xml', body };
  problems.push(`${name}: ${path} is neither a PNG nor an SVG file`);
  return undefined;
}

/**
 * What makes a file that starts with PNG's signature no whole PNG, or undefined: every chunk whole with its
 * checksum, IHDR first, IEND last, and the image data inflating. Checked once at start, so a logo cut short or
 * corrupted is refused there rather than shown as a broken image on every page.
 */
function pngProblem(body: Buffer): string | undefined {
  const data: Buffer[] = [];
  let at = PNG_SIGNATURE.length;
  let first = true;
  while (at < body.length) {
    if (at + 8 > body.length) return `a chunk is cut short at byte ${at}`;
    const length = body.readUInt32BE(at);
    const type = body.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (end > body.length) return `the ${type} chunk at byte ${at} is cut short`;
    if (crc32(body.subarray(at + 4, at + 8 + length)) !== body.readUInt32BE(at + 8 + length))
      return `the ${type} chunk at byte ${at} fails its checksum`;
    if (first && type !== 'IHDR') return 'it does not begin with an IHDR chunk';
    first = false;
    if (type === 'IDAT') data.push(body.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') {
      if (end !== body.length) return 'bytes follow its IEND chunk';
      if (data.length === 0) return 'it has no image data (IDAT)';
      try {
        inflateSync(Buffer.concat(data));
      } catch {
        return 'its image data does not inflate';
      }
      return undefined;
    }
    at = end;
  }
  return 'it has no IEND chunk';
}
