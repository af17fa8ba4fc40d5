/** What an action came to, in words: good news as a status, a failure read out at once; nothing before. */
export function ResultNotice({
  result,
  testId,
}: {
  result: { ok: boolean; message: string } | undefined;
  testId?: string;
}) {
  if (!result) return null;
  return (
    <p
      className={`notice ${result.ok ? 'notice-good' : 'notice-bad'}`}
      role={result.ok ? 'status' : 'alert'}
      data-testid={testId}
    >
      {result.message}
    </p>
  );
}
