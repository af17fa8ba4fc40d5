/**
 * The processor the `processor` setting names, read for each request so that a manager's change
 * applies from the next one. A follow-up (capture, refund, void) goes to whichever decided its
 * original: the gateway knows nothing of what the simulator approved, and the simulator cannot take
 * back what the gateway charged.
 */
import type { ProcessorChoice } from '../settings';
import type { Processor } from './processor';

export class ProcessorBySetting implements Processor {
  constructor(
    private readonly simulator: Processor,
    private readonly upstream: Processor,
    private readonly choice: () => ProcessorChoice,
  ) {}

  /** The processor new transactions go to now. */
  current(): Processor {
    return this.choice() === 'upstream' ? this.upstream : this.simulator;
  }

  /**
   * The setting read once, for one request: the processor it goes to (follow-ups still to whichever
   * decided their original), and whether that is the merchant's gateway, so that what the request
   * holds for the gateway and where it goes cannot disagree when the setting changes meanwhile.
   */
  forRequest(): { viaGateway: boolean; processor: Processor } {
    const choice = this.choice();
    return {
      viaGateway: choice === 'upstream',
      processor: new ProcessorBySetting(this.simulator, this.upstream, () => choice),
    };
  }

  screen(request: Parameters<Processor['screen']>[0]) {
    return this.current().screen(request);
  }

  authorize(request: Parameters<Processor['authorize']>[0]) {
    return this.current().authorize(request);
  }

  forcedSale(request: Parameters<Processor['forcedSale']>[0]) {
    return this.current().forcedSale(request);
  }

  credit(request: Parameters<Processor['credit']>[0]) {
    return this.current().credit(request);
  }

  followUp(request: Parameters<Processor['followUp']>[0]) {
    const decidedByGateway =
      typeof request.originalUpstreamId === 'string' && request.originalUpstreamId !== '';
    return (decidedByGateway ? this.upstream : this.simulator).followUp(request);
  }
}
