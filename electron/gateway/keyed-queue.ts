/**
 * Work that must not overlap with other work under the same key runs one after the other, in the
 * order it arrived; work under other keys is not held up. Keys are forgotten once their queue is
 * empty, so memory follows what is in flight, not what has been.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string | undefined, work: () => Promise<T>): Promise<T> {
    if (key === undefined) return work();
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** How many keys have work queued or running. */
  get size(): number {
    return this.tails.size;
  }
}

/** At most `size` pieces of work hold a slot at once; the others wait for one, in arrival order. */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  /** Settles once a slot is held, with the function that gives it back (call it once). */
  async enter(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    };
  }
}
