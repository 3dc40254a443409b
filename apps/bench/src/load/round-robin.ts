/**
 * The quiet closed loop's choice of hook: round robin over `size` hooks (positions 0 to size - 1), passing
 * over any hook that still has an event outstanding, so that no hook ever has two at once. With far fewer
 * events outstanding than hooks, a hook is passed over only when its last event is overtaken by almost a
 * whole lap of later ones.
 */
export class RoundRobin {
  private position = 0;
  private passedOver = 0;

  constructor(private readonly size: number) {}

  /** Hooks passed over so far because their last event had not arrived yet. */
  get skipped(): number {
    return this.passedOver;
  }

  /** The next position whose hook is not `busy`, or undefined when a whole lap found every hook busy. */
  next(busy: (position: number) => boolean): number | undefined {
    for (let tried = 0; tried < this.size; tried++) {
      const position = this.position;
      this.position = (position + 1) % this.size;
      if (!busy(position)) return position;
      this.passedOver += 1;
    }
    return undefined;
  }
}
