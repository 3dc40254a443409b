// Product §15 "plain words": no ids, ISO timestamps, outcome codes, error codes or API paths in anything a
// customer reads. Addresses (a hook's URL, a link) are not sentences and are left out before looking.
const MACHINE_TEXT: readonly [string, RegExp][] = [
  ['an id', /\b(acct|hk|evt|att|job|er)_[0-9a-z]{6,}/],
  ['an ISO timestamp', /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/],
  ['an outcome code', /\b(timed_out|not_delivered)\b/],
  ['an error code', /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\bE[A-Z]{4,}\b/],
  // A token endpoint's refusal (RFC 6749 §5.2), as hookline records it for operators.
  [
    'an OAuth 2.0 error code',
    /\b(invalid_(request|client|grant|scope)|unauthorized_client|unsupported_grant_type)\b/,
  ],
  ['an API path', /\/v1\//],
];

/** What in `text` is machine text, as "an id: hk_…" lines; empty when it is all plain words. */
export function machineText(text: string): string[] {
  const sentences = text.replace(/https?:\/\/\S+/g, ' ');
  const found: string[] = [];
  for (const [what, pattern] of MACHINE_TEXT) {
    const m = new RegExp(pattern.source, 'g');
    for (const hit of sentences.matchAll(m)) found.push(`${what}: ${hit[0]}`);
  }
  return found;
}
