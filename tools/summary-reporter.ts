/**
 * Vitest reporter that ends the run with the plain line `Tests: N passed, N failed`
 * (and `, N skipped`), which CI reads to tell a real run from an empty one, so the line
 * must say what vitest's exit code says. vitest lists the tests of a file whose
 * `beforeAll` threw as skipped; here a test that was to run and did not, because a hook
 * or the loading of its file or suite failed, is failed. A file that failed with no
 * failed test (it did not load, its `afterAll` threw) counts once as failed, and so does
 * each unhandled error. Only tests skipped on purpose (`skip`, `todo`, `ctx.skip()`) are
 * skipped.
 */
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason } from "vitest/node";

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Whether a hook or the collection of the test's suite, or of a suite around it, failed. */
function enclosingSuiteFailed(test: TestCase): boolean {
  for (let suite = test.parent; ; suite = suite.parent) {
    if (suite.errors().length > 0) return true;
    if (suite.type === "module") return false;
  }
}

/** The run's counts, failed whenever vitest failed the run. */
export function countTests(
  modules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError>,
  reason: TestRunEndReason,
): TestCounts {
  const counts: TestCounts = { passed: 0, failed: 0, skipped: 0 };
  for (const mod of modules) {
    let failedHere = 0;
    for (const test of mod.children.allTests()) {
      const state = test.result().state;
      if (state === "passed") counts.passed++;
      else if (state === "failed" || (test.options.mode === "run" && enclosingSuiteFailed(test))) failedHere++;
      else counts.skipped++;
    }
    counts.failed += mod.state() === "failed" && failedHere === 0 ? 1 : failedHere;
  }
  counts.failed += unhandledErrors.length;
  // vitest failed the run for a reason none of the above counts (it was interrupted, say):
  // the line must not say 0 failed.
  if (reason !== "passed" && counts.failed === 0) counts.failed = 1;
  return counts;
}

/** The closing line, in the plain form CI reads. */
export function summaryLine(counts: TestCounts): string {
  return `Tests: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ""}`;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    process.stdout.write(`\n${summaryLine(countTests(testModules, unhandledErrors, reason))}\n`);
  }
}
