/**
 * Builds the commander program and runs it against a `CliIo`. The bin (`main.ts`) only
 * wires the real process to this function, so CLI tests call it directly.
 */
import { Command, CommanderError } from "commander";
import { commandLoaders } from "./commands/index.js";
import { helpTopics, isTopic, topicList, topicText } from "./help-topics.js";
import { ExitCode, type CliIo } from "./io.js";

import { TWINSCORE_VERSION as VERSION } from "../messages/version.js";
import type { ProblemCode } from "../messages/codes.js";

/**
 * One error line in the message form (`error: message [code]`). The renderer is loaded
 * only when there is an error to print: `--version` and a command's start load no more
 * of the CLI than they need.
 */
async function errorLine(code: ProblemCode, message: string): Promise<string> {
  const { problem, renderProblemLine } = await import("../messages/index.js");
  return renderProblemLine(problem(code, message)) + "\n";
}

/** Commander's own complaint (`error: unknown option '--x'`, maybe with a suggestion on the next line) as one message. */
function argumentErrorMessage(text: string): string {
  const message = text
    .replace(/^error: /, "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join(" ");
  return `${message} (--help lists the options)`;
}

/** Words joined by ", " into lines of at most `width` characters, each indented by two spaces. */
function wrapped(words: readonly string[], width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    const next = line === "" ? w : `${line}, ${w}`;
    if (next.length + 2 > width && line !== "") {
      lines.push(`${line},`);
      line = w;
    } else line = next;
  }
  if (line !== "") lines.push(line);
  return lines.map((l) => `  ${l}`).join("\n");
}

/** The error lines of a piece of stderr text (`[file:line: ]error: … [code]`), for `--quiet`. */
function errorLinesOnly(text: string): string {
  return text
    .split(/(?<=\n)/)
    .filter((l) => /^(\S[^:]*(:\d+)?: )?error: /.test(l))
    .join("");
}

/** Run the CLI with `argv` (without node and script) and return the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const state = { exitCode: ExitCode.ok as number, argv };
  // commander's complaint about the arguments, printed once parsing has stopped
  let argumentError: string | null = null;
  const program = newProgram(io, (message) => {
    argumentError = message;
  });
  // `twinscore <command> …` needs only that command, `--version` none; anything else (help, a typo) gets them all
  const own = commandLoaders.find((c) => c.name === argv[0]);
  const versionOnly = argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V");
  // --quiet (every command): stderr keeps the error lines only, decided once the command's options are parsed
  let quiet = false;
  const shown: CliIo = { ...io, stderr: (text) => io.stderr(quiet ? errorLinesOnly(text) : text) };
  program.hook("preAction", (_, action) => {
    quiet = action.opts().quiet === true;
  });
  for (const c of own ? [own] : versionOnly ? [] : commandLoaders) (await c.load())(program, shown, state);
  addHelpCommand(program, io, state);
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (argumentError !== null) io.stderr(await errorLine("bad-argument", argumentError));
      return e.exitCode === 0 ? ExitCode.ok : ExitCode.badInput;
    }
    const message = e instanceof Error ? e.message : String(e);
    io.stderr(await errorLine("internal", `internal error: ${message}`));
    return ExitCode.badInput;
  }
  return state.exitCode;
}

/** The program with its description and version, writing to `io`; commander's own complaints go to `onArgumentError`. */
function newProgram(io: CliIo, onArgumentError: (message: string) => void): Command {
  return new Command("twinscore")
    .description(
      "Score the decision to act on BFCL multi-turn twin pairs.\n\n" +
        "A should-ask item (miss_func, miss_param) is a base item with one piece of information " +
        "removed at one turn, the anchor. twinscore reads, on each twin pair, whether the model " +
        "attempted a world-changing call on that turn: acting when complete and holding back " +
        "when information is missing are averaged, so always-act and always-ask both score 50.",
    )
    .version(VERSION)
    .exitOverride()
    .allowExcessArguments(false)
    .helpCommand(false)
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      outputError: (text) => onArgumentError(argumentErrorMessage(text)),
      getOutHelpWidth: () => 100,
      getErrHelpWidth: () => 100,
    });
}

/** `twinscore help [topic]`, and the list of topics under the program's own --help. */
function addHelpCommand(program: Command, io: CliIo, state: { exitCode: number }): void {
  program
    .command("help [topic]")
    .summary("a help topic (twinscore help lists them), or a command's help")
    .description("Print a help topic, or with a command's name that command's --help; alone, list the topics.")
    .action(async (topic: string | undefined) => {
      if (topic === undefined) {
        io.stdout(topicList());
        return;
      }
      if (isTopic(topic)) {
        io.stdout(await topicText(topic));
        return;
      }
      const command = program.commands.find((c) => c.name() === topic);
      if (command !== undefined && topic !== "help") {
        command.outputHelp();
        return;
      }
      io.stderr(
        await errorLine(
          "bad-argument",
          `no help topic or command ${JSON.stringify(topic)} (topics: ${helpTopics.map((t) => t.name).join(", ")})`,
        ),
      );
      state.exitCode = ExitCode.badInput;
    });
  program.addHelpText(
    "after",
    `\nHelp topics (twinscore help TOPIC; twinscore help lists them with what each explains):\n${wrapped(
      helpTopics.map((t) => t.name),
      98,
    )}\n` + "Exit codes: 0 done; 1 done with findings; 2 nothing usable (twinscore help exit-codes).\n",
  );
}
