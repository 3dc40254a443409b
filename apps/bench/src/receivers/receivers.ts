import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { hookPath, idlePath, type CollectedWindow, type FromReceivers, type ToReceivers } from './protocol';

type Pending = (window: CollectedWindow | undefined) => void;
type Command = ToReceivers extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never;

/** The main thread's handle on the receiver thread: hook URLs, receipt notifications, timed windows. */
export class Receivers {
  private readonly listeners = new Set<(hook: number) => void>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  private constructor(
    private readonly thread: Worker,
    readonly ports: readonly number[],
  ) {
    thread.on('message', (message: FromReceivers) => {
      if (message.type === 'receipts') {
        for (const hook of message.hooks) for (const l of this.listeners) l(hook);
      } else if (message.type === 'done') {
        this.pending.get(message.id)?.(message.window);
        this.pending.delete(message.id);
      }
    });
  }

  /** Starts `servers` HTTP servers on 127.0.0.1; hooks are spread over them by index. */
  static async start(servers: number): Promise<Receivers> {
    // From source (tsx) the thread is a .ts file and inherits tsx through execArgv; built, it is .js.
    const thread = new Worker(join(__dirname, `receiver-thread${extname(__filename)}`), {
      workerData: servers,
    });
    const ports = await new Promise<readonly number[]>((resolve, reject) => {
      thread.once('error', reject);
      thread.once('message', (message: FromReceivers) => {
        if (message.type === 'ready') resolve(message.ports);
      });
    });
    return new Receivers(thread, ports);
  }

  url(hook: number): string {
    return `http://127.0.0.1:${this.ports[hook % this.ports.length]}${hookPath(hook)}`;
  }

  idleUrl(index: number): string {
    return `http://127.0.0.1:${this.ports[index % this.ports.length]}${idlePath(index)}`;
  }

  /** Called with the hook index of every request that arrives; returns the unsubscribe function. */
  onReceipt(listener: (hook: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async setHanging(hooks: readonly number[]): Promise<void> {
    await this.command({ type: 'hang', hooks });
  }

  async collect(from: number, to: number): Promise<CollectedWindow> {
    return (await this.command({ type: 'collect', from, to }))!;
  }

  async close(): Promise<void> {
    await this.command({ type: 'stop' });
    await this.thread.terminate();
  }

  private command(message: Command): Promise<CollectedWindow | undefined> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.thread.postMessage({ ...message, id } as ToReceivers);
    });
  }
}
