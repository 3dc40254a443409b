import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { Queue } from 'bullmq';
import { ADMIN_PAUSE } from '@hookline/core';
import type { HookControl } from '@hookline/suspension';

export interface HookOnBoard {
  readonly hookId: string;
  readonly accountId: string;
  readonly displayName: string;
  readonly description: string;
}

/**
 * A hook's queue on Bull Board. Pause and resume are hookline's suspension and re-enable, not BullMQ's bare
 * flag flips, so the API, the website and the activity feed say what the admin did: pressing resume
 * re-enables the hook and delivers what it held; pressing pause suspends it by an admin.
 */

export class HookQueueAdapter extends BullMQAdapter {
  constructor(
    queue: Queue,
    readonly hook: HookOnBoard,
    private readonly control: Pick<HookControl, 'enable' | 'suspend'>,
    private readonly actor: string,
  ) {
    // Read-only: Bull Board then offers nothing that changes a queue or its jobs (retry, promote, clean, empty,
    // add, duplicate, remove, concurrency, rate limit), which would break never-twice and one-in-flight, and
    // refuses those calls itself. Its read-only mode takes pause and resume away too; hookline serves those two
    // on the board page itself (board-actions.ts), calling pause() and resume() below.
    super(queue, { displayName: hook.displayName, description: hook.description, readOnlyMode: true });
  }

  /**
   * Unknown, not "no workers": hookline's workers take a hook's queue only while it has events, so an idle
   * queue without a worker is the normal state, and the board's "No workers" warning would read like an outage.
   */
  override async getWorkers(): Promise<null> {
    return null;
  }

  /** `reason`: what the admin typed; the customer reads it on the hook's page. */
  override async pause(reason?: string): Promise<void> {
    await this.hold(reason);
  }

  /**
   * Bull Board's pause, saying whether it changed anything: a hook suspended by its failures becomes the
   * admin's hold (paused already, but no longer the customer's to lift).
   */
  hold(reason?: string): Promise<boolean> {
    return this.control.suspend(
      this.hook.hookId,
      reason ? `${ADMIN_PAUSE}: ${reason}` : ADMIN_PAUSE,
      this.actor,
    );
  }

  override async resume(): Promise<void> {
    await this.control.enable(this.hook.accountId, this.hook.hookId, 'deliver', this.actor);
  }
}
