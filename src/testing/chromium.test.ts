/**
 * Where the browser tests' Chromium comes from: the npm package's build on Linux x64, a
 * system one on the PATH otherwise, and an error naming what was tried when none starts.
 * The system candidates are small scripts standing in for a browser binary.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { headlessFlags, launchHeadless, locateChromium, npmChromiumPackage } from "./chromium.js";
import { projectRoot } from "./shared.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-chromium-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The command lines (arguments) of the running processes whose arguments include `needle` (Linux's /proc). */
function processesWith(needle: string): string[][] {
  const lines: string[][] = [];
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue; // the process ended meanwhile
    }
    if (args.includes(needle)) lines.push(args);
  }
  return lines;
}

/** A folder holding one executable script named `name`. */
function binDir(dirName: string, name: string, script: string): string {
  const dir = join(tmp, dirName);
  mkdirSync(dir);
  writeFileSync(join(dir, name), `#!/bin/sh\n${script}\n`);
  chmodSync(join(dir, name), 0o755);
  return dir;
}

describe("locateChromium", () => {
  it("takes the npm package's build on Linux x64, and says why not elsewhere", () => {
    const pkg = JSON.parse(readFileSync(join(projectRoot, "node_modules", ...npmChromiumPackage.split("/"), "package.json"), "utf8")) as {
      version: string;
    };
    const empty = join(tmp, "empty-path");
    mkdirSync(empty);
    if (process.platform === "linux" && process.arch === "x64") {
      const found = locateChromium({ env: { PATH: empty } });
      expect(found.source).toBe("npm");
      expect(found.executablePath).toBe(join(projectRoot, "node_modules", ".cache", "twinscore-chromium", pkg.version, "chromium"));
      // The package's major version is the Chromium major it ships.
      expect(found.version).toMatch(new RegExp(`^Chromium ${pkg.version.split(".")[0]}\\.`));
      expect(found.passedOver).toEqual([]);
    } else {
      expect(() => locateChromium({ env: { PATH: empty } })).toThrow(/ships a Linux x64 build only/);
    }
  }, 180_000);

  it("falls back to a system chromium on the PATH", () => {
    const dir = binDir("system", "chromium", 'echo "Chromium 1.2.3 built here"');
    const found = locateChromium({ env: { PATH: `${join(tmp, "nowhere")}:${dir}` }, npm: false });
    expect(found).toEqual({
      executablePath: join(dir, "chromium"),
      source: "system",
      version: "Chromium 1.2.3 built here",
      passedOver: [],
    });
  });

  it("names every candidate and why it was passed over when none starts", () => {
    const dir = binDir(
      "broken",
      "chromium-browser",
      'echo "chromium: error while loading shared libraries: libnss3.so: cannot open shared object file" >&2; exit 127',
    );
    expect(() => locateChromium({ env: { PATH: dir }, npm: false })).toThrow(
      `no Chromium for the browser tests: ${join(dir, "chromium-browser")} does not start: exit 127: chromium: error while loading shared libraries: libnss3.so: cannot open shared object file. Set TWINSCORE_CHROMIUM to a Chromium binary.`,
    );
    expect(() => locateChromium({ env: { PATH: join(tmp, "nowhere") }, npm: false })).toThrow(
      "no Chromium for the browser tests: no chromium, chromium-browser, google-chrome, google-chrome-stable on the PATH. Set TWINSCORE_CHROMIUM to a Chromium binary.",
    );
  });

  it("uses TWINSCORE_CHROMIUM as given, and fails when it does not start", () => {
    const dir = binDir("explicit", "my-chrome", 'echo "Chromium 9.9.9"');
    expect(locateChromium({ env: { TWINSCORE_CHROMIUM: join(dir, "my-chrome"), PATH: "" } })).toEqual({
      executablePath: join(dir, "my-chrome"),
      source: "TWINSCORE_CHROMIUM",
      version: "Chromium 9.9.9",
      passedOver: [],
    });
    expect(() => locateChromium({ env: { TWINSCORE_CHROMIUM: join(tmp, "missing-chrome"), PATH: "" } })).toThrow(
      `TWINSCORE_CHROMIUM=${join(tmp, "missing-chrome")} does not start: spawnSync ${join(tmp, "missing-chrome")} ENOENT`,
    );
  });
});

describe("launchHeadless", () => {
  it("starts the located Chromium with the headless flags and a fresh profile, renders a page, and removes the profile on close", async () => {
    const browser = await launchHeadless({ viewport: { width: 640, height: 480 }, colorScheme: "dark" });
    try {
      expect(existsSync(browser.userDataDir)).toBe(true);
      const [browserProcess, ...others] = processesWith(`--user-data-dir=${browser.userDataDir}`);
      expect(others).toEqual([]);
      expect(browserProcess[0]).toBe(browser.chromium.executablePath);
      for (const flag of headlessFlags) expect(browserProcess, flag).toContain(flag);
      await browser.page.setContent(`<span id="t" style="font: 20px sans-serif">twin pairs</span>`);
      expect(await browser.page.textContent("#t")).toBe("twin pairs");
      // The text is laid out with a real font: it has a width.
      expect(await browser.page.evaluate(`document.getElementById("t").getBoundingClientRect().width`)).toBeGreaterThan(50);
      expect(await browser.page.evaluate(`matchMedia("(prefers-color-scheme: dark)").matches`)).toBe(true);
    } finally {
      await browser.close();
    }
    expect(existsSync(browser.userDataDir)).toBe(false);
  }, 120_000);
});
