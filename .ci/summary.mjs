// Prints "N passed, N failed[, N skipped]" from the JSON reports the test runners wrote.
import { existsSync, readFileSync } from 'node:fs';

const reports = ['test-results/vitest.json'];
let passed = 0;
let failed = 0;
let skipped = 0;
let found = 0;

for (const file of reports) {
  if (!existsSync(file)) continue;
  found++;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTests ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

if (found === 0) {
  console.log('0 passed, 1 failed');
  console.error('No test report was written: the test command stopped before the tests ran (see above).');
  process.exit(1);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
