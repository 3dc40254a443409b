import type { Redis } from 'ioredis';
import { StreamGroupReader } from '@hookline/queue';
import type { RedisKeys } from '@hookline/redis';
import type { Accounts, Hooks } from '@hookline/store';
import { NOTICE_GROUP, parseNotice, type Notice } from '@hookline/suspension';
import type { PublishEventInput } from '@hookline/core';
import { fleetMetrics, watchedDuplicate, type Logger, type Metrics } from '@hookline/telemetry';
import type { Mailer } from './mailer';
import { noticeMail, type MailBrand } from './notice-mail';
import type { OperatorHook } from './operator-hook';
import { operatorEvent } from './operator-notice';

export interface NotifierDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly store: { readonly hooks: Pick<Hooks, 'get'>; readonly accounts: Pick<Accounts, 'get'> };
  /** E-mail to the account (HOOKLINE_SMTP_URL). */
  readonly mailer?: Mailer;
  /** The operator's webhook (HOOKLINE_OPERATOR_WEBHOOK_URL): each notice is published to this hook. */
  readonly operator?: {
    readonly hook: OperatorHook;
    readonly publish: (accountId: string, input: PublishEventInput) => Promise<unknown>;
  };
  /** HOOKLINE_PUBLIC_URL: the e-mails link to the hook's page when it is known. */
  readonly publicUrl?: string;
  /** The operator's brand in the e-mails. */
  readonly brand?: MailBrand;
  readonly consumerName: string;
  readonly logger: Logger;
  readonly claimIdleMs: number;
  readonly blockMs: number;
  readonly registry?: Metrics['registry'];
}

/**
 * A notice made this long before the notifier started is acknowledged unsent: it is news of a transition made
 * while no notifier ran with a channel (notices were off, or turned on just now), and the hook has likely moved
 * on since. A notice of the minutes before a monitor's restart still goes out.
 */
export const NOTICE_STALE_MS = 10 * 60_000;

/**
 * Sends each notice once across every monitor: the notices stream is read with a consumer group, and an entry
 * is acknowledged once it is queued for the operator's webhook and its e-mail is accepted by the mail server.
 * A notice whose sending fails stays pending and is tried again (by this monitor or another) after
 * `claimIdleMs`; queueing it for the operator again is harmless (the entry id is its idempotency key).
 */
export function startNotifier(deps: NotifierDeps): { close(): Promise<void> } {
  const log = deps.logger.child({ component: 'notifier' });
  const freshSince = Date.now() - NOTICE_STALE_MS;
  const consumer = new StreamGroupReader({
    redis: deps.redis,
    blocking: watchedDuplicate(deps.redis, log),
    stream: deps.keys.notices(),
    group: NOTICE_GROUP,
    consumer: deps.consumerName,
    batchSize: 20,
    blockMs: deps.blockMs,
    claimIdleMs: deps.claimIdleMs,
    handle: async (entries) => {
      const done: string[] = [];
      const stale: Notice[] = [];
      for (const entry of entries) {
        const notice = parseNotice(entry.fields);
        if (notice && Date.parse(notice.at) < freshSince) stale.push(notice);
        else if (notice && !(await sendOne(deps, notice, entry.id, log))) break;
        done.push(entry.id);
      }
      if (stale.length > 0)
        log.info(
          { skipped: stale.length, oldest: stale[0]!.at },
          'notices made more than 10 minutes before this notifier started: not sent',
        );
      return done;
    },
    onError: (error) => log.error({ err: error }, 'notices: retrying'),
  });
  consumer.start();
  return {
    async close() {
      await consumer.stop();
      deps.mailer?.close();
    },
  };
}

/** True when the entry is handled (sent, or nothing to send); false to leave it pending for a retry. */
async function sendOne(deps: NotifierDeps, notice: Notice, entryId: string, log: Logger): Promise<boolean> {
  const metrics = deps.registry ? fleetMetrics(deps.registry) : undefined;
  const [hook, account] = await Promise.all([
    deps.store.hooks.get(notice.accountId, notice.hookId),
    deps.store.accounts.get(notice.accountId),
  ]);
  try {
    // The notices hook's own failing is not sent through itself (to the endpoint that fails); the log says it.
    const aboutItself = deps.operator?.hook.hookId === notice.hookId;
    if (aboutItself) log.warn(noticeLine(notice), 'the operator notices hook is failing');
    if (deps.operator && !aboutItself) {
      const { hook: operatorHook, publish } = deps.operator;
      await publish(operatorHook.accountId, operatorEvent(entryId, notice, hook?.url ?? ''));
      metrics?.noticesSent.inc({ channel: 'operator', kind: notice.kind });
      log.info(noticeLine(notice), 'notice queued for the operator');
    }
    // A hook deleted since, or an account without an address: no customer to tell.
    if (deps.mailer && hook && account?.email && isMailed(notice)) {
      await deps.mailer.send(account.email, noticeMail(notice, hook, deps.publicUrl, deps.brand));
      metrics?.noticesSent.inc({ channel: 'email', kind: notice.kind });
      log.info(noticeLine(notice), 'notice e-mailed');
    }
    return true;
  } catch (error) {
    metrics?.noticeFailures.inc();
    log.warn({ ...noticeLine(notice), err: error }, 'notice not sent yet; will retry');
    return false;
  }
}

const noticeLine = (n: Notice) => ({ kind: n.kind, hookId: n.hookId, accountId: n.accountId });

/** A stuck hook is the operator's to fix: its notice goes to the operator's webhook only. */
const isMailed = (n: Notice): n is Notice & { kind: Exclude<Notice['kind'], 'hook.stuck'> } =>
  n.kind !== 'hook.stuck';
