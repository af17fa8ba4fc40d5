/** A problem the cashier has to see before going on, read out at once; nothing while there is none. */
export function ProblemNotice({ problem }: { problem: string | undefined }) {
  if (!problem) return null;
  return (
    <p className="notice notice-bad" role="alert">
      {problem}
    </p>
  );
}
