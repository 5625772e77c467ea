/**
 * Builds the commander program and runs it against a `CliIo`. The bin (`main.ts`) only
 * wires the real process to this function, so CLI tests call it directly.
 */
import { Command, CommanderError } from "commander";
import { commandLoaders } from "./commands/index.js";
import { ExitCode, type CliIo } from "./io.js";

const VERSION = "0.1.0";

/** Run the CLI with `argv` (without node and script) and return the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const state = { exitCode: ExitCode.ok as number };
  const program = new Command("twinscore");
  program
    .description(
      "Score the decision to act on BFCL multi-turn twin pairs.\n\n" +
        "A should-ask item (miss_func, miss_param) is a base item with one piece of information " +
        "removed at one turn, the anchor. twinscore reads, on each twin pair, whether the model " +
        "attempted a world-changing call on that turn: acting when complete and holding back " +
        "when information is missing are averaged, so always-act and always-ask both score 50.",
    )
    .version(VERSION)
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .allowExcessArguments(false)
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, getOutHelpWidth: () => 100, getErrHelpWidth: () => 100 });
  // `twinscore <command> …` needs only that command, `--version` none; anything else (help, a typo) gets them all
  const own = commandLoaders.find((c) => c.name === argv[0]);
  const versionOnly = argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V");
  for (const c of own ? [own] : versionOnly ? [] : commandLoaders) (await c.load())(program, io, state);
  program.addHelpText(
    "after",
    "\nExit codes: 0 done; 1 done with findings (a verify FAIL, a problem under --strict);\n2 nothing usable (bad arguments, missing or malformed input).\n",
  );
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.exitCode === 0 ? ExitCode.ok : ExitCode.badInput;
    }
    const message = e instanceof Error ? e.message : String(e);
    io.stderr(`twinscore: internal error: ${message}\n`);
    return ExitCode.badInput;
  }
  return state.exitCode;
}
