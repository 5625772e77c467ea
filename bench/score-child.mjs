// Runs `twinscore score` in this process from the built dist/ and prints wall time,
// CPU time and peak RSS (worker threads included) as one JSON line on stderr.
import { runCli } from "../dist/cli/program.js";
import { processIo } from "../dist/cli/io.js";

const t0 = performance.now();
const io = processIo();
const out = [];
io.stdout = (t) => void out.push(t);
const code = await runCli(process.argv.slice(2), io);
const wall = (performance.now() - t0) / 1000;
const ru = process.resourceUsage();
process.stderr.write(
  JSON.stringify({ code, wall, cpu: (ru.userCPUTime + ru.systemCPUTime) / 1e6, maxRssMB: ru.maxRSS / 1024, stdoutBytes: out.join("").length }) + "\n",
);
