import { describe, expect, it } from 'vitest';
import { KeyedQueue, Slots } from '../../electron/gateway/keyed-queue';

/** A promise settled from outside, for a test to wait on a state rather than a time. */
function signal(): { promise: Promise<void>; resolve(): void } {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve: () => resolve() };
}

describe('KeyedQueue', () => {
  it('runs work under one key one after the other, and other keys beside it', async () => {
    const queue = new KeyedQueue();
    const events: string[] = [];
    const first = signal();
    const a1 = queue.run('a', async () => {
      events.push('a1 starts');
      await first.promise;
      events.push('a1 ends');
    });
    const a2 = queue.run('a', async () => {
      events.push('a2 starts');
    });
    await queue.run('b', async () => {
      events.push('b runs');
    });
    expect(events).toEqual(['a1 starts', 'b runs']);
    first.resolve();
    await Promise.all([a1, a2]);
    expect(events).toEqual(['a1 starts', 'b runs', 'a1 ends', 'a2 starts']);
    expect(queue.size).toBe(0);
  });
});

describe('Slots', () => {
  it('lets at most its size in at once, the others in arrival order as slots are given back', async () => {
    const slots = new Slots(2);
    const leaveFirst = await slots.enter();
    const leaveSecond = await slots.enter();
    const order: number[] = [];
    const third = slots.enter().then((leave) => (order.push(3), leave));
    const fourth = slots.enter().then((leave) => (order.push(4), leave));
    // Neither waiting one has a slot while both are held.
    await Promise.resolve();
    expect(order).toEqual([]);
    leaveFirst();
    leaveFirst(); // given back twice, counted once
    const leaveThird = await third;
    expect(order).toEqual([3]);
    leaveSecond();
    const leaveFourth = await fourth;
    expect(order).toEqual([3, 4]);
    leaveThird();
    leaveFourth();
    // Both slots are free again: two enter at once.
    const again = await Promise.all([slots.enter(), slots.enter()]);
    expect(again).toHaveLength(2);
  });
});
