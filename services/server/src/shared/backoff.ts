/** Exponential backoff with full jitter (as AWS's architecture blog describes it), capped. */
export class Backoff {
  private attempt = 0;

  constructor(private readonly options: { initialMs: number; maxMs: number; jitter?: boolean }) {}

  /** The delay before the next try, growing with each call until `reset`. */
  next(): number {
    const ceiling = Math.min(this.options.maxMs, this.options.initialMs * 2 ** this.attempt);
    this.attempt++;
    return this.options.jitter === false ? ceiling : ceiling / 2 + Math.random() * (ceiling / 2);
  }

  wait(): Promise<void> {
    const ms = this.next();
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  get attempts() {
    return this.attempt;
  }

  reset() {
    this.attempt = 0;
  }
}
