import IORedis, { type RedisOptions } from 'ioredis';
import type { RedisTarget } from './connection';
import { clusterAccess } from './connection';
import { sentinelOptions } from './failover';
import { leaveReplacedPrimary, type PrimaryAddress } from './sentinel-connector';

// One per process: a subscription to `+switch-master` on every sentinel, so that the process's clients leave a
// primary the sentinels replaced even when it hangs instead of dying (sentinel-connector.ts says why and how).
// Pub/sub costs nothing while nothing fails over: no command is sent after the SUBSCRIBE, so an idle fleet stays
// as cheap as before (one idle connection per sentinel and process). Every sentinel is subscribed to, not one:
// each announces the switch when it learns of it, so the first to know tells this process at once, and each
// later announcement closes what reconnected to the replaced primary meanwhile (sentinel-connector.ts).
//
// ioredis' own `failoverDetector` does the same listening but then disconnects the client's connector, which
// can land while the client is asking the sentinels, and the client then stays closed for good (seen in the
// fleet test with ioredis 5.11: "Connection is closed." from the connector's sentinel loop). Here only sockets
// are destroyed; the client's own reconnect runs as after any closed connection.

const CHANNEL = '+switch-master';

export interface PrimarySwitch {
  readonly from: PrimaryAddress;
  readonly to: PrimaryAddress;
  /** Connections of this process that were still on another server than the new primary, and were closed. */
  readonly left: number;
}

export interface SentinelSwitchWatcher {
  close(): void;
}

/**
 * Watches the sentinels of `target` (none without REDIS_SENTINELS: undefined) and makes this process's Sentinel
 * clients leave a replaced primary; `switched` is told of each announcement for the watched master name.
 */
export function watchPrimarySwitches(
  target: RedisTarget,
  switched: (change: PrimarySwitch) => void = () => undefined,
): SentinelSwitchWatcher | undefined {
  if (typeof target === 'string' || !target.REDIS_SENTINELS || target.REDIS_SENTINELS.length === 0) return;
  const options = sentinelOptions(target, clusterAccess(target.REDIS_URL));
  const name = options.name ?? 'mymaster';
  const subscribers = (options.sentinels ?? []).map(({ host, port }) => {
    const subscriber = new IORedis({
      host: host ?? '127.0.0.1',
      port: port ?? 26379,
      ...(options.sentinelPassword
        ? { password: options.sentinelPassword, username: options.sentinelUsername }
        : {}),
      ...(options.enableTLSForSentinelMode ? { tls: options.sentinelTLS ?? {} } : {}),
      ...SUBSCRIBER_OPTIONS,
    });
    // A sentinel that is down is retried quietly; the clients' own errors say when no primary can be found.
    subscriber.on('error', () => undefined);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== CHANNEL) return;
      const announced = parseSwitch(message);
      if (!announced || announced.name !== name) return;
      switched({ ...announced, left: leaveReplacedPrimary(name, announced.from, announced.to) });
    });
    subscriber.subscribe(CHANNEL).catch(() => undefined);
    return subscriber;
  });
  return {
    close: () => {
      for (const subscriber of subscribers) subscriber.disconnect();
    },
  };
}

const SUBSCRIBER_OPTIONS: RedisOptions = {
  // A sentinel answers no INFO the ready check could use for loading state; SUBSCRIBE is sent again after each
  // reconnect (autoResubscribe), every half second at most while the sentinel is away.
  enableReadyCheck: false,
  maxRetriesPerRequest: null,
  retryStrategy: (times) => Math.min(100 * times, 500),
  connectionName: `hookline-switches-${process.pid}`,
};

/** `+switch-master`'s message: `<master name> <old ip> <old port> <new ip> <new port>`. */
export function parseSwitch(
  message: string,
): { name: string; from: PrimaryAddress; to: PrimaryAddress } | undefined {
  const [name, fromHost, fromPort, toHost, toPort] = message.split(' ');
  if (!name || !fromHost || !toHost || !Number(fromPort) || !Number(toPort)) return undefined;
  return {
    name,
    from: { host: fromHost, port: Number(fromPort) },
    to: { host: toHost, port: Number(toPort) },
  };
}
