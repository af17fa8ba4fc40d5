/**
 * A brake on guessed API keys. Keys are 256-bit random values, so guessing is hopeless; still, a
 * program hammering the engine with wrong keys is refused outright for a while rather than answered
 * as fast as it can ask. Valid keys are never held back.
 */
export class FailedKeyBrake {
  private failures: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a wrong key; returns the seconds to wait when the brake is on, otherwise undefined. */
  recordFailure(): number | undefined {
    const now = this.now();
    this.failures = this.failures.filter((at) => now - at < this.windowMs);
    this.failures.push(now);
    if (this.failures.length <= this.limit) return undefined;
    const oldest = this.failures[this.failures.length - this.limit - 1] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }
}
