// Runs `twinscore score` in this process from the built dist/ and prints, as one JSON
// line on stderr: wall seconds since the process started (node boot and module loading
// included, what a user waits), CPU seconds and peak RSS (worker threads included).
import { runCli } from "../dist/cli/program.js";
import { processIo } from "../dist/cli/io.js";

const io = processIo();
const out = [];
io.stdout = (t) => void out.push(t);
const code = await runCli(process.argv.slice(2), io);
const ru = process.resourceUsage();
process.stderr.write(
  JSON.stringify({
    code,
    wall: process.uptime(),
    cpu: (ru.userCPUTime + ru.systemCPUTime) / 1e6,
    maxRssMB: ru.maxRSS / 1024,
    stdoutBytes: out.join("").length,
  }) + "\n",
);
