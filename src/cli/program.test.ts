import { describe, expect, it } from "vitest";
import { memoryIo } from "./io.js";
import { runCli } from "./program.js";

describe("twinscore CLI", () => {
  it("teaches in --help and exits 0", async () => {
    const io = memoryIo();
    const code = await runCli(["--help"], io);
    expect(code).toBe(0);
    const text = io.out.join("");
    expect(text).toContain("Usage: twinscore");
    expect(text).toContain("always-act and always-ask both score 50");
    expect(text).toContain("Exit codes");
  });
  it("rejects an unknown command with exit 2", async () => {
    const io = memoryIo();
    expect(await runCli(["no-such-command"], io)).toBe(2);
    expect(io.err.join("")).toMatch(/unknown command|too many arguments/);
  });
});
