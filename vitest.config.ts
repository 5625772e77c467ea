import { configDefaults, defineConfig } from "vitest/config";

/**
 * The end-to-end tier: files that drive the built CLI (`dist/`) or a browser as a user
 * would, or run a command's whole pipeline over the real runs in ../shared. `npm test`
 * runs both tiers; `npm run test:unit` runs the rest, the fast tier, alone. A new file
 * that spawns the CLI or reads whole runs through a command belongs here.
 */
export const END_TO_END = [
  "src/app/check-differences.test.ts",
  "src/app/check-prompting.test.ts",
  "src/app/check-versions.test.ts",
  "src/app/history-read.test.ts",
  "src/app/older-data.test.ts",
  "src/app/reads-once.test.ts",
  "src/app/run-inject.test.ts",
  "src/app/run-interactive.test.ts",
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
  "src/cli/messages.test.ts",
  "src/cli/option-groups.test.ts",
  "src/cli/program.test.ts",
  "src/extract/bfcl-decoding.test.ts",
  "src/io/manifest.test.ts",
  "src/io/run-output.test.ts",
  "src/library.test.ts",
  "src/pairs/revisions.test.ts",
  "src/report/report.browser.test.ts",
  "src/simulator/executor-changes.test.ts",
  "src/testing/chromium.test.ts",
];

const ALL = ["src/**/*.test.ts", "tools/**/*.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    reporters: ["default", "./tools/summary-reporter.ts"],
    projects: [
      { extends: true, test: { name: "unit", include: ALL, exclude: [...configDefaults.exclude, ...END_TO_END] } },
      { extends: true, test: { name: "e2e", include: END_TO_END } },
    ],
  },
});
