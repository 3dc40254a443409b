import type { HookHeaders } from '@hookline/core';

/** The extra-headers textarea: one `Name: value` per line, as they appear in the request. */
export const HEADERS_FIELD = 'headers';
/** Sent by forms that show the textarea: a form without it (an older page) leaves the headers as they are. */
export const HEADERS_SHOWN = 'headers_shown';

export const headersText = (headers: HookHeaders | undefined): string =>
  Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

/**
 * The textarea's lines as `{name: value}`, or the first line that is not `Name: value`. Blank lines are
 * skipped; the value is what follows the first colon, trimmed. Names and values are checked by the hook schema.
 */
export function parseHeadersText(
  text: string,
): { ok: true; headers: Record<string, string> } | { ok: false; problem: string } {
  // No prototype: a line named toString or constructor is a header like any other, and one named __proto__
  // stays a key, for the hook schema to refuse by name.
  const headers = Object.create(null) as Record<string, string>;
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { ok: false, problem: `line ${i + 1} is not "Name: value"` };
    const name = line.slice(0, colon).trim();
    if (Object.hasOwn(headers, name)) return { ok: false, problem: `${name} is given twice` };
    headers[name] = line.slice(colon + 1).trim();
  }
  return { ok: true, headers };
}
