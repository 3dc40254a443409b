import type { Redis } from 'ioredis';

export interface StreamEntry {
  readonly id: string;
  /** Null for an entry trimmed from the stream while it was pending. */
  readonly fields: readonly string[] | null;
}

export interface StreamGroupReaderOptions {
  /** For commands; `blocking` is only for XREADGROUP ... BLOCK, which holds its connection. */
  readonly redis: Redis;
  readonly blocking: Redis;
  readonly stream: string;
  readonly group: string;
  readonly consumer: string;
  readonly batchSize: number;
  readonly blockMs: number;
  /** Entries pending this long with any consumer are taken over: that consumer is presumed dead. */
  readonly claimIdleMs: number;
  /** Processes a batch in order; returns the ids that are done (they are acknowledged). */
  readonly handle: (entries: readonly StreamEntry[]) => Promise<readonly string[]>;
  readonly onError: (error: unknown) => void;
}

const RETRY_MS = 500;

/**
 * Reads a stream (the outcome stream, the notice stream) as one consumer of a consumer group: every entry goes to one consumer, and stays
 * pending until that consumer acknowledges it, so a monitor that dies mid-batch loses nothing: the others
 * (or its successor) claim its pending entries once they have been idle for `claimIdleMs`.
 */
export class StreamGroupReader {
  private stopping = false;
  private claimCursor = '0-0';
  private running: Promise<void> | undefined;

  constructor(private readonly o: StreamGroupReaderOptions) {}

  start(): void {
    this.running ??= this.run();
  }

  /** Stops after the batch in hand; entries read but not handled stay pending for another consumer. */
  async stop(): Promise<void> {
    // Once only: ioredis arms a 2 s timer on each disconnect, and a second one is never cleared.
    if (!this.stopping) this.o.blocking.disconnect();
    this.stopping = true;
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.ensureGroup();
        break;
      } catch (error) {
        await this.pause(error);
      }
    }
    while (!this.stopping) {
      try {
        const claimed = await this.claim();
        if (claimed.length > 0) await this.process(claimed);
        if (this.stopping) break;
        const fresh = await this.read();
        if (fresh.length > 0) await this.process(fresh);
      } catch (error) {
        if (isGroupGone(error)) await this.recreateGroup(error);
        else await this.pause(error);
      }
    }
  }

  // A Redis restarted without its data (no AOF, or a replica promoted before it had the group) has neither
  // the stream nor the group: every read would answer NOGROUP for as long as the process runs. The group is
  // made again, from the start of the stream that the next XADD makes, so the entries written since count.
  private async recreateGroup(error: unknown): Promise<void> {
    this.o.onError(error);
    this.claimCursor = '0-0';
    try {
      await this.ensureGroup();
    } catch (again) {
      await this.pause(again);
    }
  }

  private async pause(error: unknown): Promise<void> {
    if (this.stopping) return;
    this.o.onError(error);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }

  // From the start of the stream: outcomes recorded before the first monitor ever ran still count.
  private async ensureGroup(): Promise<void> {
    try {
      await this.o.redis.xgroup('CREATE', this.o.stream, this.o.group, '0', 'MKSTREAM');
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) throw error;
    }
  }

  private async claim(): Promise<StreamEntry[]> {
    const { redis, stream, group, consumer, claimIdleMs, batchSize } = this.o;
    const reply = (await redis.xautoclaim(
      stream,
      group,
      consumer,
      claimIdleMs,
      this.claimCursor,
      'COUNT',
      batchSize,
    )) as [string, [string, string[] | null][]];
    this.claimCursor = reply[0];
    return toEntries(reply[1]);
  }

  private async read(): Promise<StreamEntry[]> {
    const { blocking, stream, group, consumer, batchSize, blockMs } = this.o;
    const reply = (await blocking.xreadgroup(
      'GROUP',
      group,
      consumer,
      'COUNT',
      batchSize,
      'BLOCK',
      blockMs,
      'STREAMS',
      stream,
      '>',
    )) as [string, [string, string[] | null][]][] | null;
    return toEntries(reply?.[0]?.[1] ?? []);
  }

  private async process(entries: readonly StreamEntry[]): Promise<void> {
    const done = await this.o.handle(entries);
    if (done.length > 0) await this.o.redis.xack(this.o.stream, this.o.group, ...done);
  }
}

const isGroupGone = (error: unknown): boolean => String(error).includes('NOGROUP');

function toEntries(raw: readonly [string, string[] | null][]): StreamEntry[] {
  return raw.filter((entry) => Array.isArray(entry)).map(([id, fields]) => ({ id, fields }));
}
