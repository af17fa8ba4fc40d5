/** Why a list could not be read, with Try again; what was shown before stays on screen beside it. */
import type { Loaded } from './use-load';

export function LoadProblem({ loaded }: { loaded: Pick<Loaded<unknown>, 'problem' | 'reload'> }) {
  if (!loaded.problem) return null;
  return (
    <div className="notice notice-bad notice-row" role="alert">
      <span>{loaded.problem}</span>
      <button type="button" className="button button-secondary button-small" onClick={loaded.reload}>
        Try again
      </button>
    </div>
  );
}
