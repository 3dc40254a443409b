import { isIP } from 'node:net';
import { parseCidr, parseIp, type Cidr } from '@hookline/core';
import { z } from 'zod';

// The building blocks of the settings schema: each setting's parser with its documentation.

/**
 * What a setting means, for the README; `whenUnset` for settings without a default value. Which processes
 * require a setting is not said here: the table takes it from loadConfig's REQUIRED, so the two cannot differ.
 */
export interface SettingDoc {
  readonly doc: string;
  readonly whenUnset?: string;
}

const docs = new WeakMap<z.ZodType, SettingDoc>();

export function setting<T extends z.ZodType>(schema: T, doc: string, whenUnset?: string): T {
  docs.set(schema, { doc, ...(whenUnset !== undefined ? { whenUnset } : {}) });
  return schema;
}

export function settingDoc(schema: z.ZodType): SettingDoc | undefined {
  return docs.get(schema);
}
/**
 * A whole number from `min` to `max`, written in decimal digits only: Number() would also read `0x1F90`, `1e4`,
 * `0b11` or ` 80 ` as numbers, so a typo could start a process on another port or deadline than meant.
 */
export const int = (def: number, min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max} (decimal digits only)`;
  return z
    .string()
    .regex(/^[0-9]+$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message))
    .default(def);
};

// The same parser the deliverer uses, so a setting accepted here is never refused at delivery. An address with
// bits set past the prefix length (10.0.0.1/8) is refused: the whole network or the one address was meant.
export const cidr = z.string().superRefine((value, ctx) => {
  const network = parseCidr(value);
  if (!network) {
    ctx.addIssue({ code: 'custom', message: 'each entry must be a CIDR such as 127.0.0.0/8 or fd00::/8' });
    return;
  }
  const address = parseIp(value.trim().split('/')[0]!)!;
  if (networkAddress(network) !== address.value)
    ctx.addIssue({
      code: 'custom',
      message:
        `${value.trim()} has bits set past its prefix length: write the network, ${cidrKey(value)}, or the one ` +
        `address, ${value.trim().split('/')[0]}`,
    });
});

const BITS = { 4: 32, 6: 128 } as const;
const networkAddress = (network: Cidr): bigint =>
  network.prefix << BigInt(BITS[network.family] - network.length);

/** A CIDR as its network (`10.0.0.0/8`, `fd00::/8`), so two spellings of one network compare equal. */
export function cidrKey(value: string): string {
  const network = parseCidr(value)!;
  const address = networkAddress(network);
  if (network.family === 4)
    return `${[24n, 16n, 8n, 0n].map((shift) => (address >> shift) & 255n).join('.')}/${network.length}`;
  const groups = Array.from({ length: 8 }, (_, i) =>
    ((address >> BigInt(112 - 16 * i)) & 0xffffn).toString(16),
  );
  // The URL parser writes an IPv6 address in its shortest form (RFC 5952).
  return `${new URL(`http://[${groups.join(':')}]`).hostname.slice(1, -1)}/${network.length}`;
}

// An address to listen on: an IP address, or a host name (labels of letters, digits, - and _; whether it resolves
// to an address of this machine is known only at listen, which then names HOST too).
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
export const listenHost = z
  .string()
  .refine(
    (v) => isIP(v) !== 0 || HOST_NAME.test(v),
    'must be an IP address of this machine (0.0.0.0 or :: for all of them, 127.0.0.1 for this machine only) ' +
      'or a host name, without scheme, port or brackets',
  );

// `host:port`, the host a name, an IPv4 address or a bracketed IPv6 address.
export const clusterNode = z.string().transform((value, ctx) => {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not host:port (e.g. 10.0.0.5:6379)` });
    return z.NEVER;
  }
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
});
/** A node as `host:port`, the host in lower case (names are case-insensitive). */
export const nodeKey = ({ host, port }: { host: string; port: number }): string =>
  `${host.includes(':') ? `[${host}]` : host.toLowerCase()}:${port}`;

/** An origin that may frame the website (CSP `frame-ancestors`), read as its origin (`https://a.example`). */
export const frameAncestor = z
  .string()
  .refine((v) => {
    try {
      const url = new URL(v);
      // A CSP host is letters, digits, '-' and '.' (or an IPv6 literal); URL parsing also lets ';', quotes
      // and '$' into a host, which in the header would end frame-ancestors and start another directive.
      return (
        ['http:', 'https:'].includes(url.protocol) &&
        url.origin === v.replace(/\/$/, '') &&
        /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])$/.test(url.hostname)
      );
    } catch {
      return false;
    }
  }, 'each entry must be an origin such as https://portal.example.com (scheme, host and port only)')
  .transform((v) => new URL(v).origin);

/**
 * A URL whose scheme is one of `protocols` (e.g. `https:`), refused with `message` otherwise. The URL parser
 * silently drops tabs and line breaks, which would still reach pages and e-mails as typed: refused too.
 */
export const urlOf = (protocols: readonly string[], message: string) =>
  z
    .string()
    .refine(
      (v) => !/[\u0000-\u001f\u007f]/.test(v),
      'must not contain tabs, line breaks or control characters',
    )
    .refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, message);

// An e-mail address (RFC 5322 dot-atom local part, a host name as domain), alone or after a display name: the
// mail library takes anything else for a name without an address, and sends with an empty MAIL FROM and no From.
const ADDRESS = String.raw`[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*`;
// A display name: quoted, or words without the characters that would start another address or a comment.
const DISPLAY_NAME = String.raw`(?:"(?:[^"\\\x00-\x1f\x7f]|\\[^\x00-\x1f\x7f])*"|[^"(),:;<>@[\]\\\x00-\x1f\x7f]+)`;
const MAILBOX = new RegExp(`^(?:${ADDRESS}|(?:${DISPLAY_NAME} ?)?<${ADDRESS}>)$`);
export const mailbox = z
  .string()
  .max(320, 'must be at most 320 characters')
  .regex(
    MAILBOX,
    'must be an e-mail address, alone or as Name <address> (e.g. Acme webhooks <webhooks@acme.example>; ' +
      'quote a name with commas or other punctuation: "Acme, Inc." <webhooks@acme.example>)',
  );

/**
 * A comma-separated list (empty by default), each entry checked by `item`. An entry that repeats another (as
 * `key` writes them) is refused: a repeat is a slip, and of two spellings one may not be what was meant.
 */
export const commaList = <T extends z.ZodType<unknown, string>>(
  item: T,
  key: (entry: z.output<T>) => string,
) =>
  z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(item).superRefine((entries, ctx) => {
        const seen = new Map<string, number>();
        entries.forEach((entry, index) => {
          // The refinement runs even when an entry was refused (and so never parsed): such an entry is skipped.
          let shown: string;
          try {
            shown = key(entry);
          } catch {
            return;
          }
          const first = seen.get(shown);
          if (first === undefined) seen.set(shown, index);
          else
            ctx.addIssue({
              code: 'custom',
              path: [index],
              message: `${shown} is listed already (entry ${first + 1}); list each once`,
            });
        });
      }),
    );

// Credentials are used as given (product.md §8): a character a client would send otherwise (non-ASCII, which
// browsers encode differently) or not at all (control characters) would make them unusable.
/** A Bearer token (RFC 6750): visible ASCII, no spaces, which the header would split on. */
export const bearerToken = (minLength: number) =>
  z
    .string()
    .min(minLength, `must be at least ${minLength} characters`)
    .regex(
      /^[\x21-\x7e]*$/,
      'must be visible ASCII characters without spaces (it is sent as a Bearer token)',
    );

/** A user or password of Basic authentication (RFC 7617): printable ASCII, spaces included (it is base64-encoded). */
export const basicCredential = () =>
  z
    .string()
    .regex(
      /^[\x20-\x7e]*$/,
      'must be visible ASCII characters or spaces (no control or non-ASCII characters, which browsers send differently)',
    );

/**
 * A forward proxy: `http://[user:password@]host:port`, nothing after the port but `/`. The port is required:
 * the URL parser would read a missing one as 80, where proxies listen on 3128 or 8080, and every delivery would
 * then wait on a proxy that is not there. User and password are percent-decoded when the proxy is asked, so
 * they must decode here already (or the process would stop later on a bare "URI malformed"). The value is
 * never echoed: it may hold the proxy's password.
 */
const PROXY_SHAPE = /^http:\/\/(?:[^/?#\s]*@)?(?:\[[0-9A-Fa-f:.]+\]|[^:@/?#[\]\s]+):(\d{1,5})\/?$/i;
/** What keeps a proxy's URL from the shape, worded without echoing it (it may hold the password). */
function proxyShapeProblem(value: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1];
  if (!scheme) return 'it does not start with http://';
  if (scheme.toLowerCase() !== 'http')
    return `not ${scheme}://: hookline speaks plain HTTP to the proxy, and each request's TLS runs inside its CONNECT tunnel`;
  const rest = value.slice(scheme.length + 3);
  const authority = rest.slice(rest.lastIndexOf('@') + 1).split(/[/?#]/)[0]!;
  if (rest.length > rest.lastIndexOf('@') + 1 + authority.length + (rest.endsWith('/') ? 1 : 0))
    return 'nothing may follow the port (a path, a query or a fragment was given)';
  const port = /:(\d*)$/.exec(authority)?.[1];
  // `http://user:pw@:3128`: the host is what is missing, whatever the port.
  if (authority.slice(0, authority.length - (port === undefined ? 0 : port.length + 1)) === '')
    return 'the host is missing (http://host:port, e.g. http://proxy.internal:3128)';
  if (port === undefined || port === '') return 'the port is missing (without one it would quietly be 80)';
  if (!(Number(port) >= 1 && Number(port) <= 65535)) return 'the port must be from 1 to 65535';
  return 'the host is neither a host name nor an IP address (an IPv6 one goes in brackets)';
}

/**
 * The URL standard ends the user-info at the last `@` and splits it at the first `:`, so a raw `@` or `:` in a
 * password reads as meant; `/`, `?`, `#` and `%` cannot be raw there, and a `%` must start an escape.
 */
const CREDENTIALS_MESSAGE =
  'user and password must be percent-encoded: %25 for %, %2F for /, %3F for ?, %23 for #, %40 for @';
/** `http://user:pa/ss@host:port`: the credentials hold a character the URL parser would take for the host's end. */
function rawInCredentials(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (!/^http:\/\//i.test(value) || at < 0) return false;
  // What follows the last `@` is a proxy's host and port, as the shape reads them.
  return (
    /[/?#\s]/.test(value.slice('http://'.length, at)) && PROXY_SHAPE.test(`http://${value.slice(at + 1)}`)
  );
}
export const forwardProxyUrl = (shapeMessage: string) =>
  z.string().superRefine((value, ctx) => {
    if (rawInCredentials(value)) {
      ctx.addIssue({ code: 'custom', message: CREDENTIALS_MESSAGE });
      return;
    }
    const port = Number(PROXY_SHAPE.exec(value)?.[1]);
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || !(port >= 1 && port <= 65535)) {
      ctx.addIssue({ code: 'custom', message: `${shapeMessage}; ${proxyShapeProblem(value)}` });
      return;
    }
    let user: string;
    try {
      user = decodeURIComponent(url.username);
      decodeURIComponent(url.password);
    } catch {
      ctx.addIssue({ code: 'custom', message: CREDENTIALS_MESSAGE });
      return;
    }
    // Sent as Basic `user:password` (RFC 7617), whose first ':' ends the user: such a user never authenticates.
    if (user.includes(':'))
      ctx.addIssue({
        code: 'custom',
        message:
          'the proxy user must not contain ":" (%3A): Basic authentication ends the user at the first ":"',
      });
  });
