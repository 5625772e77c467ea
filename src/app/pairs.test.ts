/**
 * `buildPairs` called directly with an in-memory host holding the real BFCL v4 data and
 * certification: the real funnel, the manifest it writes byte for byte, and every file
 * it opened under the host's (memory-only) paths.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../testing/shared.js";
import { memoryPackageRoot, memoryRoot, memoryShared, sharedMemoryHost } from "../testing/memory-host.js";
import { buildPairs } from "./pairs.js";

const data = join(memoryShared, "bfcl-v4");
const certification = join(memoryShared, "certification");
const noPython = { TWINSCORE_PYTHON: "/nonexistent/python3" };

describe("buildPairs on an in-memory host", () => {
  it("builds the real funnel from the BFCL v4 data in memory, reading only through the host", async () => {
    const { host, files } = sharedMemoryHost();
    const doc = await buildPairs({ bfclData: data, env: noPython, cwd: memoryRoot, host });
    expect(doc.exitCode).toBe(0);
    expect(doc.problems).toEqual([]);
    expect(doc.built).toBe(true);
    expect(doc.funnel?.scored).toBe(223);
    expect(doc.funnelLine).toMatch(/^400 should-ask items → .* → 365 content-verified pairs \(182 miss_func, 183 miss_param\) → /);
    const status = (s: string) => doc.items.filter((i) => i.status === s).length;
    expect([doc.items.length, status("scored"), status("excluded"), status("dropped")]).toEqual([400, 223, 142, 35]);
    expect(files.reads.length).toBeGreaterThan(10);
    expect(files.reads.every((p) => p.startsWith(memoryRoot + "/"))).toBe(true);
    expect(files.reads).toContain(join(data, "BFCL_v4_multi_turn_base.json"));
    expect(files.reads).toContain(join(memoryPackageRoot, "data", "certification", "rulings.tsv"));
  });

  it("writes the manifest into the host, byte-identical to the committed one", async () => {
    const { host, files } = sharedMemoryHost();
    files.makeFolder("/memory/out");
    const doc = await buildPairs({
      bfclData: data,
      certification,
      writeManifest: "out/manifest.json",
      env: noPython,
      cwd: memoryRoot,
      host,
    });
    expect(doc.exitCode).toBe(0);
    expect(doc.written).toEqual({ file: "/memory/out/manifest.json", pairs: 365, dropped: 35 });
    expect(files.readText("/memory/out/manifest.json")).toBe(readFileSync(join(projectRoot, "data", "manifest.json"), "utf8"));
    expect(files.reads).toContain(join(certification, "rulings.tsv"));
  });

  it("refuses to write over a file it read: one problem, exit 2, the file unchanged", async () => {
    const { host, files } = sharedMemoryHost();
    const target = join(data, "BFCL_v4_multi_turn_base.json");
    const before = files.readText(target);
    const doc = await buildPairs({ bfclData: data, writeManifest: target, env: noPython, cwd: memoryRoot, host });
    expect(doc.problems.map((p) => [p.code, p.file])).toEqual([["output-is-input", target]]);
    expect(doc.exitCode).toBe(2);
    expect(files.readText(target)).toBe(before);
  });

  it("with no data folder anywhere, lists the committed manifest the host holds", async () => {
    const { host } = sharedMemoryHost();
    const doc = await buildPairs({ env: noPython, cwd: memoryRoot, host });
    expect(doc.built).toBe(false);
    expect(doc.readFrom).toContain(join(memoryPackageRoot, "data", "manifest.json"));
    expect(doc.funnel?.scored).toBe(223);
    expect(doc.items).toHaveLength(400);
  });

  it("a data folder the host does not hold is one problem, exit 2", async () => {
    const { host } = sharedMemoryHost();
    const doc = await buildPairs({ bfclData: "/memory/nowhere", env: noPython, cwd: memoryRoot, host });
    expect(doc.problems.map((p) => [p.code, p.file])).toEqual([["file-missing", "/memory/nowhere"]]);
    expect(doc.exitCode).toBe(2);
  });
});
