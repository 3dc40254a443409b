import { Counter, Gauge, type Registry } from 'prom-client';

const made = new WeakMap<Registry, FleetMetrics>();

/**
 * The fleet-wide figures the monitor exports. Registered only where a monitor runs: in the HTTP tier or a
 * worker they would read 0 (no workers alive, Redis down), which is false. Every monitor exports the same
 * values (they are read from Redis), so alerts take the max or min over monitors. One set per registry: the
 * all-in-one start and tests run several monitors on one.
 */
export function fleetMetrics(registry: Registry): FleetMetrics {
  const existing = made.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const metrics = {
    eventsWaiting: new Gauge({
      name: 'hookline_events_waiting',
      help: 'Events waiting for a worker in every hook queue, as of the last full sweep (held events of suspended hooks are not counted)',
      registers,
    }),
    oldestEventAge: new Gauge({
      name: 'hookline_oldest_event_age_seconds',
      help: 'Age of the oldest event waiting for a worker, fleet-wide (0 when none waits)',
      registers,
    }),
    hookOldestEventAge: new Gauge({
      name: 'hookline_hook_oldest_event_age_seconds',
      help: 'Age of the oldest waiting event of each of the 10 hooks with the oldest ones (one series per hook among those 10 only)',
      labelNames: ['hook'] as const,
      registers,
    }),
    sweepAge: new Gauge({
      name: 'hookline_watchdog_sweep_age_seconds',
      help: "Time since the watchdog's last full sweep over every hook ended: how old hookline_events_waiting is",
      registers,
    }),
    hooksReady: new Gauge({
      name: 'hookline_hooks_ready',
      help: 'Hooks in the ready set: they have events and wait for a worker to claim them',
      registers,
    }),
    hooksLeased: new Gauge({
      name: 'hookline_hooks_leased',
      help: 'Hooks a worker process is delivering to now (live leases)',
      registers,
    }),
    hooksStuck: new Gauge({
      name: 'hookline_hooks_stuck',
      help: 'Hooks with work and no worker that the watchdog woke and that stayed stuck (reported, not yet recovered)',
      registers,
    }),
    watchdogWakeups: new Counter({
      name: 'hookline_watchdog_wakeups_total',
      help: 'Hooks the watchdog put back in the ready set (work waiting, no worker on them)',
      registers,
    }),
    stuckReports: new Counter({
      name: 'hookline_watchdog_stuck_reports_total',
      help: 'Hooks reported stuck: woken, and still without a worker a stuck-after time later',
      registers,
    }),
    workerHeartbeatAge: new Gauge({
      name: 'hookline_worker_heartbeat_age_seconds',
      help: 'Time since each worker process last said it was alive (workers that stopped cleanly are not listed; silent ones for 10 minutes)',
      labelNames: ['worker'] as const,
      registers,
    }),
    workersAlive: new Gauge({
      name: 'hookline_workers_alive',
      help: 'Worker processes whose heartbeat is recent',
      registers,
    }),
    redisUp: new Gauge({
      name: 'hookline_redis_up',
      help: '1 when Redis answered the monitor within 2 s, asked at the scrape; 0 when not',
      registers,
    }),
    redisReplicasShort: new Gauge({
      name: 'hookline_redis_replicas_short',
      help:
        '1 when HOOKLINE_REDIS_REPLICA_ACKS asks for N replicas and a primary has fewer online (publishing ' +
        'answers 503 and deliveries pause until one is back), asked at the scrape; 0 when not, or none asked',
      registers,
    }),
    historyLag: new Gauge({
      name: 'hookline_history_lag_seconds',
      help: 'How long the oldest attempt record not yet in the history database has waited for the writer (0 when none waits)',
      registers,
    }),
    historyWritten: new Counter({
      name: 'hookline_history_records_written_total',
      help: 'Attempt records this monitor wrote to the history database',
      registers,
    }),
    historyDropped: new Counter({
      name: 'hookline_history_records_dropped_total',
      help: 'Attempt records the history writer could not keep: unparsable, or older than the retention',
      labelNames: ['reason'] as const,
      registers,
    }),
    historyWriteErrors: new Counter({
      name: 'hookline_history_write_errors_total',
      help: 'Rounds of the history writer that failed (database or Redis unreachable); their records are retried',
      registers,
    }),
    noticesSent: new Counter({
      name: 'hookline_notices_sent_total',
      help: 'Notices of hook transitions sent by this monitor: e-mailed to the account, or queued for the operator',
      labelNames: ['channel', 'kind'] as const,
      registers,
    }),
    noticeFailures: new Counter({
      name: 'hookline_notice_failures_total',
      help: 'Notices this monitor could not send yet (mail server or Redis unreachable); each is tried again',
      registers,
    }),
    historyUp: new Gauge({
      name: 'hookline_history_database_up',
      help: '1 when the history database answered the monitor within 1 s, asked at the scrape; 0 when not',
      registers,
    }),
  };
  made.set(registry, metrics);
  return metrics;
}

export interface FleetMetrics {
  readonly eventsWaiting: Gauge;
  readonly oldestEventAge: Gauge;
  readonly hookOldestEventAge: Gauge<'hook'>;
  readonly sweepAge: Gauge;
  readonly hooksReady: Gauge;
  readonly hooksLeased: Gauge;
  readonly hooksStuck: Gauge;
  readonly watchdogWakeups: Counter;
  readonly stuckReports: Counter;
  readonly workerHeartbeatAge: Gauge<'worker'>;
  readonly workersAlive: Gauge;
  readonly redisUp: Gauge;
  readonly redisReplicasShort: Gauge;
  readonly historyLag: Gauge;
  readonly historyWritten: Counter;
  readonly historyDropped: Counter<'reason'>;
  readonly historyWriteErrors: Counter;
  readonly historyUp: Gauge;
  readonly noticesSent: Counter<'channel' | 'kind'>;
  readonly noticeFailures: Counter;
}
