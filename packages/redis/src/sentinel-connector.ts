import type { Socket } from 'node:net';
import { SentinelConnector, type SentinelConnectionOptions } from 'ioredis';

// The one place that knows ioredis' SentinelConnector from the inside (its private `resolve`, which asks one
// sentinel for the primary): every Sentinel client of hookline, and every `duplicate()` of one (BullMQ's
// blocking connections among them), connects through this connector, so this process knows which primary each
// of its connections was sent to and can make it leave a primary the sentinels have replaced.
//
// Why it is needed: a primary that hangs (SIGSTOP, a paused VM) rather than dies closes no socket and answers
// no READONLY, so a client connected to it waits for as long as it hangs, even after the sentinels promoted a
// replica. When the watcher (sentinel-switches.ts) hears `+switch-master`, `leaveReplacedPrimary` destroys
// every connection sent to another server than the new primary: ioredis then takes the path a killed primary's
// closed socket takes (reconnect, which asks the sentinels again; the commands in flight are sent again on the
// new connection, `autoResendUnfulfilledCommands`; a blocking command too; subscriptions are renewed).
//
// Only a connection to another server is destroyed: one already on the new primary keeps its commands in
// flight, which that server is running (sent again, they would run twice). A command sent to the replaced
// primary and sent again is what a killed primary's commands go through too: it ran on the new primary at most
// once more if the old one had run it and its replica had copied it before the switch (the lag window the
// README's failover table counts), and what the old primary does after it wakes is thrown away when it becomes
// a replica.
//
// The sentinels learn of a switch one after the other (from the leader's hello messages, within seconds): a
// client that reconnects meanwhile may ask one that still names the replaced primary, and would connect to the
// hung server again. So for SWITCH_SETTLE_MS after a switch, a sentinel naming the primary it replaced is
// answered with the new one. Not longer: a switch this process did not hear (every sentinel's subscription
// down) must not keep clients away from a primary for good. Addresses are compared as the sentinels give them
// (`announce-ip`/hostnames alike in both places); hookline sets no `natMap`.

/** How long after a switch an answer naming the replaced primary is taken for a sentinel not told yet. */
export const SWITCH_SETTLE_MS = 20_000;

export interface PrimaryAddress {
  readonly host: string;
  readonly port: number;
}

interface Switch {
  readonly from: PrimaryAddress;
  readonly to: PrimaryAddress;
  readonly at: number;
}

/** The last switch heard of, per master name. */
const switches = new Map<string, Switch>();

/** Every open connection of this process's Sentinel clients, with the master name and the primary it went to. */
const connections = new Map<Socket, { readonly name: string; readonly primary: PrimaryAddress }>();

const same = (a: PrimaryAddress, b: PrimaryAddress) => a.host === b.host && a.port === b.port;

/** ioredis' private step: ask one sentinel for the primary (null when it answered nothing usable). */
interface ResolvesPrimary {
  resolve(endpoint: unknown): Promise<PrimaryAddress | null>;
}

function resolverOf(connector: SentinelConnector): ResolvesPrimary {
  const resolver = connector as unknown as Partial<ResolvesPrimary>;
  // Checked once per client: an ioredis that renamed it must fail loudly here, not leave clients on a hung primary.
  if (typeof resolver.resolve !== 'function')
    throw new Error('ioredis SentinelConnector has no resolve(): sentinel-connector.ts needs updating');
  return resolver as ResolvesPrimary;
}

/**
 * ioredis' SentinelConnector, but it remembers the primary each connection was sent to (so that
 * `leaveReplacedPrimary` can find the ones left on a replaced primary), and shortly after a switch it does not
 * go back to the replaced primary on the word of a sentinel not told yet.
 */
export class SwitchAwareSentinelConnector extends SentinelConnector {
  private readonly masterName: string;
  private primary: PrimaryAddress | null = null;

  // ioredis hands a connector the client's whole options (ConnectorConstructor takes `unknown`).
  constructor(clientOptions: unknown) {
    const options = clientOptions as SentinelConnectionOptions;
    super(options);
    this.masterName = options.name ?? 'mymaster';
    const resolver = resolverOf(this);
    const ask = resolver.resolve.bind(this);
    resolver.resolve = async (endpoint) => {
      const named = await ask(endpoint);
      this.primary = named && currentPrimary(this.masterName, named);
      return this.primary;
    };
  }

  override async connect(
    ...args: Parameters<SentinelConnector['connect']>
  ): ReturnType<SentinelConnector['connect']> {
    const stream = await super.connect(...args);
    const primary = this.primary;
    if (primary && !stream.destroyed) {
      connections.set(stream, { name: this.masterName, primary });
      stream.once('close', () => connections.delete(stream));
    }
    return stream;
  }
}

function currentPrimary(name: string, named: PrimaryAddress): PrimaryAddress {
  const last = switches.get(name);
  if (last && Date.now() - last.at < SWITCH_SETTLE_MS && same(named, last.from)) return { ...last.to };
  return named;
}

/**
 * The sentinels replaced `name`'s primary `from` with `to`: every connection of this process sent to another
 * server than `to` is destroyed (ioredis reconnects through the sentinels). Answers how many were.
 */
export function leaveReplacedPrimary(name: string, from: PrimaryAddress, to: PrimaryAddress): number {
  switches.set(name, { from, to, at: Date.now() });
  let left = 0;
  for (const [stream, connection] of connections) {
    if (connection.name !== name || same(connection.primary, to)) continue;
    connections.delete(stream);
    stream.destroy();
    left++;
  }
  return left;
}
