// The endpoint's response headers, as an attempt's record keeps them (product.md §10: the attempt page shows
// status, headers and the first 4 KiB of the body). An endpoint decides what it answers, so what is kept is
// bounded like the body excerpt: a record stays small in the Redis outbox and in PostgreSQL whatever the
// endpoint sends, and nothing that works as a credential is stored.

/** Most headers kept; the rest are counted, not kept. */
export const MAX_RESPONSE_HEADERS = 30;
/** Most characters kept in all (names and values): the same budget as the body excerpt. */
export const RESPONSE_HEADER_BYTES = 4 * 1024;
/** Longest value kept whole; a longer one is cut and says so. */
export const MAX_HEADER_VALUE = 256;
/** What stands for a cookie's value: a Set-Cookie value is a session the endpoint hands out. */
export const COOKIE_VALUE_MASK = '••••';

/** What a record keeps of the response's headers. */
export interface ResponseHeaders {
  /** Lower-case names in the order they came, each with its value (repeated headers joined with ", "). */
  readonly kept: Readonly<Record<string, string>>;
  /** Headers past the bounds: neither name nor value kept. */
  readonly dropped: number;
}

/** A value as received from the HTTP client: repeated headers come as a list. */
type RawValue = string | readonly string[] | undefined;

/** `session=abc; Path=/; HttpOnly` → `session=••••`: the cookie's name stays, its value and attributes go. */
function maskedCookie(line: string): string {
  const pair = line.split(';', 1)[0] ?? '';
  const eq = pair.indexOf('=');
  const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
  return `${name}=${COOKIE_VALUE_MASK}`;
}

/** A value longer than MAX_HEADER_VALUE keeps its start and says how long it was. */
function boundedValue(value: string): string {
  if (value.length <= MAX_HEADER_VALUE) return value;
  return `${value.slice(0, MAX_HEADER_VALUE)}… (cut: ${value.length} characters in all)`;
}

/**
 * The headers a record keeps of a response: at most MAX_RESPONSE_HEADERS, RESPONSE_HEADER_BYTES characters
 * in all, each value at most MAX_HEADER_VALUE characters (cut visibly), Set-Cookie values masked. The first
 * header that does not fit ends the list: the ones after it are counted in `dropped`, so a list is always the
 * response's first headers, never a selection.
 */
export function keptResponseHeaders(raw: Readonly<Record<string, RawValue>>): ResponseHeaders {
  const kept: Record<string, string> = {};
  let count = 0;
  let size = 0;
  let dropped = 0;
  for (const [rawName, rawValue] of Object.entries(raw)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase();
    const values = typeof rawValue === 'string' ? [rawValue] : [...rawValue];
    const joined = (name === 'set-cookie' ? values.map(maskedCookie) : values).join(', ');
    const value = boundedValue(joined);
    if (
      dropped > 0 ||
      count >= MAX_RESPONSE_HEADERS ||
      size + name.length + value.length > RESPONSE_HEADER_BYTES
    ) {
      dropped += 1;
      continue;
    }
    kept[name] = value;
    count += 1;
    size += name.length + value.length;
  }
  return { kept, dropped };
}
