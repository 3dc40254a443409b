import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { exportEventLoopLag, PROM_CLIENT_SAMPLE_MS } from './event-loop-lag';

/**
 * How often the event-loop lag is sampled (a timer of its own, event-loop-lag.ts). prom-client's default, every 10 ms,
 * wakes an idle process 100 times a second. A process that answers requests (`requests`) samples every 100 ms,
 * which catches any stall that matters to a request; the others every second, which catches every stall of
 * a second or more, the kind that delays a lock renewal or a deadline, and wakes an idle worker or monitor
 * once a second instead of ten times. The exported lag is how late each tick came, without the interval.
 */
const EVENT_LOOP_SAMPLE_MS = { requests: 100, background: 1000 } as const;

/** Which process's metrics a registry exports: a gauge only the worker (or the monitor) sets is not exported
 * by the others, where it would read 0 for ever (a dashboard line per HTTP tier, a `min` of every process). */
export type MetricsOf = 'api' | 'worker' | 'monitor' | 'all-in-one';

// One registry per process (the all-in-one start shares it between its parts).
export function createMetrics(
  kind: keyof typeof EVENT_LOOP_SAMPLE_MS = 'requests',
  of: MetricsOf = 'all-in-one',
) {
  const registry = new Registry();
  const workers = of === 'worker' || of === 'all-in-one' ? [registry] : [];
  const monitors = of === 'monitor' || of === 'all-in-one' ? [registry] : [];
  collectDefaultMetrics({
    register: registry,
    prefix: 'hookline_process_',
    eventLoopMonitoringPrecision: PROM_CLIENT_SAMPLE_MS,
  });
  exportEventLoopLag(registry, 'hookline_process_', EVENT_LOOP_SAMPLE_MS[kind]);
  return {
    registry,
    deliveries: new Counter({
      name: 'hookline_deliveries_total',
      help: 'Delivery attempts by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    deliveryDuration: new Histogram({
      name: 'hookline_delivery_duration_seconds',
      help: 'Time from the start of an attempt to its outcome',
      labelNames: ['outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
      registers: [registry],
    }),
    eventsAccepted: new Counter({
      name: 'hookline_events_accepted_total',
      help: 'Events accepted from producers, by type',
      labelNames: ['type'] as const,
      registers: [registry],
    }),
    heldHooks: new Gauge({
      name: 'hookline_worker_attached_hooks',
      help: 'Hooks this worker process is delivering to now (it holds their lease; the name is kept from an earlier design, for dashboards)',
      registers: workers,
    }),
    attemptsInFlight: new Gauge({
      name: 'hookline_worker_attempts_in_flight',
      help: 'Delivery attempts this worker process has in flight now (at most one per hook it holds)',
      registers: workers,
    }),
    egressProxyFailures: new Counter({
      name: 'hookline_egress_proxy_failures_total',
      help:
        'Requests the egress proxy kept from leaving (nothing was sent; the event waits and goes later), by ' +
        'cause: refused (CONNECT answered with another status than 200) or unreachable',
      labelNames: ['cause'] as const,
      registers: [registry],
    }),
    hooksWaitingOnEgress: new Gauge({
      name: 'hookline_worker_hooks_waiting_on_egress_proxy',
      help: 'Hooks whose next event this worker process keeps waiting because the egress proxy refused or was unreachable',
      registers: workers,
    }),
    suspendedHooks: new Gauge({
      name: 'hookline_hooks_suspended',
      help: 'Hooks suspended now',
      registers: monitors,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
