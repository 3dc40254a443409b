import type { PublishEventInput } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import type { Accounts, Hooks } from '@hookline/store';
import type { Logger, Metrics } from '@hookline/telemetry';
import type { Redis } from 'ioredis';
import type { Mailer } from './mailer';
import type { MailBrand } from './notice-mail';
import { startNotifier } from './notifier';
import { ensureOperatorHook, type OperatorHook } from './operator-hook';

/** The monitor's notices: e-mail (HOOKLINE_SMTP_URL) and the operator's webhook (HOOKLINE_OPERATOR_WEBHOOK_*). */
export interface NoticesConfig {
  readonly mailer?: Mailer;
  readonly accounts: Pick<Accounts, 'get' | 'create'>;
  /** HOOKLINE_PUBLIC_URL, for the link to the hook's page. */
  readonly publicUrl?: string;
  /** HOOKLINE_BRAND_*: the e-mails carry the operator's name, logo and help link. */
  readonly brand?: MailBrand;
  /** HOOKLINE_OPERATOR_WEBHOOK_URL and _SECRET, and the producer the notices are published with. */
  readonly operator?: {
    readonly url: string;
    readonly secret: string;
    readonly producer: { publishNotice(accountId: string, input: PublishEventInput): Promise<unknown> };
  };
}

interface MonitorParts {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly store: { readonly hooks: Hooks };
  readonly logger: Logger;
  readonly blockMs?: number;
  readonly metrics?: { readonly registry: Metrics['registry'] };
}

/**
 * The monitor's notifier, once the operator's hook is set up (when notices go to the operator): it retries
 * that set-up until it succeeds (Redis away at start), and closes cleanly even if it never did.
 */
export async function startNotices(
  deps: MonitorParts,
  notices: NoticesConfig,
  o: { consumerName: string; claimIdleMs: number; log: Logger; closed: () => boolean },
): Promise<{ close(): Promise<void> } | undefined> {
  const { operator } = notices;
  let hook: OperatorHook | undefined;
  for (let attempt = 0; operator && !hook && !o.closed(); attempt++) {
    try {
      hook = await ensureOperatorHook({
        redis: deps.redis,
        keys: deps.keys,
        accounts: notices.accounts,
        hooks: deps.store.hooks,
        url: operator.url,
        secret: operator.secret,
      });
    } catch (error) {
      o.log.error({ err: error, attempt }, "the operator's notice hook could not be set up; retrying");
      await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 1000 * 2 ** attempt)));
    }
  }
  if (o.closed() || (!notices.mailer && !hook)) return undefined;
  return startNotifier({
    redis: deps.redis,
    keys: deps.keys,
    store: { hooks: deps.store.hooks, accounts: notices.accounts },
    ...(notices.mailer ? { mailer: notices.mailer } : {}),
    ...(hook && operator
      ? {
          operator: {
            hook,
            publish: (accountId, input) => operator.producer.publishNotice(accountId, input),
          },
        }
      : {}),
    ...(notices.publicUrl ? { publicUrl: notices.publicUrl } : {}),
    ...(notices.brand ? { brand: notices.brand } : {}),
    consumerName: o.consumerName,
    logger: deps.logger,
    claimIdleMs: o.claimIdleMs,
    blockMs: deps.blockMs ?? 1000,
    ...(deps.metrics ? { registry: deps.metrics.registry } : {}),
  });
}
