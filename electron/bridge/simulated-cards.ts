/**
 * The test cards behind the simulator's named swipes. The screens ask for a swipe by the outcome
 * they want ("declined"), so no card number ever crosses the bridge, not even a test one.
 */
import type { SimulatedSwipe } from '../../shared/ipc/contract';
import { TEST_CARDS } from '../gateway/processor/simulated';
import type { TestCard } from '../reader/simulator';

export interface SimulatedSwipePlan {
  card: TestCard;
  /** The reader saw the card but could read neither track. */
  badRead?: boolean;
}

/** MMYY of December three years ahead: a card that stays valid for as long as a demo runs. */
function futureExpiry(now: Date): string {
  return `12${String((now.getFullYear() + 3) % 100).padStart(2, '0')}`;
}

export function simulatedSwipePlan(name: SimulatedSwipe, now = new Date()): SimulatedSwipePlan {
  const expMmyy = futureExpiry(now);
  switch (name) {
    case 'approved-visa':
      return { card: { pan: '4111111111111111', expMmyy, firstName: 'PAT', lastName: 'MORGAN' } };
    case 'approved-mastercard':
      return { card: { pan: '5454545454545454', expMmyy, firstName: 'ALEX', lastName: 'RIVERA' } };
    case 'approved-amex':
      return { card: { pan: '371449635398431', expMmyy, firstName: 'SAM', lastName: 'OKAFOR' } };
    case 'declined':
      return { card: { pan: TEST_CARDS.DECLINED, expMmyy, firstName: 'DANA', lastName: 'CLINE' } };
    case 'insufficient-funds':
      return { card: { pan: TEST_CARDS.INSUFFICIENT_FUNDS, expMmyy, firstName: 'LEE', lastName: 'PARK' } };
    case 'processor-error':
      return { card: { pan: TEST_CARDS.PROCESSOR_ERROR, expMmyy, firstName: 'JO', lastName: 'QUINN' } };
    case 'expired':
      // April of the year before last: always past, always a real month.
      return {
        card: {
          pan: '4111111111111111',
          expMmyy: `04${String((now.getFullYear() - 2) % 100).padStart(2, '0')}`,
          firstName: 'PAT',
          lastName: 'MORGAN',
        },
      };
    case 'bad-read':
      return { card: { pan: '4111111111111111', expMmyy }, badRead: true };
  }
}
