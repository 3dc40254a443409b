import { freeTextProblem } from './text';

// A return address an operator gives (a sign-in link's `return_url`) goes into a Location header and an href.
// The WHATWG URL parser silently drops tabs and line breaks and trims the ends, so the raw text is checked
// first: a control character is refused, never quietly removed. What is kept is the parser's serialisation,
// which is always visible ASCII (punycode host, percent-encoded path, query and fragment): a valid header
// value and href whatever the operator typed.

export const RETURN_URL_MAX = 2000;

export type ParsedReturnUrl = { readonly href: string } | { readonly problem: string };

/** The address as it is stored and sent, or what is wrong with it (a sentence without the field's name). */
export function parseReturnUrl(raw: string): ParsedReturnUrl {
  const text = freeTextProblem(raw);
  if (text) return { problem: text };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'must be an absolute http:// or https:// URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { problem: 'must be an absolute http:// or https:// URL' };
  // Credentials would be sent back in every Location header and href (and browsers warn or refuse): refused,
  // as in a hook's URL.
  if (url.username || url.password)
    return { problem: 'must not contain a user name or password (user-info)' };
  if (url.href.length > RETURN_URL_MAX)
    return { problem: `must be at most ${RETURN_URL_MAX} characters once percent-encoded` };
  return { href: url.href };
}

/** A stored return address as it can be sent, or undefined when it cannot (one kept before it was checked). */
export function usableReturnUrl(stored: string | undefined): string | undefined {
  if (!stored) return undefined;
  const parsed = parseReturnUrl(stored);
  return 'href' in parsed ? parsed.href : undefined;
}
