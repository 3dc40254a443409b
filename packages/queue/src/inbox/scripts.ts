import { join } from 'node:path';
import { loadScript, loadWithBullmqAdd } from '@hookline/redis';

const DIR = join(__dirname, 'scripts');

/**
 * The account inbox's scripts: accept an event (idempotency, hook snapshot, entry, or on one Redis the adds to
 * its hooks' queues with BullMQ's own add script) and the recovery index.
 */
export const INBOX_SCRIPTS = {
  inboxAccept: loadWithBullmqAdd('inbox-accept', DIR),
  inboxTagAnswer: loadScript('inbox-tag-answer', DIR),
  inboxMark: loadScript('inbox-mark', DIR),
  inboxQuietAccounts: loadScript('inbox-quiet-accounts', DIR),
  inboxForget: loadScript('inbox-forget', DIR),
  inboxOlderThan: loadScript('inbox-older-than', DIR),
} as const;
