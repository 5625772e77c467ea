import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeFileAtomic } from "./files.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-files-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("writeFileAtomic follows links as the shell's > does", () => {
  it("a link to a missing file creates that file and stays a link", () => {
    const dir = join(tmp, "dangling");
    mkdirSync(join(dir, "out"), { recursive: true });
    symlinkSync(join(dir, "out", "items.csv"), join(dir, "link.csv"));
    expect(writeFileAtomic(join(dir, "link.csv"), "a\n").ok).toBe(true);
    expect(lstatSync(join(dir, "link.csv")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "out", "items.csv"), "utf8")).toBe("a\n");
    expect(readdirSync(join(dir, "out"))).toEqual(["items.csv"]); // no temporary file left
  });

  it("a relative target is read from the link's folder, through a chain of links", () => {
    const dir = join(tmp, "chain");
    mkdirSync(join(dir, "a"), { recursive: true });
    mkdirSync(join(dir, "b"));
    symlinkSync("../b/final.txt", join(dir, "a", "second"));
    symlinkSync("a/second", join(dir, "first"));
    expect(writeFileAtomic(join(dir, "first"), "x").ok).toBe(true);
    expect(readFileSync(join(dir, "b", "final.txt"), "utf8")).toBe("x");
    expect(readlinkSync(join(dir, "first"))).toBe("a/second");
    expect(readlinkSync(join(dir, "a", "second"))).toBe("../b/final.txt");
    // and again, now that the target exists: replaced in place, the links kept
    expect(writeFileAtomic(join(dir, "first"), "y").ok).toBe(true);
    expect(readFileSync(join(dir, "b", "final.txt"), "utf8")).toBe("y");
    expect(lstatSync(join(dir, "first")).isSymbolicLink()).toBe(true);
  });

  it("a link into a missing folder and a link loop are one problem each, nothing written", () => {
    const dir = join(tmp, "bad");
    mkdirSync(dir);
    symlinkSync(join(dir, "nowhere", "x.csv"), join(dir, "to-missing-folder"));
    const missing = writeFileAtomic(join(dir, "to-missing-folder"), "x");
    expect(missing.ok).toBe(false);
    if (!missing.ok)
      expect(missing.problems.map((p) => [p.code, p.message, p.file])).toEqual([
        ["file-missing", "output folder does not exist", join(dir, "nowhere")],
      ]);
    symlinkSync("loop-b", join(dir, "loop-a"));
    symlinkSync("loop-a", join(dir, "loop-b"));
    const loop = writeFileAtomic(join(dir, "loop-a"), "x");
    expect(loop.ok).toBe(false);
    if (!loop.ok) expect(loop.problems[0].message).toBe("cannot write (ELOOP: too many levels of symbolic links)");
    expect(readdirSync(dir).sort()).toEqual(["loop-a", "loop-b", "to-missing-folder"]);
  });

  it("a plain path is written through a temporary file and a rename", () => {
    const file = join(tmp, "plain.txt");
    writeFileSync(file, "old");
    expect(writeFileAtomic(file, new Uint8Array([0x6e, 0x65, 0x77])).ok).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(lstatSync(file).isFile()).toBe(true);
  });
});
