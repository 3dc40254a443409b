import { DEFAULT_EVENT_TYPE_HEADER, isReservedHeaderName } from '@hookline/core';
import { z } from 'zod';
import { AA_CONTRAST, contrastWithWhite } from './brand';
import { httpTierSettings } from './http-tier-settings';
import { redisHaSettings } from './redis-ha-settings';
import {
  basicCredential,
  bearerToken,
  cidr,
  cidrKey,
  commaList,
  forwardProxyUrl,
  frameAncestor,
  int,
  listenHost,
  mailbox,
  setting,
  urlOf,
} from './setting-parsers';

export { settingDoc, type SettingDoc } from './setting-parsers';

// Every setting hookline reads: its parser, its default and what it means for users, in one place. The
// README's settings table is rendered from this (settings-reference.ts) and a test keeps the two equal.

export const settingsSchema = z.object({
  PORT: setting(int(8080, 0, 65535), 'HTTP port of the API / website / Bull Board'),
  HOST: setting(
    listenHost.default('0.0.0.0'),
    'interface the HTTP server listens on: an IP address of this machine (`::` for every IPv6 and IPv4 one), or ' +
      'a name that resolves to one',
  ),
  REDIS_URL: setting(
    urlOf(['redis:', 'rediss:'], 'must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379').default(
      'redis://127.0.0.1:6379',
    ),
    'Redis for everything. `pnpm start` starts an embedded one when this is unset and nothing answers',
  ),
  DATABASE_URL: setting(
    z
      .string()
      .refine((v) => /^postgres(ql)?:\/\/./.test(v), 'must be a postgres:// or postgresql:// URL')
      // The driver would read a space as part of the database name, and be refused for it only at connect.
      .refine((v) => !/\s/.test(v), 'must not contain spaces, tabs or line breaks (write a space as %20)')
      .optional(),
    'PostgreSQL for the delivery history (`postgres://user:password@host:5432/db`); its schema is created ' +
      'and migrated at start',
    '— (`pnpm start` then keeps the history in an embedded PostgreSQL, PGlite, under `HOOKLINE_DATA_DIR`)',
  ),
  HOOKLINE_DATABASE_SCHEMA: setting(
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case identifier (letters, digits, _)')
      .default('hookline'),
    'PostgreSQL schema of the history tables (several deployments can share one database)',
  ),
  HOOKLINE_HISTORY_RETENTION_DAYS: setting(
    int(30, 1, 3650),
    'days of delivery history kept; older days are dropped whole (one partition a day), hourly',
  ),
  ...redisHaSettings,
  HOOKLINE_PUBLIC_URL: setting(
    urlOf(['http:', 'https:'], 'must be an absolute http:// or https:// URL, e.g. https://hooks.example.com')
      .transform((v) => new URL(v).origin)
      .optional(),
    'where people reach the website, as they type it (e.g. `https://hooks.example.com` behind a ' +
      'TLS-terminating proxy). With `https://` the session cookie is `Secure` (named `__Host-hookline_session`) ' +
      'and pages send `Strict-Transport-Security`',
    '— (cookies without `Secure`: fine for `pnpm start` on localhost, not behind TLS)',
  ),
  HOOKLINE_SMTP_URL: setting(
    urlOf(
      ['smtp:', 'smtps:'],
      'must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.com:465',
    ).optional(),
    'mail server for the notices to customers (a hook failing, suspended, re-enabled), sent by the monitor ' +
      "to the account's e-mail address; `smtp://` (STARTTLS when the server offers it) or `smtps://`",
    '— (no e-mail notices)',
  ),
  HOOKLINE_OPERATOR_WEBHOOK_URL: setting(
    urlOf(['http:', 'https:'], 'must be an absolute http:// or https:// URL').optional(),
    "where the operator's notices go (a hook failing, suspended, re-enabled, on any account): JSON webhooks " +
      "signed as Standard Webhooks with `HOOKLINE_OPERATOR_WEBHOOK_SECRET`, delivered by hookline's own " +
      'pipeline (in order, one attempt each). The network policy applies: exempt a private address with ' +
      '`HOOKLINE_ALLOW_NETWORKS`',
    '— (no operator notices)',
  ),
  HOOKLINE_OPERATOR_WEBHOOK_SECRET: setting(
    z
      .string()
      .refine(
        (v) => /^whsec_[A-Za-z0-9+/]{43}=$/.test(v),
        'must be whsec_ followed by the base64 of 32 bytes (e.g. whsec_$(openssl rand -base64 32))',
      )
      .optional(),
    "the operator notices' signing secret; required with `HOOKLINE_OPERATOR_WEBHOOK_URL`",
    '—',
  ),
  HOOKLINE_SMTP_FROM: setting(
    mailbox.optional(),
    'the From of notice e-mails: an address, or a name and an address as in `Acme webhooks ' +
      '<webhooks@acme.example>` (a name with commas or other punctuation in double quotes)',
    '`hookline <hookline@localhost>`; with `HOOKLINE_BRAND_NAME`, that name at `webhooks@localhost`',
  ),
  HOOKLINE_TRUST_PROXY: setting(
    commaList(cidr, cidrKey),
    'comma-separated addresses or CIDRs of the proxies in front of the HTTP tier; only requests from them ' +
      'may set the client address and protocol through `X-Forwarded-For` / `X-Forwarded-Proto` (the sign-in ' +
      'limits count per client address)',
  ),
  HOOKLINE_FRAME_ANCESTORS: setting(
    commaList(frameAncestor, (origin) => origin),
    "comma-separated origins of the operator's pages that may show the website in an iframe (CSP " +
      '`frame-ancestors`); sessions opened by a sign-in link then use a partitioned cookie (`SameSite=None; ' +
      'Secure; Partitioned`), which browsers accept over https or on localhost only: with ' +
      '`HOOKLINE_PUBLIC_URL` on plain http, it must name localhost',
    '— (no page may frame the website)',
  ),
  HOOKLINE_BRAND_NAME: setting(
    z
      .string()
      .trim()
      .max(60, 'must be at most 60 characters')
      // It goes into page titles, the From and Subject of e-mails and the User-Agent of deliveries.
      .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, 'must not contain tabs, line breaks or control characters')
      .optional(),
    "the operator's product name, shown to customers instead of hookline on every page and e-mail, and in " +
      'the User-Agent of deliveries (`Voxtel Connect` → `Voxtel-Connect-Webhooks/1.0`)',
    '— (hookline)',
  ),
  HOOKLINE_BRAND_COLOR: setting(
    z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb')
      .superRefine((v, ctx) => {
        // A value that is no colour has its own message: a contrast figure of it would mean nothing.
        if (!/^#[0-9a-fA-F]{6}$/.test(v)) return;
        const ratio = contrastWithWhite(v);
        if (ratio < AA_CONTRAST)
          ctx.addIssue({
            code: 'custom',
            message:
              `contrasts ${ratio.toFixed(2)}:1 with white; it must reach ${AA_CONTRAST}:1 (WCAG AA) both as text ` +
              'on the white page and under the white text of buttons: choose a darker colour',
          });
      })
      .optional(),
    'the colour of links and buttons (#rrggbb); refused at start unless it contrasts at least 4.5:1 with white',
    '— (hookline blue)',
  ),
  HOOKLINE_BRAND_LOGO: setting(
    z.string().min(1).optional(),
    'path of a PNG or SVG file (at most 512 KiB), read at start and served by hookline itself as the logo ' +
      'on every page and e-mail',
    '— (hookline logo)',
  ),
  HOOKLINE_BRAND_SUPPORT_URL: setting(
    urlOf(['http:', 'https:', 'mailto:'], 'must be an absolute https://, http:// or mailto: URL').optional(),
    'where customers get help: linked on every page and e-mail',
    '— (no help link)',
  ),
  HOOKLINE_API_KEY: setting(
    bearerToken(16).optional(),
    'operator key, `Authorization: Bearer …`, at least 16 characters, visible ASCII without spaces',
    '— (`pnpm start` generates one into `secrets.json` in `HOOKLINE_DATA_DIR`)',
  ),
  HOOKLINE_SECRET_KEY: setting(
    z
      .string()
      .refine((v) => decodeSecretKey(v) !== undefined, 'must be 32 bytes as 64 hex characters or base64')
      .optional(),
    "32 bytes as 64 hex characters or base64; encrypts hook credentials (AES-256-GCM) and keys the erasure fence's tags (HMAC-SHA256), so every process has the same one (a monitor runs erasures and seals the operator notices' secret with it). `openssl rand -hex 32`",
    '— (`pnpm start` generates one into `secrets.json` in `HOOKLINE_DATA_DIR`)',
  ),
  HOOKLINE_QUEUE_PREFIX: setting(
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, "_", "." and "-" only (no braces or colons)')
      .default('hookline'),
    'prefix of every Redis key; lets several deployments or test runs share one Redis',
  ),
  HOOKLINE_DATA_DIR: setting(
    z.string().min(1).default('.data'),
    "where `pnpm start` keeps its generated secrets (`secrets.json`), the embedded Redis's AOF and the " +
      'embedded PostgreSQL; one `pnpm start` at a time uses it. Production entry points do not use it',
  ),
  HOOKLINE_DELIVERY_TIMEOUT_MS: setting(
    int(15000, 100, 120000),
    'deadline of one attempt, from its start to the status line',
  ),
  HOOKLINE_SUSPEND_AFTER_FAILURES: setting(
    int(10, 1, 1_000_000),
    'consecutive non-delivered outcomes that suspend a hook …',
  ),
  HOOKLINE_SUSPEND_AFTER_MS: setting(
    int(600000, 0, 30 * 24 * 3600 * 1000),
    '… provided the first of them is at least this old',
  ),
  HOOKLINE_HOLD_MAX: setting(
    int(10000, 1, 10_000_000),
    'most events held for a suspended hook; older ones are dropped as `expired`',
  ),
  HOOKLINE_EVENT_TYPE_HEADER: setting(
    z
      .string()
      .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be a valid HTTP header name')
      // The same list a hook's extra headers are checked against: either would send two values for one name.
      .refine(
        (v) => !isReservedHeaderName(v),
        'is a header hookline sets itself on every delivery (Authorization, Content-Type, Host, User-Agent, ' +
          'the signature or trace headers, …); choose a name of your own such as X-Service-Event-Type',
      )
      .default(DEFAULT_EVENT_TYPE_HEADER),
    'name of the header carrying the event kind; not one hookline sets itself (`Authorization`, ' +
      '`Content-Type`, `Host`, `User-Agent`, `webhook-signature`, `traceparent`, …: see "Extra headers")',
  ),
  HOOKLINE_ALLOW_NETWORKS: setting(
    commaList(cidr, cidrKey),
    'comma-separated CIDRs exempt from the network policy',
  ),
  HOOKLINE_TRACE_PROPAGATE: setting(
    z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .default('false')
      .transform((v) => v === 'true'),
    "`true` adds W3C `traceparent` (and `tracestate`) to every delivery, naming the attempt's span (or, " +
      "without an exporter, the producer's, or a new trace's when the event came without one), so an " +
      'endpoint that traces joins the trace (see "Tracing"); with `false` an endpoint receives exactly the ' +
      'headers shown in "Walk-through with curl"',
  ),
  HOOKLINE_EGRESS_PROXY: setting(
    forwardProxyUrl(
      'must be http://[user:password@]host:port, the port included (a forward proxy that allows CONNECT)',
    ).optional(),
    'a forward proxy every outbound request goes through (deliveries, tests, probes, operator notices), as ' +
      'CONNECT tunnels to the address the network policy allowed, so endpoints see fixed source addresses ' +
      '(see "Egress proxy"). A refused or unreachable proxy sends nothing: events wait and go later',
    '— (requests go out directly)',
  ),
  HOOKLINE_EVENT_CATALOG: setting(
    z.string().min(1).optional(),
    'path of a JSON file declaring event kinds beside the built-in `call_created` (see "Event kinds"), and ' +
      'which of their fields are personal data (see "Personal data: erasure"); read and checked at start, ' +
      'every problem listed. Give every process the same file',
    '— (`call_created` only)',
  ),
  HOOKLINE_WORKER_MAX_HOOKS: setting(
    int(1000, 1, 100000),
    'most hooks one worker process delivers to at once (each with at most one request in flight; no ' +
      'connection of its own); when more hooks have events than the fleet has slots, a hook served for a ' +
      'second gives its slot to a waiting hook and queues again behind it',
  ),
  HOOKLINE_STUCK_AFTER_MS: setting(
    int(60000, 1000, 24 * 3600 * 1000),
    'the monitor wakes a hook again when it has had events waiting this long with no worker on it (not ' +
      'leased, not in the ready set; or in the ready set while no worker process is alive); a hook that no worker has served this long after being woken, and that ' +
      'is stuck again, is reported: a `warn` log line, `hookline_hooks_stuck`, and an activity entry on its account',
  ),
  ...httpTierSettings,
  HOOKLINE_METRICS_PORT: setting(
    int(9464, 0, 65535),
    'port of the `/metrics`, `/healthz` and `/readyz` of worker and monitor processes (`0` = any free port)',
  ),
  HOOKLINE_METRICS_HOST: setting(
    listenHost.default('0.0.0.0'),
    'interface that port listens on: an IP address of this machine (`0.0.0.0`, every IPv4 one, lets a ' +
      'Prometheus in another container or on another machine scrape it; `127.0.0.1` for this machine only; `::` ' +
      'for every IPv6 and IPv4 one), or a name that resolves to one',
  ),
  HOOKLINE_ADMIN_USER: setting(
    basicCredential()
      .min(1)
      // Basic authentication sends `user:password`: the first `:` ends the user.
      .refine(
        (v) => !v.includes(':'),
        'must not contain ":" (Basic authentication ends the user at the first ":")',
      )
      .default('admin'),
    'Bull Board user: visible ASCII or spaces, no `:`',
  ),
  HOOKLINE_ADMIN_PASSWORD: setting(
    basicCredential().min(12, 'must be at least 12 characters').optional(),
    'Bull Board password, at least 12 characters, visible ASCII or spaces. After 20 wrong passwords from one address in 15 minutes, ' +
      'that address gets `429` with `Retry-After` until the window ends (website sign-in: 5 per email, 20 ' +
      "per address, counted apart from the admin area's; a try refused while locked out, the right password " +
      'included, is not counted)',
    '— (Bull Board is off without it; `pnpm start` generates one)',
  ),
  LOG_LEVEL: setting(
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  ),
});

export type Settings = z.infer<typeof settingsSchema>;

export function decodeSecretKey(value: string): Buffer | undefined {
  const bytes = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  return bytes.length === 32 ? bytes : undefined;
}
