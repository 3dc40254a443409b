import { z } from 'zod';
import { SIGNATURE_HEADERS } from './signing';

/** At most this many extra headers per hook (product.md §17). */
export const MAX_HOOK_HEADERS = 10;
const MAX_VALUE_LENGTH = 1000;
// Ten headers of the longest name and value stay well inside receivers' header limits (Node.js: 16 KiB).
const MAX_NAME_LENGTH = 256;

/** The event-type header's default name (`HOOKLINE_EVENT_TYPE_HEADER`). */
export const DEFAULT_EVENT_TYPE_HEADER = 'X-Service-Event-Type';

// The headers every delivery carries already: a customer's value would contradict what is sent
// (Content-Length, Host) or impersonate hookline (Authorization, the signatures, the event type, the trace
// context HOOKLINE_TRACE_PROPAGATE adds). Authorization has a reason of its own: credentials go in `auth`.
const SET_ON_EVERY_DELIVERY = [
  'content-type',
  'content-length',
  'host',
  'user-agent',
  SIGNATURE_HEADERS.id,
  SIGNATURE_HEADERS.timestamp,
  SIGNATURE_HEADERS.signature,
  'traceparent',
  'tracestate',
];
// Those that say how a request travels rather than what it carries (hop by hop, or its framing): one given
// would break the request (Transfer-Encoding, Connection, Expect) or misdescribe the body, which is never
// encoded (a receiver told it is gzip would try to unpack it and refuse every delivery).
const FRAMING = [
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
];
// The one list: a hook's extra headers and HOOKLINE_EVENT_TYPE_HEADER are both refused by it.
const RESERVED = ['authorization', ...SET_ON_EVERY_DELIVERY, ...FRAMING];

// Each reason is worded without the product's name: the website shows it under an operator's brand (§16).
function reservedReason(lower: string): string {
  if (lower === 'authorization') return "cannot be given here: set credentials as the hook's authentication";
  if (FRAMING.includes(lower))
    return 'says how a request travels (a hop-by-hop or framing header) and cannot be given';
  return 'is set on every delivery and cannot be given';
}

// Read in place of hookline's signature headers, each one of them, by the svix library receivers verify with
// (its verify takes svix-id over webhook-id, and so on): one given as an extra header fails every signed
// delivery's verification there.
const READ_AS_SIGNATURE = ['svix-id', 'svix-timestamp', 'svix-signature'];

/** Whether hookline sets or frames this header itself on a delivery (names ignore case). */
export function isReservedHeaderName(name: string): boolean {
  return RESERVED.includes(name.toLowerCase());
}

// RFC 9110 §5.6.2: a header name is a token.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Visible ASCII and inner spaces: sent byte for byte, read the same by every receiver (no obs-text, no CR/LF).
const VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * A hook's extra headers, `{name: value}`, sent on every request after hookline's own. Problems name the
 * header (`headers.X-Api-Key: …`).
 */
export function hookHeadersInput(eventTypeHeader: string = DEFAULT_EVENT_TYPE_HEADER) {
  const reserved = new Set([...RESERVED, eventTypeHeader.toLowerCase()]);
  // zod's record leaves a "__proto__" key out without a word (it would set the prototype), so the hook's other
  // headers would be replaced by none: refused by name before the record reads the object.
  return z.preprocess((raw, ctx) => {
    if (typeof raw === 'object' && raw !== null && Object.hasOwn(raw, '__proto__'))
      ctx.addIssue({ code: 'custom', path: ['__proto__'], message: 'cannot be a header name here' });
    return raw;
  }, headersRecord(reserved));
}

function headersRecord(reserved: ReadonlySet<string>) {
  return z
    .record(z.string(), z.string({ error: 'each header value must be a string' }), {
      error: 'headers must be an object of header names to values',
    })
    .superRefine((headers, ctx) => {
      const names = Object.keys(headers);
      if (names.length > MAX_HOOK_HEADERS)
        ctx.addIssue({ code: 'custom', message: `at most ${MAX_HOOK_HEADERS} headers, got ${names.length}` });
      const seen = new Set<string>();
      for (const name of names) {
        const value = headers[name]!;
        const problem = (message: string) => ctx.addIssue({ code: 'custom', path: [name], message });
        const lower = name.toLowerCase();
        if (name.length > MAX_NAME_LENGTH)
          problem(`is not a header name of at most ${MAX_NAME_LENGTH} characters`);
        else if (!TOKEN.test(name))
          problem("is not a header name (letters, digits and !#$%&'*+-.^_`|~ only, no spaces or colons)");
        else if (reserved.has(lower)) problem(reservedReason(lower));
        else if (READ_AS_SIGNATURE.includes(lower))
          problem("is read as the delivery's signature by receivers' svix library and cannot be given");
        else if (seen.has(lower)) problem('is given twice (header names ignore case)');
        else if (value.length > MAX_VALUE_LENGTH) problem(`must be at most ${MAX_VALUE_LENGTH} characters`);
        else if (!VALUE.test(value))
          problem(
            'must be visible ASCII characters, spaces only inside (no line breaks, control or non-ASCII characters)',
          );
        seen.add(lower);
      }
    })
    .describe(
      `Extra headers sent on every request (at most ${MAX_HOOK_HEADERS}), e.g. {"X-Api-Key":"k_123"}; not ` +
        'Authorization, Content-Type, Content-Encoding, Host, User-Agent, the event-type, signature (webhook-* or svix-*) or ' +
        'trace-context headers, nor ' +
        'hop-by-hop ones. ' +
        'Shown in answers, the request preview and the history as sent (not secret: use auth for credentials). ' +
        '{} removes them',
    );
}

export type HookHeaders = Readonly<Record<string, string>>;
