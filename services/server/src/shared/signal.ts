/**
 * A wake-up that is never lost: `notify` before `wait` makes the next `wait` return at once, however many notifies
 * came in between; a `wait` with no notify returns after its timeout or when `cancel`led.
 */
export class Signal {
  private notified = false;
  private waiter: (() => void) | null = null;

  notify(): void {
    this.notified = true;
    this.waiter?.();
  }

  /** Resolves true when notified (now or earlier), false when the timeout passed first. */
  wait(timeoutMs: number): Promise<boolean> {
    if (this.notified) {
      this.notified = false;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const finish = (byNotify: boolean) => {
        clearTimeout(timer);
        if (this.waiter === wake) this.waiter = null;
        if (byNotify) this.notified = false;
        resolve(byNotify);
      };
      const wake = () => finish(true);
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.waiter = wake;
    });
  }
}
