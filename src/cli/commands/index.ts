/**
 * The command list. Each command lives in its own file and registers itself here with
 * one line; commands hold wiring only — the work is in the core folders.
 */
import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { registerPairs } from "./pairs.js";
import { registerCheck } from "./check.js";
import { registerScore } from "./score.js";
import { registerDemo } from "./demo.js";
import { registerVerify } from "./verify.js";
import { registerCompare } from "./compare.js";
import { registerJudge } from "./judge.js";
import { registerReport } from "./report.js";

/** A command module: adds itself to the program; sets `state.exitCode` when it runs. */
export type RegisterCommand = (program: Command, io: CliIo, state: { exitCode: number }) => void;

export const commands: RegisterCommand[] = [
  registerDemo,
  registerScore,
  registerCompare,
  registerReport,
  registerVerify,
  registerPairs,
  registerCheck,
  registerJudge,
];
