/**
 * The Chromium the browser tests drive, found the way the project finds everything else: from the npm
 * registry. More in this folder's README.md.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { projectRoot } from "./shared.js";

/** The npm package that carries the browser build. */
export const npmChromiumPackage = "@sparticuz/chromium";

/** Names a system Chromium goes by on the PATH, in the order they are tried. */
const systemNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/**
 * Flags for a headless browser started as root inside a sandbox with no network: no
 * setuid sandbox (root cannot have one), no GPU, and none of the background connections
 * (component updates, sync, QUIC, first-run pings) that a closed network refuses.
 * The fresh user-data-dir is `launchHeadless`'s own.
 */
export const headlessFlags: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Where the located browser came from. */
export type ChromiumSource = "TWINSCORE_CHROMIUM" | "npm" | "system";

export interface LocatedChromium {
  readonly executablePath: string;
  readonly source: ChromiumSource;
  /** What the binary says of itself (`Chromium 143.0.7499.0`). */
  readonly version: string;
  /** Why earlier candidates were passed over (empty when the first one ran). */
  readonly passedOver: readonly string[];
}

export interface LocateOptions {
  /** The environment read for `TWINSCORE_CHROMIUM` and `PATH` (default: the process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** Try the npm package's build (default: true). */
  readonly npm?: boolean;
}

/** `<binary> --version`: the version line, or why the binary does not start (the loader names a missing library). */
function probe(executablePath: string): { version: string } | { error: string } {
  const r = spawnSync(executablePath, ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (r.error) return { error: r.error.message };
  const version = r.stdout.trim();
  if (r.status !== 0 || version === "")
    return { error: `exit ${r.status ?? r.signal}: ${(r.stderr || r.stdout).trim().split("\n")[0] ?? ""}` };
  return { version };
}

/** The package's directory, or undefined when it is not installed. */
function npmPackageDir(): string | undefined {
  const dir = join(projectRoot, "node_modules", ...npmChromiumPackage.split("/"));
  return existsSync(join(dir, "package.json")) ? dir : undefined;
}

/**
 * Unpack the package's build into `node_modules/.cache/twinscore-chromium/<version>` and
 * return the binary. The package unpacks into `os.tmpdir()`; a child process with TMPDIR
 * set to a new staging folder does it there, and the folder is renamed into place only
 * when complete, so a run cut short never leaves a half-written browser to be reused.
 */
function unpackNpmChromium(packageDir: string): string {
  const version = (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string }).version;
  const cacheRoot = join(projectRoot, "node_modules", ".cache", "twinscore-chromium");
  const final = join(cacheRoot, version);
  const binary = join(final, "chromium");
  if (existsSync(binary)) return binary;
  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(join(cacheRoot, `.unpack-${version}-`));
  try {
    const script = `import c from ${JSON.stringify(npmChromiumPackage)}; process.stdout.write(await c.executablePath());`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: projectRoot,
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, TMPDIR: staging },
    });
    const unpacked = r.stdout.trim();
    if (r.status !== 0 || unpacked !== join(staging, "chromium") || !statSync(unpacked).isFile()) {
      throw new Error(`unpacking ${npmChromiumPackage} ${version} failed (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout).trim()}`);
    }
    try {
      renameSync(staging, final);
    } catch (e) {
      // Another run put the same version in place first: use that one.
      if (!existsSync(binary)) throw e;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return binary;
}

/** The first system Chromium on the PATH. */
function systemChromium(path: string): string | undefined {
  for (const dir of path.split(delimiter).filter((d) => d !== "")) {
    for (const name of systemNames) {
      const p = join(dir, name);
      if (existsSync(p) && statSync(p).isFile()) return p;
    }
  }
  return undefined;
}

/** Find a Chromium that starts: `TWINSCORE_CHROMIUM`, else the npm package's build, else a system one. */
export function locateChromium(options: LocateOptions = {}): LocatedChromium {
  const env = options.env ?? process.env;
  const explicit = env.TWINSCORE_CHROMIUM;
  if (explicit !== undefined && explicit !== "") {
    const p = probe(explicit);
    if ("error" in p) throw new Error(`TWINSCORE_CHROMIUM=${explicit} does not start: ${p.error}`);
    return { executablePath: explicit, source: "TWINSCORE_CHROMIUM", version: p.version, passedOver: [] };
  }
  const passedOver: string[] = [];
  if (options.npm ?? true) {
    const dir = npmPackageDir();
    if (dir === undefined) passedOver.push(`${npmChromiumPackage} is not installed (run npm ci)`);
    else if (process.platform !== "linux" || process.arch !== "x64")
      passedOver.push(`${npmChromiumPackage} ships a Linux x64 build only (this is ${process.platform} ${process.arch})`);
    else {
      const binary = unpackNpmChromium(dir);
      const p = probe(binary);
      if ("version" in p) return { executablePath: binary, source: "npm", version: p.version, passedOver };
      passedOver.push(`${npmChromiumPackage}'s build at ${binary} does not start: ${p.error}`);
    }
  }
  const system = systemChromium(env.PATH ?? "");
  if (system === undefined) passedOver.push(`no ${systemNames.join(", ")} on the PATH`);
  else {
    const p = probe(system);
    if ("version" in p) return { executablePath: system, source: "system", version: p.version, passedOver };
    passedOver.push(`${system} does not start: ${p.error}`);
  }
  throw new Error(`no Chromium for the browser tests: ${passedOver.join("; ")}. Set TWINSCORE_CHROMIUM to a Chromium binary.`);
}

export interface HeadlessBrowser {
  readonly chromium: LocatedChromium;
  readonly context: BrowserContext;
  readonly page: Page;
  /** The profile folder, new for this launch. */
  readonly userDataDir: string;
  /** Close the browser and remove its user-data-dir. */
  close(): Promise<void>;
}

/** Start the located Chromium headless with `headlessFlags` and a new, empty user-data-dir. */
export async function launchHeadless(options: {
  viewport: { width: number; height: number };
  colorScheme: "light" | "dark";
}): Promise<HeadlessBrowser> {
  const located = locateChromium();
  const profile = mkdtempSync(join(tmpdir(), "twinscore-chromium-profile-"));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: located.executablePath,
      headless: true,
      args: [...headlessFlags],
      viewport: options.viewport,
      colorScheme: options.colorScheme,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      chromium: located,
      context,
      page,
      userDataDir: profile,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
}
