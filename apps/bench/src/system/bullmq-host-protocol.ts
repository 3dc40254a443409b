// Messages between the bench and its BullMQ host process (system/bullmq-host.ts), over the fork IPC channel.

export interface HostSettings {
  readonly redisUrl: string;
  readonly prefix: string;
  /** The hook queues the host consumes, in this order; completions and signals name them by index. */
  readonly hookIds: readonly string[];
  readonly lockDurationMs: number;
}

export type ToHost =
  | { readonly type: 'start'; readonly settings: HostSettings }
  /** These queues got jobs: drain them (the bench's stand-in for hookline's ready set, without its scripts). */
  | { readonly type: 'signal'; readonly queues: readonly number[] }
  /** Stop taking jobs (the one in hand finishes), disconnect, answer `stopped`, exit. */
  | { readonly type: 'stop' };

export type FromHost =
  | { readonly type: 'ready' }
  /** Jobs completed since the last batch: flat pairs of queue index and count. */
  | { readonly type: 'completed'; readonly counts: readonly number[] }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'stopped' };
