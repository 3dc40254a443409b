import type { FieldProblem } from '@hookline/core';

const decoded = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
};

/**
 * The query parameters whose value has a % that does not begin a percent-encoded UTF-8 character (`%zz`, a cut
 * `%E0%A4%A`). Fastify's parser keeps such a value as given, so `call_id=%zz` was searched for as the text
 * `%zz` and answered an empty page, where the same escape in the path is refused. Each parameter is named once,
 * by its name as the parser gives it (decoded, `+` a space), and in the order of the query.
 */
export function badlyEscapedQuery(url: string): FieldProblem[] {
  const start = url.indexOf('?');
  if (start < 0) return [];
  const named = new Set<string>();
  for (const pair of url.slice(start + 1).split('&')) {
    const equals = pair.indexOf('=');
    if (equals < 0) continue;
    const name = pair.slice(0, equals);
    if (decoded(pair.slice(equals + 1)) === undefined) named.add(decoded(name) ?? name);
  }
  return [...named].map((field) => ({
    field,
    message:
      'is not a valid query value: a % must begin a percent-encoded UTF-8 character, such as %20 or %C3%A9 ' +
      '(a % itself is %25)',
  }));
}
