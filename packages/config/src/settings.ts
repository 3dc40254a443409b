import { parseCidr } from '@hookline/core';
import { z } from 'zod';

// Every setting hookline reads, with its default. The README's settings table mirrors this list.
const int = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

// The same parser the deliverer uses, so a setting accepted here is never refused at delivery.
const cidr = z
  .string()
  .refine(
    (value) => parseCidr(value) !== undefined,
    'each entry must be a CIDR such as 127.0.0.0/8 or fd00::/8',
  );

// `host:port`, the host a name, an IPv4 address or a bracketed IPv6 address.
const clusterNode = z.string().transform((value, ctx) => {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not host:port (e.g. 10.0.0.5:6379)` });
    return z.NEVER;
  }
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
});

// A comma-separated list (empty by default), each entry checked by `item`.
const commaList = <T extends z.ZodType<unknown, string>>(item: T) =>
  z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));

export const settingsSchema = z.object({
  PORT: int(8080, 0, 65535),
  HOST: z.string().min(1).default('0.0.0.0'),
  REDIS_URL: z
    .string()
    .default('redis://127.0.0.1:6379')
    .refine((v) => /^rediss?:\/\//.test(v), 'must start with redis:// or rediss://'),
  // Seeds of a Redis Cluster; when given, hookline runs in cluster mode and takes only the user, password and
  // TLS (rediss://) from REDIS_URL.
  REDIS_CLUSTER_NODES: commaList(clusterNode),
  HOOKLINE_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  HOOKLINE_SECRET_KEY: z
    .string()
    .refine((v) => decodeSecretKey(v) !== undefined, 'must be 32 bytes as 64 hex characters or base64')
    .optional(),
  HOOKLINE_QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, "_", "." and "-" only (no braces or colons)')
    .default('hookline'),
  HOOKLINE_DELIVERY_TIMEOUT_MS: int(15000, 100, 120000),
  HOOKLINE_SUSPEND_AFTER_FAILURES: int(10, 1, 1_000_000),
  HOOKLINE_SUSPEND_AFTER_MS: int(600000, 0, 30 * 24 * 3600 * 1000),
  HOOKLINE_HOLD_MAX: int(10000, 1, 10_000_000),
  HOOKLINE_EVENT_TYPE_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be a valid HTTP header name')
    .default('X-Service-Event-Type'),
  HOOKLINE_ALLOW_NETWORKS: commaList(cidr),
  HOOKLINE_DELIVERY_LOG_MAX: int(1000, 1, 100000),
  HOOKLINE_WORKER_MAX_HOOKS: int(256, 1, 100000),
  HOOKLINE_WORKER_IDLE_MS: int(2000, 10, 3600000),
  // On SIGTERM, how long the HTTP tier lets requests in flight finish before it closes every connection left;
  // with the rest of the shutdown it must fit the orchestrator's grace (Kubernetes: 30 s).
  HOOKLINE_HTTP_DRAIN_MS: int(10000, 0, 120000),
  HOOKLINE_METRICS_PORT: int(9464, 0, 65535),
  HOOKLINE_ADMIN_USER: z.string().min(1).default('admin'),
  HOOKLINE_ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Settings = z.infer<typeof settingsSchema>;

export function decodeSecretKey(value: string): Buffer | undefined {
  const bytes = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  return bytes.length === 32 ? bytes : undefined;
}
