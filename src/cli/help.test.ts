import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { perItemColumns } from "../decision/table.js";
import { sideStatuses } from "../decision/types.js";
import { projectRoot, rolloutRunDir } from "../testing/shared.js";
import { commandLoaders } from "./commands/index.js";
import { memoryIo } from "./io.js";
import { runCli } from "./program.js";

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const commands = commandLoaders.map((c) => c.name);

/** The topics `twinscore help` lists. */
async function topics(): Promise<string[]> {
  const list = (await run(["help"])).out;
  return [...list.matchAll(/^ {2}([a-z-]+) {2,}\S/gm)].map((m) => m[1]);
}

describe("a command's --help: a short synopsis and its options first, then one line naming its topics", () => {
  it.each(commands)("%s --help", async (command) => {
    const r = await run([command, "--help"]);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    // usage, a short description, the options: no screenful of explanation before them
    expect(lines.findIndex((l) => l === "Options:")).toBeLessThanOrEqual(8);
    expect(lines.length).toBeLessThanOrEqual(70);
    const last = /^More: twinscore help ([a-z-]+(?:, [a-z-]+)*)$/.exec(lines.at(-1)!);
    expect(last, lines.at(-1)).not.toBeNull();
    const known = await topics();
    for (const topic of last![1].split(", ")) {
      expect(known, topic).toContain(topic);
      const t = await run(["help", topic]);
      expect(t.code, topic).toBe(0);
      expect(t.out.length, topic).toBeGreaterThan(200);
    }
    // and every command states its exit codes there, in one or two lines
    expect(r.out).toMatch(/\nExit: 0 /);
  });
});

describe("twinscore help", () => {
  it("lists every topic with what it explains; each prints within the help width", async () => {
    const r = await run(["help"]);
    expect(r.code).toBe(0);
    const names = await topics();
    for (const topic of ["per-item", "readings", "exit-codes", "decoders", "layouts", "aligned", "columns", "formats"])
      expect(names).toContain(topic);
    for (const topic of names) {
      const t = await run(["help", topic]);
      expect(t.code, topic).toBe(0);
      expect(t.err, topic).toBe("");
      for (const line of t.out.trimEnd().split("\n")) expect(line.length, `${topic}: ${line}`).toBeLessThanOrEqual(100);
    }
    // the program's own help names them too
    const top = await run(["--help"]);
    for (const topic of names) expect(top.out).toContain(topic);
  });

  it("help COMMAND is the command's --help; an unknown topic is one error line, exit 2", async () => {
    expect((await run(["help", "score"])).out).toBe((await run(["score", "--help"])).out);
    const r = await run(["help", "nope"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/^error: no help topic or command "nope" \(topics: what-counts, .*\) \[bad-argument\]\n$/);
  });

  it("help exit-codes gives every command's exit codes", async () => {
    const r = (await run(["help", "exit-codes"])).out;
    for (const command of commands) expect(r, command).toMatch(new RegExp(`\\n {2}${command} +0 `));
  });
});

describe("the per-item file is explained in help per-item and the README (real 2025-11-12-main run)", () => {
  it("every column of a real file, every side status in it, and the marks of its call cells", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "twinscore-per-item-help-")), "items.csv");
    const s = await run(["score", "--results", rolloutRunDir("2025-11-12-main"), "--bootstrap", "0", "--per-item", file]);
    expect(s.err).toContain(`note: wrote ${file} (446 rows) [written]`);
    const [header, ...rows] = readFileSync(file, "utf8").trimEnd().split("\n");
    const columns = header.split(",");
    // the run's score/ is read beside result/: BFCL's verdict on each twin closes the row
    expect(columns).toEqual([...perItemColumns, "base_official", "miss_official"]);
    const help = (await run(["help", "per-item"])).out;
    const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
    const readmePerItem = readme.slice(readme.indexOf("### The per-item file"), readme.indexOf("## Which BFCL runs it reads"));
    for (const c of [...columns, "base_completed", "miss_completed"]) {
      expect(help, c).toMatch(new RegExp(`\\n {2}${c} +\\S`));
      expect(readmePerItem, c).toContain(`\`${c}\``);
    }
    // the statuses the real file holds (decided, inference-error, not-reached) and the others, each explained
    const at = (name: string) => columns.indexOf(name);
    const seen = new Set(rows.flatMap((r) => [r.split(",")[at("base_status")], r.split(",")[at("miss_status")]]));
    expect([...seen].sort()).toEqual(["decided", "inference-error", "not-reached"]);
    for (const status of sideStatuses) {
      expect(help, status).toMatch(new RegExp(`\\n {2}${status} +\\S`));
      expect(readmePerItem, status).toContain(`\`${status}\``);
    }
    // a side that is not scored has empty act / hold, and the help says so
    const unscored = rows.map((r) => r.split(",")).find((r) => r[at("base_status")] === "inference-error")!;
    expect(unscored[at("act")]).toBe("");
    expect(help.replace(/\s+/g, " ")).toContain("empty when that side is not scored");
    // the marks of the call cells: * world-changing, ? arguments that did not decode
    expect(rows.some((r) => /\*/.test(r.split(",")[at("calls_on_base")]))).toBe(true);
    expect(help.replace(/\s+/g, " ")).toContain("* for a world-changing call, ? for a call whose arguments did not decode");
    expect(readmePerItem).toContain("`*` for a world-changing call and `?` for a call whose arguments did not decode");
  }, 60_000);
});

describe("the README's table of shared options says which command takes each", () => {
  it("every row's commands are exactly those whose --help lists the option", async () => {
    const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
    const start = readme.indexOf("| option | what it does | commands |");
    const rows = readme
      .slice(start)
      .split("\n")
      .slice(2)
      .filter((l, i, all) => l.startsWith("|") && all.slice(0, i).every((p) => p.startsWith("|")));
    expect(rows.length).toBeGreaterThan(10);
    const helps = new Map<string, string>();
    for (const c of commands) helps.set(c, (await run([c, "--help"])).out);
    let checked = 0;
    for (const row of rows) {
      const [options, , said] = row
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim());
      if (said.startsWith("every command")) continue;
      const listed = said.split(", ").map((c) => c.replace(/ \(.*\)$/, ""));
      for (const flag of [...options.matchAll(/`(--[a-z-]+)/g)].map((m) => m[1])) {
        // run's --model is its own option: the model the endpoint serves, not a filter of the models read
        const taking = commands
          .filter((c) => !(c === "run" && flag === "--model"))
          .filter(
            (c) =>
              new RegExp(`^\\s+(-\\w, )?${flag}[ =,]`, "m").test(helps.get(c)!) ||
              new RegExp(`^\\s+(-\\w, )?${flag}$`, "m").test(helps.get(c)!),
          );
        expect([flag, [...taking].sort()]).toEqual([flag, [...listed].sort()]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(12);
  });
});
