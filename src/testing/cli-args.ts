/**
 * A command line for the CLI tests, built from its flags: `cliArgs("run", { endpoint: url, model: "m", retries: 0 })`
 * is `["run", "--endpoint", url, "--model", "m", "--retries", "0"]`, so a test's command reads on one line.
 */

/** A flag's value: its one argument, several arguments, or (true) the flag alone; false or undefined leaves it out. */
export type FlagValue = string | number | boolean | readonly string[] | undefined;

/**
 * `command` (none when empty), then each flag of `flags` in the order written, named as on the command line
 * (`"bfcl-data"`), then `rest` as it is.
 */
export function cliArgs(command: string, flags: Readonly<Record<string, FlagValue>>, ...rest: string[]): string[] {
  const argv = command === "" ? [] : [command];
  for (const [name, value] of Object.entries(flags)) {
    if (value === undefined || value === false) continue;
    argv.push(`--${name}`);
    if (value === true) continue;
    if (typeof value === "string" || typeof value === "number") argv.push(String(value));
    else argv.push(...value);
  }
  return [...argv, ...rest];
}
