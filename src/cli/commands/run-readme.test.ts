/**
 * The README's "Try it without a model" example, run as a user runs it: the replay server of its first block,
 * then the `npx twinscore run …` and `score …` commands of its second block, then Ctrl-C; `score`'s row must
 * equal the README's. Needs a fresh `dist/` (`npm run build` after changing src/). More in this folder's
 * README.md.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot, rolloutRunDir } from "../../testing/shared.js";
import { requireFreshBuild } from "../../testing/build.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-readme-replay-"));
let server: ChildProcess | null = null;
afterAll(() => {
  // the whole group: the server may outlive the shell that started it
  if (server?.pid !== undefined) {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(tmp, { recursive: true, force: true });
});

/** The shell commands of the two code blocks after `<!-- replay-example -->` (comments cut, continuations joined). */
function readmeBlocks(): [string[], string[]] {
  const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
  const at = readme.indexOf("<!-- replay-example -->");
  if (at < 0) throw new Error("README has no <!-- replay-example --> marker");
  const blocks = [...readme.slice(at).matchAll(/```sh\n([\s\S]*?)```/g)].slice(0, 2).map((m) =>
    m[1]
      .replace(/\\\n\s*/g, "")
      .split("\n")
      .map((l) => l.replace(/\s+#.*$/, "").trim())
      .filter((l) => l !== "" && !l.startsWith("#")),
  );
  if (blocks.length !== 2) throw new Error("the replay example needs two sh blocks after its marker");
  return [blocks[0], blocks[1]];
}

/** The README table row of a run and model (`| run | model | N | act | … |`), cells trimmed. */
function readmeRow(run: string, model: string): string[] {
  const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
  const line = readme.split("\n").find((l) => l.startsWith(`| ${run} | ${model} |`));
  if (!line) throw new Error(`README has no table row for ${run} ${model}`);
  return line
    .split("|")
    .slice(1, -1)
    .map((c) => c.trim());
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      const port = typeof a === "object" && a !== null ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

const env = {
  ...process.env,
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
  npm_config_update_notifier: "false",
  npm_config_audit: "false",
  npm_config_fund: "false",
};

describe("the README's replay example", () => {
  it("serves the recorded run, `run` reproduces it (exit 1: its recorded error lines), `score` prints the README's row", async () => {
    requireFreshBuild("cli/main.js");
    const [serverBlock, clientBlock] = readmeBlocks();
    expect(serverBlock).toHaveLength(1);
    expect(serverBlock[0]).toMatch(/^npm run replay -- \S+ --port 8765$/);
    expect(clientBlock.map((c) => c.split(" ").slice(0, 3).join(" "))).toEqual(["npx twinscore run", "npx twinscore score"]);
    const port = String(await freePort());
    const out = join(tmp, "replayed");
    const local = (cmd: string) => cmd.replaceAll("8765", port).replaceAll("/tmp/replayed", out);

    // terminal 1
    server = spawn("bash", ["-c", local(serverBlock[0])], { cwd: projectRoot, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let srvOut = "";
    let srvErr = "";
    server.stdout?.on("data", (b: Buffer) => (srvOut += b.toString("utf8")));
    server.stderr?.on("data", (b: Buffer) => (srvErr += b.toString("utf8")));
    // "close": every process of the group holding the pipes (npm, then the server) is gone
    const closed = new Promise<void>((resolve) => server?.on("close", () => resolve()));
    const deadline = Date.now() + 180_000;
    while (!srvOut.includes(`replaying 600 entries at http://127.0.0.1:${port}/v1`)) {
      if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the replay server did not start:\n${srvOut}\n${srvErr}`);
      await new Promise((r) => setTimeout(r, 200));
    }

    // terminal 2 (and first, what a fresh clone's `npx twinscore run --help` prints)
    const help = spawnSync("bash", ["-c", "npx twinscore run --help"], { cwd: projectRoot, env, encoding: "utf8", timeout: 120_000 });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain("Usage: twinscore run [options]");
    expect(help.stdout).toMatch(/\nExit: 0 .*; 1 .*; 2 /);
    const results = clientBlock.map((cmd) =>
      spawnSync("bash", ["-c", local(cmd)], { cwd: projectRoot, env, encoding: "utf8", timeout: 400_000 }),
    );
    const [run, score] = results;

    // Ctrl-C in terminal 1
    process.kill(-(server.pid as number), "SIGINT");
    await closed;
    expect(srvOut).toMatch(/replay stopped: \d+ requests served, 0 differences from the recording/);
    expect(srvErr).toBe("");

    // run: every selected item written, the recorded error lines (and only those) as error lines
    const recordedDir = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
    const producedDir = join(out, "openai_gpt-oss-120b", "multi_turn");
    const recordedErrors = new Set<string>();
    const producedErrors: string[] = [];
    let produced = 0;
    for (const c of ["base", "miss_func", "miss_param"]) {
      const name = `BFCL_v4_multi_turn_${c}_result.json`;
      for (const l of readFileSync(join(recordedDir, name), "utf8").trim().split("\n")) {
        const v = JSON.parse(l) as { id: string; result: unknown };
        if (typeof v.result === "string") recordedErrors.add(v.id);
      }
      for (const l of readFileSync(join(producedDir, name), "utf8").trim().split("\n")) {
        const v = JSON.parse(l) as { id: string; result: unknown };
        produced++;
        if (typeof v.result === "string") producedErrors.push(v.id);
      }
    }
    expect(run.status, run.stderr).toBe(1);
    expect(produced).toBe(374);
    expect(producedErrors.length).toBe(9);
    expect(producedErrors.every((id) => recordedErrors.has(id))).toBe(true);
    expect(run.stderr).toContain("374 items, 374 generated, 0 already in the output, 9 error lines");

    // score: the README's row of the recorded run
    expect(score.status, score.stderr).toBe(0);
    const [, , n, act, hold, decision, hc, dc, pair, mf, mp] = readmeRow("2025-11-12-main", "gpt-oss-120b");
    const row = score.stdout.split("\n").find((l) => l.startsWith("openai_gpt-oss-120b "));
    expect(row, score.stdout).toBeTruthy();
    const cells = (row as string).trim().split(/\s{2,}/);
    expect(cells.slice(1, 10)).toEqual([n, act, hold, decision.split(" ")[0], decision.slice(decision.indexOf("[")), hc, dc, pair, mf]);
    expect(cells[10]).toBe(mp);
  }, 600_000);
});
