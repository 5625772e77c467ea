// `npm run build:testing`: the test endpoints the benches and `npm run replay` load
// (src/testing/*.ts and what they import) as JavaScript in dist-testing/, one file per
// module laid out as under src/ (dist-testing/testing/replay.js, …). Transpiled by
// rolldown, not tsc: tsc checked the types of every module again and took about 10 s of
// CPU, a quarter of the README replay example's test; `npm test` type-checks them anyway.
import { rmSync } from "node:fs";
import { build } from "rolldown";

const entries = ["replay", "policies", "stub-servers", "interactive", "hostile-servers", "trial-policy"];

rmSync("dist-testing", { recursive: true, force: true });
await build({
  input: entries.map((name) => `src/testing/${name}.ts`),
  platform: "node",
  // the package's dependencies stay imports, as in the compiled dist/
  external: (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0"),
  logLevel: "warn",
  output: { dir: "dist-testing", format: "esm", preserveModules: true, preserveModulesRoot: "src" },
});
