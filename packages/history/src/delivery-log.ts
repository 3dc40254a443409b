import type { AttemptRecord } from '@hookline/core';
import type { HistoryOutbox } from '@hookline/redis';
import type { DeliveryLine, HistoryReader } from './history-reader';

/**
 * A hook's delivery log as the domain services use it: records go in through the hook's Redis outbox (the
 * history writer moves them to the database), and the newest come back from the history, outbox included.
 */
export class DeliveryLog {
  constructor(
    private readonly outbox: Pick<HistoryOutbox, 'append'>,
    private readonly reader: Pick<HistoryReader, 'listForHook'>,
  ) {}

  /** Records outcomes no delivery produced (expired and discarded events), in the order given. */
  append(hookId: string, records: readonly AttemptRecord[]): Promise<void> {
    return this.outbox.append(hookId, records);
  }

  /** The hook's newest records, newest first. */
  async list(hookId: string, limit: number): Promise<DeliveryLine[]> {
    return (await this.reader.listForHook(hookId, {}, { limit })).data;
  }
}
