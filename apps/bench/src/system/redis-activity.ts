import type { Redis } from 'ioredis';
import { sleep } from '../clock';
import { monitorStream } from './monitor-stream';

export type CommandStats = Map<string, { calls: number; usec: number }>;

/** INFO commandstats: calls and CPU µs per command since Redis started (commands inside scripts included). */
export async function commandStats(redis: Redis): Promise<CommandStats> {
  const stats: CommandStats = new Map();
  for (const m of (await redis.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm))
    stats.set(m[1]!, { calls: Number(m[2]), usec: Number(m[3]) });
  return stats;
}

export function commandStatsDelta(before: CommandStats, after: CommandStats): CommandStats {
  const delta: CommandStats = new Map();
  for (const [name, a] of after) {
    const b = before.get(name) ?? { calls: 0, usec: 0 };
    if (a.calls > b.calls) delta.set(name, { calls: a.calls - b.calls, usec: a.usec - b.usec });
  }
  return delta;
}

/** A numeric field of an INFO section's text (`field:value` lines); undefined when absent. */
export function infoNumber(info: string, field: string): number | undefined {
  const value = new RegExp(`^${field}:([\\d.]+)\\r?$`, 'm').exec(info)?.[1];
  return value === undefined ? undefined : Number(value);
}

/** Redis's own CPU seconds (user + system, all its threads). */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  return (infoNumber(info, 'used_cpu_user') ?? 0) + (infoNumber(info, 'used_cpu_sys') ?? 0);
}

/**
 * Connections Redis has accepted since it started (INFO stats `total_connections_received`): server-wide, like
 * commandstats, so another program connecting during a window counts too.
 */
export async function connectionsReceived(redis: Redis): Promise<number> {
  return infoNumber(await redis.info('stats'), 'total_connections_received') ?? 0;
}

export interface ClientCommands {
  readonly pid: number;
  /**
   * Commands this process sent, per second (a script counts once: EVALSHA is one command); absent when
   * MONITOR could not be turned on.
   */
  readonly perSecond?: number;
  readonly byCommand: Record<string, number>;
}

// Turning MONITOR on takes one round trip; a Redis too busy to answer within this is not watched.
const MONITOR_ON_WITHIN_MS = 5000;

/**
 * Counts, with MONITOR, the commands that each process sends for `ms`. INFO's counters are for the whole
 * server, which other programs may be using too; MONITOR names the client of each command, and `clients`
 * maps client addresses to process ids (re-read every second, so reconnections are followed). Bounded: at
 * most `ms` once MONITOR is on, 5 s to turn it on; if the stream ends early, the rates are over the time it
 * ran.
 */
export async function watchClients(
  redisUrl: string,
  clients: () => Promise<Map<string, number>>,
  pids: readonly number[],
  ms: number,
): Promise<ClientCommands[]> {
  const owner = await clients();
  const counts = new Map(pids.map((pid) => [pid, { total: 0, byCommand: {} as Record<string, number> }]));
  const stream = monitorStream(redisUrl, ({ source, command }) => {
    const count = counts.get(owner.get(source) ?? -1);
    if (!count) return;
    count.byCommand[command] = (count.byCommand[command] ?? 0) + 1;
    count.total += 1;
  });
  const refresh = setInterval(() => {
    void clients().then((latest) => latest.forEach((pid, address) => owner.set(address, pid)));
  }, 1000);
  let watchedMs: number | undefined;
  try {
    const on = await Promise.race([
      stream.started.then(
        () => true,
        () => false,
      ),
      sleep(MONITOR_ON_WITHIN_MS).then(() => false),
    ]);
    if (on) {
      const from = Date.now();
      await Promise.race([sleep(ms), stream.ended]);
      watchedMs = Date.now() - from;
    }
  } finally {
    clearInterval(refresh);
    stream.close();
  }
  return pids.map((pid) => {
    const count = counts.get(pid)!;
    return {
      pid,
      ...(watchedMs !== undefined && watchedMs > 0
        ? { perSecond: Math.round((count.total / (watchedMs / 1000)) * 10) / 10 }
        : {}),
      byCommand: count.byCommand,
    };
  });
}
