import type { Queue } from 'bullmq';
import type { HookView } from '@hookline/core';
import type { Hooks } from '@hookline/store';
import type { HookControl } from '@hookline/suspension';
import type { HookQueues } from '@hookline/redis';
import { HookQueueAdapter } from './hook-queue-adapter';

/** The part of createBullBoard's answer the registry drives. */
export interface Board {
  addQueue(queue: HookQueueAdapter): void;
  removeQueue(queueOrName: string | HookQueueAdapter): void;
}

export interface BoardRegistryDeps {
  readonly board: Board;
  readonly hooks: Pick<Hooks, 'get' | 'list' | 'target'>;
  readonly hookQueues: Pick<HookQueues, 'open'>;
  readonly control: Pick<HookControl, 'enable' | 'suspend'>;
  /** `admin:<user>`: who pressed the buttons. */
  readonly actor: string;
  /** Most queues on the board at once; the least recently looked-at go first. */
  readonly maxQueues: number;
}

/**
 * Which hook queues Bull Board shows. Bull Board polls every registered queue on each view, so queues are
 * registered on demand (an account's hooks, one hook, a deep link) and the least recently used are dropped
 * past `maxQueues`, instead of registering every hook of the deployment.
 */
export class BoardRegistry {
  // Insertion order is recency order: a hook looked at again is moved to the end.
  private readonly registered = new Map<string, { adapter: HookQueueAdapter; queue: Queue }>();

  constructor(private readonly deps: BoardRegistryDeps) {}

  has(hookId: string): boolean {
    return this.registered.has(hookId);
  }

  hookIds(): string[] {
    return [...this.registered.keys()];
  }

  /** The board's adapter of a registered hook. */
  adapter(hookId: string): HookQueueAdapter | undefined {
    return this.registered.get(hookId)?.adapter;
  }

  /** Registers one hook by id; false when there is no such hook. */
  async registerHook(hookId: string): Promise<boolean> {
    if (this.touch(hookId)) return true;
    const target = await this.deps.hooks.target(hookId);
    const view = target && (await this.deps.hooks.get(target.accountId, hookId));
    if (!view) return false;
    this.add(view);
    return true;
  }

  /** Registers the hooks of an account, or those whose description contains `name` (any case). */
  async registerAccount(accountId: string, name = ''): Promise<HookView[]> {
    const wanted = name.trim().toLowerCase();
    const hooks = (await this.deps.hooks.list(accountId)).filter(
      (hook) => wanted === '' || (hook.description ?? '').toLowerCase().includes(wanted),
    );
    this.registerHooks(hooks);
    return hooks;
  }

  /** Registers hooks already read (a search's), as many as the board holds. */
  registerHooks(hooks: readonly HookView[]): void {
    for (const hook of hooks.slice(0, this.deps.maxQueues)) if (!this.touch(hook.id)) this.add(hook);
  }

  async close(): Promise<void> {
    for (const hookId of [...this.registered.keys()]) await this.drop(hookId);
  }

  private touch(hookId: string): boolean {
    const entry = this.registered.get(hookId);
    if (!entry) return false;
    this.registered.delete(hookId);
    this.registered.set(hookId, entry);
    return true;
  }

  private add(hook: HookView): void {
    const queue = this.deps.hookQueues.open(hook.id);
    const adapter = new HookQueueAdapter(
      queue,
      {
        hookId: hook.id,
        accountId: hook.account_id,
        displayName: `${hook.description || new URL(hook.url).host} (${hook.id})`,
        // The host only: a URL's path or query may carry a customer's token.
        description: `account ${hook.account_id} · ${new URL(hook.url).host}`,
      },
      this.deps.control,
      this.deps.actor,
    );
    this.registered.set(hook.id, { adapter, queue });
    this.deps.board.addQueue(adapter);
    while (this.registered.size > this.deps.maxQueues)
      void this.drop(this.registered.keys().next().value!).catch(() => undefined);
  }

  private async drop(hookId: string): Promise<void> {
    const entry = this.registered.get(hookId);
    if (!entry) return;
    this.registered.delete(hookId);
    this.deps.board.removeQueue(entry.adapter);
    // A view's Queue handle holds no work; its close has been seen to never settle (BullMQ waiting on a
    // connection being torn down), and server shutdown must not wait on the admin board.
    await Promise.race([
      entry.queue.close().catch(() => undefined),
      new Promise((r) => setTimeout(r, 2000).unref()),
    ]);
  }
}
