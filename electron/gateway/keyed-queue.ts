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
