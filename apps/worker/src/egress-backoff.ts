import type { Clock, NotSent } from '@hookline/core';
import type { EgressWaits } from '@hookline/redis';
import type { Logger, Metrics } from '@hookline/telemetry';

export interface EgressBackoffDeps {
  waits: Pick<EgressWaits, 'waiting' | 'clear'>;
  metrics: Pick<Metrics, 'egressProxyFailures' | 'hooksWaitingOnEgress'>;
  logger: Logger;
  clock: Clock;
  /** The first wait after a refused try; each further one doubles, up to `maxMs`. */
  firstMs: number;
  maxMs: number;
}

/**
 * The one place that knows hooks wait on the egress proxy: how long the next wait is (doubling, bounded),
 * and making it visible — the metric, one log line when a hook starts and stops waiting (the reason names
 * the proxy by host and port only: its credentials never reach a log), and the hook's wait entry that its
 * answers and page read.
 */
export class EgressBackoff {
  /** Hooks this process has kept waiting, with the refused tries of the current run. */
  private readonly tries = new Map<string, number>();

  constructor(private readonly deps: EgressBackoffDeps) {
    deps.metrics.egressProxyFailures.inc({ cause: 'refused' }, 0);
    deps.metrics.egressProxyFailures.inc({ cause: 'unreachable' }, 0);
  }

  /** A try the proxy kept from leaving: how long to wait before the next. */
  async notSent(hookId: string, jobId: string, result: NotSent): Promise<number> {
    const { metrics, logger, firstMs, maxMs } = this.deps;
    const tries = (this.tries.get(hookId) ?? 0) + 1;
    this.tries.set(hookId, tries);
    metrics.egressProxyFailures.inc({ cause: result.cause });
    metrics.hooksWaitingOnEgress.set(this.tries.size);
    const delayMs = Math.min(maxMs, firstMs * 2 ** Math.min(tries - 1, 20));
    if (tries === 1)
      logger.warn(
        { hookId, jobId, cause: result.cause, reason: result.error },
        'the egress proxy kept a delivery from leaving; the event waits at the head of its queue',
      );
    else
      logger.debug(
        { hookId, jobId, tries, delayMs, reason: result.error },
        'still waiting on the egress proxy',
      );
    // Outlives the next wait and the try after it: a process that dies while waiting leaves it to expire soon
    // (one that stops waiting clears it: stoppedWaiting).
    await this.deps.waits
      .waiting(hookId, result.error, this.deps.clock(), 2 * maxMs + 60_000, result.cause)
      .catch((error: unknown) => logger.warn({ err: error, hookId }, 'could not record the egress wait'));
    return delayMs;
  }

  /** This process no longer keeps the hook waiting, its event unsent (see EgressWaiting.stoppedWaiting). */
  async stoppedWaiting(hookId: string): Promise<void> {
    const tries = this.tries.get(hookId);
    if (tries === undefined) return;
    this.tries.delete(hookId);
    this.deps.metrics.hooksWaitingOnEgress.set(this.tries.size);
    this.deps.logger.info(
      { hookId, tries },
      'stopped waiting on the egress proxy for this hook; its event stays at the head of its queue',
    );
    await this.deps.waits.clear(hookId).catch(() => undefined);
  }

  /** A request of the hook left (whatever its outcome): the wait, if there was one, is over. */
  async sent(hookId: string): Promise<void> {
    const tries = this.tries.get(hookId);
    if (tries === undefined) return;
    this.tries.delete(hookId);
    this.deps.metrics.hooksWaitingOnEgress.set(this.tries.size);
    this.deps.logger.info({ hookId, tries }, 'the egress proxy let a waiting delivery through');
    await this.deps.waits.clear(hookId).catch(() => undefined);
  }
}
