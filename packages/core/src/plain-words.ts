import { errorInWords } from './error-words';

// What hookline records for operators and the API keeps the system's words (ISO times, actor ids, error codes);
// whatever a customer reads — a page, an e-mail — says them in words instead (product §15 "plain words").

const ISO = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\b/g;
const ACTOR = /\b(customer|admin|portal):[A-Za-z0-9_.@-]+/g;
// The operator key's actor is the bare word (`operator`); customers know the operator as their provider (the
// Activity page's word), and only "by operator" is an actor: other uses of the word are left alone.
const BY_OPERATOR = /\bby operator\b/g;
// A code and its detail (`ECONNREFUSED 203.0.113.7:443`), up to the end of its clause or of the brackets it
// stands in, whose closing one stays.
const ERROR_CODE =
  /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+|ERR_[A-Z_]+|(?:CERT|SELF_SIGNED|UNABLE_TO|DEPTH_ZERO)_[A-Z_]+)\b[^;,)]*/g;

const ACTOR_WORDS: Readonly<Record<string, string>> = {
  customer: 'the customer',
  admin: 'an administrator',
  portal: 'the customer',
};

/** An instant in words, in UTC: "25 Nov 2026, 19:52:03 UTC". */
export function utcInWords(at: Date | string): string {
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    dateStyle: 'medium',
    timeStyle: 'medium',
  }).format(typeof at === 'string' ? new Date(at) : at);
  return `${text} UTC`;
}

/**
 * A recorded sentence as a customer reads it: ISO times by `when` (UTC words by default), actor ids by who
 * they are, the system's error codes by what they mean.
 */
export function plainWords(text: string, when: (iso: string) => string = utcInWords): string {
  return text
    .replace(ISO, (iso) => when(iso))
    .replace(ACTOR, (_all, kind: string) => ACTOR_WORDS[kind] ?? 'someone')
    .replace(BY_OPERATOR, 'by your provider')
    .replace(ERROR_CODE, (code) => errorInWords(code) ?? 'a connection error');
}
