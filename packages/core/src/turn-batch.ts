/**
 * Gathers what callers ask for during one turn of the event loop and hands it to `flush` in one call, in that
 * turn's check phase (`setImmediate`): a script run once for every account or hook of the turn instead of
 * once each. Each caller gets its own item's answer (`flush` answers in the order it was given), or the
 * flush's error. A caller waits at most for the rest of the turn it asked in, plus the one call.
 */
export class TurnBatch<Item, Answer> {
  private items: Item[] = [];
  private answers?: Promise<readonly Answer[]>;

  constructor(private readonly flush: (items: readonly Item[]) => Promise<readonly Answer[]>) {}

  async add(item: Item): Promise<Answer> {
    if (!this.answers) {
      const items: Item[] = (this.items = []);
      this.answers = new Promise<readonly Answer[]>((resolve, reject) =>
        setImmediate(() => {
          this.answers = undefined; // items asked for from now on go into the next batch
          this.flush(items).then(resolve, reject);
        }),
      );
    }
    const index = this.items.push(item) - 1;
    const answers = await this.answers;
    return answers[index] as Answer;
  }
}
