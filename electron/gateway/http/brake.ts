/**
 * A brake on guessed API keys. Keys are 256-bit random values, so guessing is hopeless; still, a
 * program hammering the engine with wrong keys is refused outright for a while rather than answered
 * as fast as it can ask. Valid keys are never held back.
 *
 * The brake is on when more than `limit` wrong keys came within the window, which is when the
 * limit-th latest before this one is still inside it. Only the latest `limit` times are kept, in a
 * ring: each wrong key costs the same and the memory stays the same, however hard the engine is
 * hammered.
 */
export class FailedKeyBrake {
  private readonly latest: Float64Array;
  /** Where the oldest of the kept times is, and the next one goes. */
  private next = 0;
  private kept = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.latest = new Float64Array(Math.max(0, limit));
  }

  /** Records a wrong key; returns the seconds to wait when the brake is on, otherwise undefined. */
  recordFailure(): number | undefined {
    const now = this.now();
    if (this.limit <= 0) return Math.max(1, Math.ceil(this.windowMs / 1000));
    const full = this.kept === this.limit;
    const oldest = this.latest[this.next] ?? now;
    this.latest[this.next] = now;
    this.next = (this.next + 1) % this.limit;
    if (!full) {
      this.kept++;
      return undefined;
    }
    if (now - oldest >= this.windowMs) return undefined;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }
}
