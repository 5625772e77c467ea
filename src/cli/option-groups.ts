/**
 * Options that mean the same thing in every command that takes them, declared once as
 * groups: each group adds its flags to a command and reads them back into the request's
 * fields, so a flag cannot drift between commands.
 */
import { Option, type Command } from "commander";
import { DEFAULT_MAX_UNDECIDED } from "../decision/readings.js";
import { sideRules, type SideRule } from "../decision/types.js";
import { numberOption } from "./options.js";

/** A group of flags: how to add them to a command, and how to read what was given. */
export interface OptionGroup<T> {
  readonly add: (cmd: Command) => Command;
  readonly read: (opts: Record<string, unknown>) => T;
}

/** `--reading` and `--max-undecided`: how sides that are not decisions are read, and when a model gets no headline. */
export const readingGroup: OptionGroup<{ reading: SideRule; maxUndecided: number | undefined }> = {
  add: (cmd) =>
    cmd
      .addOption(
        new Option(
          "--reading <rule>",
          "decided: score only pairs decided on both twins; release: read inference errors and rollouts that ended before the anchor as no call, as the paper's released scorer",
        )
          .choices(sideRules)
          .default("decided"),
      )
      .option("--max-undecided <pct>", "no act/hold/decision for a model with more than this % of its pairs undecided (0-100)", String(DEFAULT_MAX_UNDECIDED)),
  read: (opts) => ({ reading: (opts.reading as SideRule | undefined) ?? "decided", maxUndecided: numberOption(opts.maxUndecided as string | undefined) }),
};
