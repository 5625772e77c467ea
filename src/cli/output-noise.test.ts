/**
 * What a command prints beyond its numbers, on the real folder of gpt-oss runs: the files
 * read only under --verbose, --quiet leaving only the errors on stderr, and a title that
 * names only the columns the table shows.
 */
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot, rolloutRunDir } from "../testing/shared.js";
import { memoryIo } from "./io.js";
import { runCli } from "./program.js";

const runs = dirname(rolloutRunDir("2025-11-12-main"));

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("score on a folder of runs", () => {
  const args = ["score", "--results", runs, "--bootstrap", "0"];

  it("prints the files it read only under --verbose; the table and its title are the same", async () => {
    const plain = await run(args);
    const verbose = await run([...args, "--verbose"]);
    expect(plain.code).toBe(1);
    expect(plain.out).not.toContain("Files used");
    // no path of a result file: the numbers, their titles and the tables only
    expect(plain.out).not.toMatch(/\/result\//);
    expect(verbose.out.startsWith(plain.out)).toBe(true);
    const files = verbose.out
      .slice(plain.out.length)
      .split("\n")
      .filter((l) => l.startsWith("  "));
    expect(files).toHaveLength(12); // 4 models x base, miss_func, miss_param
  }, 120_000);

  it("--quiet leaves the errors alone on stderr and stdout as it was", async () => {
    const plain = await run(args);
    const quiet = await run([...args, "--quiet"]);
    expect(quiet.code).toBe(plain.code);
    expect(quiet.out).toBe(plain.out);
    expect(plain.err).toMatch(/^warning: /m);
    expect(plain.err).toMatch(/^note: /m);
    const errors = plain.err.split("\n").filter((l) => l.startsWith("error: "));
    expect(errors).toHaveLength(1); // main's gpt-oss-20b: no headline
    expect(quiet.err).toBe(errors.join("\n") + "\n");
  }, 120_000);

  it("the title names only the columns of pairs left out that the table shows", async () => {
    const plain = await run(args);
    const [title, , header] = plain.out.split("\n");
    expect(header).toMatch(/ error +unreached /);
    expect(header).not.toMatch(/ missing | undecid /);
    expect(title).toContain("N counts the pairs decided on both twins (error, unreached: the pairs left out, by why)");
  }, 120_000);
});
