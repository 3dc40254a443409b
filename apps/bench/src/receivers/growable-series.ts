/** Pairs of (receivedAt, latency) in µs, appended at receipt rate without per-sample allocation. */
export class GrowableSeries {
  private data = new Float64Array(1 << 16);
  private length = 0;

  push(receivedAt: number, latency: number): void {
    if (this.length + 2 > this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = receivedAt;
    this.data[this.length++] = latency;
  }

  /** Latencies of the samples received within [from, to]; every sample up to `to` is then dropped. */
  take(from: number, to: number): Float64Array {
    const picked: number[] = [];
    let kept = 0;
    for (let i = 0; i < this.length; i += 2) {
      const at = this.data[i]!;
      if (at > to) {
        this.data[kept++] = at;
        this.data[kept++] = this.data[i + 1]!;
      } else if (at >= from) picked.push(this.data[i + 1]!);
    }
    this.length = kept;
    return Float64Array.from(picked);
  }
}
