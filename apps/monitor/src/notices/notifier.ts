import type { Redis } from 'ioredis';
import { OutcomeConsumer, type StreamEntry } from '@hookline/queue';
import type { RedisKeys } from '@hookline/redis';
import type { Accounts, Hooks } from '@hookline/store';
import { NOTICE_GROUP, parseNotice, type Notice } from '@hookline/suspension';
import type { Logger } from '@hookline/telemetry';
import type { Mailer } from './mailer';
import { noticeMail } from './notice-mail';

export interface NotifierDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly store: { readonly hooks: Pick<Hooks, 'get'>; readonly accounts: Pick<Accounts, 'get'> };
  readonly mailer: Mailer;
  /** HOOKLINE_PUBLIC_URL: the e-mails link to the hook's page when it is known. */
  readonly publicUrl?: string;
  readonly consumerName: string;
  readonly logger: Logger;
  readonly claimIdleMs: number;
  readonly blockMs: number;
}

/**
 * Sends each notice once across every monitor: the notices stream is read with a consumer group, and an entry
 * is acknowledged once its e-mail is accepted by the mail server. A notice whose sending fails stays pending
 * and is tried again (by this monitor or another) after `claimIdleMs`.
 */
export function startNotifier(deps: NotifierDeps): { close(): Promise<void> } {
  const log = deps.logger.child({ component: 'notifier' });
  const consumer = new OutcomeConsumer({
    redis: deps.redis,
    blocking: deps.redis.duplicate(),
    stream: deps.keys.notices(),
    group: NOTICE_GROUP,
    consumer: deps.consumerName,
    batchSize: 20,
    blockMs: deps.blockMs,
    claimIdleMs: deps.claimIdleMs,
    handle: async (entries) => {
      const done: string[] = [];
      for (const entry of entries) {
        if (!(await sendOne(deps, entry, log))) break;
        done.push(entry.id);
      }
      return done;
    },
    onError: (error) => log.error({ err: error }, 'notices: retrying'),
  });
  consumer.start();
  return {
    async close() {
      await consumer.stop();
      deps.mailer.close();
    },
  };
}

/** True when the entry is handled (sent, or nothing to send); false to leave it pending for a retry. */
async function sendOne(deps: NotifierDeps, entry: StreamEntry, log: Logger): Promise<boolean> {
  const notice = parseNotice(entry.fields);
  if (!notice) return true;
  const [hook, account] = await Promise.all([
    deps.store.hooks.get(notice.accountId, notice.hookId),
    deps.store.accounts.get(notice.accountId),
  ]);
  // A hook deleted since, or an account without an address: nobody to tell.
  if (!hook || !account?.email) return true;
  try {
    await deps.mailer.send(account.email, noticeMail(notice, hook, deps.publicUrl));
    log.info(noticeLine(notice), 'notice e-mailed');
    return true;
  } catch (error) {
    log.warn({ ...noticeLine(notice), err: error }, 'notice not e-mailed yet; will retry');
    return false;
  }
}

const noticeLine = (n: Notice) => ({ kind: n.kind, hookId: n.hookId, accountId: n.accountId });
