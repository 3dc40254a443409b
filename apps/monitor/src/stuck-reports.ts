import type { Clock } from '@hookline/core';
import type { StuckReport } from '@hookline/scheduler';
import type { Notice, SuspensionStore } from '@hookline/suspension';
import type { FleetMetrics, Logger } from '@hookline/telemetry';

export interface StuckReportDeps {
  readonly store: Pick<SuspensionStore, 'hooks' | 'activity'>;
  readonly metrics?: Pick<FleetMetrics, 'stuckReports' | 'watchdogWakeups'>;
  readonly log: Logger;
  readonly clock: Clock;
  /** Tells the operator (a `hook.stuck` notice, sent on by the notifier when the operator's webhook is set). */
  readonly announce?: (notice: Notice) => Promise<void>;
}

/**
 * For the customer's activity feed: what they would notice, and that someone is on it. Shown as written under any
 * brand, so it names no product (§16); "your provider" is what the Activity page calls the operator.
 */
export function stuckDetail(report: StuckReport, now: number): string {
  const one = report.backlog.waiting === 1;
  const events = one ? '1 event is' : `${report.backlog.waiting} events are`;
  return (
    `${events} waiting and no delivery process has taken ${one ? 'it' : 'them'} up for ${howLong(now - report.since)}, ` +
    'even after the hook was woken again; your provider is alerted'
  );
}

/** A duration in the words of the activity feed: seconds under a minute (a short HOOKLINE_STUCK_AFTER_MS), else minutes. */
function howLong(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (ms < 59_500) return plural(Math.max(1, Math.round(ms / 1000)), 'second');
  return plural(Math.round(ms / 60_000), 'minute');
}

/**
 * What the watchdog's findings become: a wake-up is counted and logged; a stuck hook (reported by one monitor
 * only) gets a `warn` line for the operators, the stuck-reports counter, and an entry in its account's
 * activity feed for the customer.
 */
export function stuckReporting(deps: StuckReportDeps) {
  const { log, metrics } = deps;
  return {
    onWake(hookIds: readonly string[]): void {
      metrics?.watchdogWakeups.inc(hookIds.length);
      log.info({ hooks: hookIds }, 'watchdog: woke hooks with events waiting and no worker on them');
    },
    async onReport(report: StuckReport): Promise<void> {
      const now = deps.clock().getTime();
      const accountId = await deps.store.hooks.accountOf(report.hookId);
      metrics?.stuckReports.inc();
      log.warn(
        {
          hookId: report.hookId,
          accountId,
          waiting: report.backlog.waiting,
          active: report.backlog.active,
          stuckForMs: now - report.since,
          oldestWaitingAt: report.backlog.oldestWaitingAt,
        },
        'watchdog: hook stuck: events waiting and no worker on it, even after a wake-up',
      );
      if (!accountId) return;
      const at = new Date(now).toISOString();
      const detail = stuckDetail(report, now);
      await deps.store.activity.append(accountId, {
        kind: 'hook.stuck',
        at,
        hook_id: report.hookId,
        actor: 'monitor',
        detail,
      });
      await deps.announce?.({
        kind: 'hook.stuck',
        accountId,
        hookId: report.hookId,
        at,
        reason: detail,
        actor: 'monitor',
        count: report.backlog.waiting,
        failures: [],
      });
    },
    onRecovered(hookId: string): void {
      log.info({ hookId }, 'watchdog: a hook reported stuck has a worker again (or nothing left to deliver)');
    },
  };
}
