// Peak memory of `twinscore report` on extreme texts: a copy of a real run (gpt-oss-120b on
// 2025-11-12-main, ../shared) whose miss_param file has, at the start of every turn of every
// line, a text step of CHARS characters (default 3,000,000: about 2.5 GB of miss_param
// file). Generated under a temporary folder, never committed; the built CLI's report runs
// in a child process under /usr/bin/time -v, and its wall time, peak RSS, exit code, page
// size and the report's cut marks are printed (CPU: user + system, the figure to compare under load).
// Usage: npm run build && node bench/report-long-texts.mjs [CHARS] [LINES]
//   (BFCL_DATA=DIR adds --bfcl-data DIR: the report then also keeps the twins' result texts for BFCL's checker)
//   (LINES: only the first LINES miss_param lines get the texts; default all; TWINSCORE_CLI=path/to/main.js for another build)
import { spawnSync } from "node:child_process";
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = process.env.TWINSCORE_CLI ?? join(root, "dist", "cli", "main.js");
const shared = process.env.TWINSCORE_SHARED ?? resolve(root, "..", "shared");
const chars = Number(process.argv[2] ?? 3_000_000);
const maxLines = process.argv[3] === undefined ? Number.POSITIVE_INFINITY : Number(process.argv[3]);
const source = join(shared, "rollouts", "gpt-oss", "2025-11-12-main", "result", "openai_gpt-oss-120b", "multi_turn");

const tmp = mkdtempSync(join(tmpdir(), "twinscore-long-texts-"));
try {
  const folder = join(tmp, "run", "result", "long_texts", "multi_turn");
  mkdirSync(folder, { recursive: true });
  for (const c of ["base", "miss_func"])
    copyFileSync(join(source, `BFCL_v4_multi_turn_${c}_result.json`), join(folder, `BFCL_v4_multi_turn_${c}_result.json`));
  // the long text written once per turn, straight from one buffer: the generator itself stays small
  const text = Buffer.from(JSON.stringify("y".repeat(chars)));
  const out = openSync(join(folder, "BFCL_v4_multi_turn_miss_param_result.json"), "w");
  let n = 0;
  let turns = 0;
  for (const line of readFileSync(join(source, "BFCL_v4_multi_turn_miss_param_result.json"), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const v = JSON.parse(line);
    if (n++ >= maxLines || !Array.isArray(v.result)) {
      writeSync(out, `${line}\n`);
      continue;
    }
    // "result": [[TEXT, step, …], …]: the line's own steps after the text on every turn
    const result = v.result;
    delete v.result;
    writeSync(out, `{"id": ${JSON.stringify(v.id)}, "result": [`);
    result.forEach((turn, i) => {
      writeSync(out, `${i > 0 ? ", " : ""}[`);
      writeSync(out, text);
      for (const step of Array.isArray(turn) ? turn : [turn]) writeSync(out, `, ${JSON.stringify(step)}`);
      writeSync(out, "]");
      turns++;
    });
    writeSync(out, "]");
    delete v.id;
    const rest = JSON.stringify(v).slice(1);
    writeSync(out, rest === "}" ? "}\n" : `, ${rest}\n`);
  }
  closeSync(out);
  const bytes = statSync(join(folder, "BFCL_v4_multi_turn_miss_param_result.json")).size;
  console.log(`miss_param file: ${(bytes / 1e9).toFixed(2)} GB, ${turns} turns with a text of ${chars} characters`);

  const page = join(tmp, "report.html");
  const t0 = Date.now();
  const run = spawnSync(
    "/usr/bin/time",
    [
      "-v",
      process.execPath,
      cli,
      "report",
      "--results",
      join(tmp, "run"),
      "--bootstrap",
      "0",
      "--out",
      page,
      ...(process.env.BFCL_DATA ? ["--bfcl-data", process.env.BFCL_DATA] : []),
    ],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const seconds = (Date.now() - t0) / 1000;
  const peak = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1] ?? NaN);
  const exit = Number(/Exit status: (\d+)/.exec(run.stderr)?.[1] ?? NaN);
  const cpu = ["User", "System"].reduce(
    (s, k) => s + Number(new RegExp(`${k} time \\(seconds\\): ([\\d.]+)`).exec(run.stderr)?.[1] ?? NaN),
    0,
  );
  const html = (() => {
    try {
      return readFileSync(page, "utf8");
    } catch {
      return null;
    }
  })();
  const marks = html === null ? 0 : html.split("[cut by the report:").length - 1;
  console.log(
    `report: exit ${exit}, ${seconds.toFixed(1)} s (CPU ${cpu.toFixed(1)} s), peak RSS ${(peak / 1024).toFixed(0)} MB, page ${html === null ? "not written" : `${(html.length / 1e6).toFixed(1)} MB, ${marks} texts cut and marked`}`,
  );
  const messages = run.stderr.split("\n").filter((l) => /^(\S[^:]*: )?(error|warning): /.test(l));
  if (messages.length > 0) console.log(messages.slice(0, 5).join("\n"));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
