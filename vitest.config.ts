import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The end-to-end tier: files that drive the built CLI (`dist/`), a browser or another child
 * process as a user would, or run a command's whole pipeline over the real runs in
 * ../shared. `npm test` runs both tiers; `npm run test:unit` runs the rest, the fast tier,
 * alone (under 90 s on 2 cores). A new file that spawns a process, or takes more than a
 * couple of seconds to read whole runs through a command, belongs here.
 */
export const END_TO_END = [
  "src/app/check-differences.test.ts",
  "src/app/check-prompting.test.ts",
  "src/app/check-versions.test.ts",
  "src/app/check.test.ts",
  "src/app/history-read.test.ts",
  "src/app/older-data.test.ts",
  "src/app/reads-once.test.ts",
  "src/app/report.test.ts",
  "src/app/run-http.test.ts",
  "src/app/run-inject.test.ts",
  "src/app/run-interactive.test.ts",
  "src/app/run-policies.test.ts",
  "src/app/run-provenance.test.ts",
  "src/app/run-reference.test.ts",
  "src/app/run-replay.test.ts",
  "src/app/run-tools.test.ts",
  "src/app/run-trials.test.ts",
  "src/app/v3-data-numbers.test.ts",
  "src/bfcl/decode/declarations.test.ts",
  "src/bfcl/decode/handler-corpus.test.ts",
  "src/bfcl/decode/registry.test.ts",
  "src/cli/bin.test.ts",
  "src/cli/commands/*.test.ts",
  "src/cli/hardening.test.ts",
  "src/cli/help.test.ts",
  "src/cli/hostile-files.test.ts",
  "src/cli/json-schemas.test.ts",
  "src/cli/messages.test.ts",
  "src/cli/option-groups.test.ts",
  "src/cli/output-noise.test.ts",
  "src/cli/program.test.ts",
  "src/extract/bfcl-decoding.test.ts",
  "src/io/manifest.test.ts",
  "src/io/run-output.test.ts",
  "src/library.test.ts",
  "src/pairs/revisions.test.ts",
  "src/report/report.browser.test.ts",
  "src/simulator/executor-changes.test.ts",
  "src/testing/chromium.test.ts",
  "tools/summary-reporter.test.ts",
];

const ALL = ["src/**/*.test.ts", "tools/**/*.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // vitest keeps a core for itself by default, which on a 2-core machine runs every file
    // one after the other; the files wait on child processes, servers and disk often enough
    // that two at once finish the suite in little more than half the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ["default", "./tools/summary-reporter.ts"],
    projects: [
      // the files of each tier share a worker's loaded modules (no fresh module graph per file):
      // about a third less CPU on the fast tier, and some 2 s of CPU per end-to-end file, most of it
      // spent importing the same modules again; they touch no global state (no mocks, no stubbed
      // globals or environment, no process-wide listener left behind; processes they start are
      // their own)
      {
        extends: true,
        test: { name: "unit", include: ALL, exclude: [...configDefaults.exclude, ...END_TO_END], isolate: false },
      },
      { extends: true, test: { name: "e2e", include: END_TO_END, isolate: false } },
    ],
  },
});
