/**
 * The facts under an answer (what was done, to what, on which card) as a description list. A fact
 * given as false or undefined is left out, so that a list can hold the ones that apply.
 */
import type { ReactNode } from 'react';

export interface Fact {
  label: string;
  value: ReactNode;
  /** A class for the value, such as `code` for an authorization code. */
  className?: string;
}

export function Facts({ facts }: { facts: readonly (Fact | false | undefined)[] }) {
  return (
    <dl className="facts">
      {facts.map(
        (fact) =>
          fact && (
            <div key={fact.label}>
              <dt>{fact.label}</dt>
              <dd className={fact.className}>{fact.value}</dd>
            </div>
          ),
      )}
    </dl>
  );
}
