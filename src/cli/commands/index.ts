/**
 * The command list. Each command lives in its own file and registers itself here with
 * one line; commands hold wiring only — the work is in the core folders.
 */
import type { Command } from "commander";
import type { CliIo } from "../io.js";
/** A command module: adds itself to the program; sets `state.exitCode` when it runs (`state.argv`: the arguments as given). */
export type RegisterCommand = (program: Command, io: CliIo, state: { exitCode: number; readonly argv?: readonly string[] }) => void;

/**
 * The commands in help order, each behind a loader: a run imports only its own command's
 * modules (loading every command's core cost about 0.1 s at each start), while the
 * program's help and unknown-command suggestions load them all.
 */
export const commandLoaders: readonly { readonly name: string; readonly load: () => Promise<RegisterCommand> }[] = [
  { name: "demo", load: async () => (await import("./demo.js")).registerDemo },
  { name: "score", load: async () => (await import("./score.js")).registerScore },
  { name: "compare", load: async () => (await import("./compare.js")).registerCompare },
  { name: "report", load: async () => (await import("./report.js")).registerReport },
  { name: "verify", load: async () => (await import("./verify.js")).registerVerify },
  { name: "pairs", load: async () => (await import("./pairs.js")).registerPairs },
  { name: "check", load: async () => (await import("./check.js")).registerCheck },
  { name: "judge", load: async () => (await import("./judge.js")).registerJudge },
  { name: "run", load: async () => (await import("./run.js")).registerRun },
];
