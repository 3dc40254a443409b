// Messages between the bench and its BullMQ host process (system/bullmq-host.ts), over the fork IPC channel.

export interface HostSettings {
  readonly redisUrl: string;
  readonly prefix: string;
  /** One no-op Worker per queue, in this order; completions are reported by index. */
  readonly queueNames: readonly string[];
  readonly lockDurationMs: number;
  readonly stalledIntervalMs: number;
  readonly maxStalledCount: number;
}

export type ToHost =
  | { readonly type: 'start'; readonly settings: HostSettings }
  /** Close every Worker (the job in flight finishes), disconnect, answer `stopped`, exit. */
  | { readonly type: 'stop' };

export type FromHost =
  | { readonly type: 'ready' }
  /** Jobs completed since the last batch: flat pairs of queue index and count. */
  | { readonly type: 'completed'; readonly counts: readonly number[] }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'stopped' };
