/** What went wrong on a step of the customer's screen, read out as it appears; nothing when all is well. */
export function CustomerProblem({ problem, id }: { problem: string | undefined; id?: string }) {
  if (!problem) return null;
  return (
    <p className="customer-problem" id={id} role="alert">
      {problem}
    </p>
  );
}
