/**
 * The tools `run` sends in FC mode are BFCL's, byte for byte, for every base, miss_func and miss_param entry of
 * the real data, checked against digests of the lists BFCL's own functions build (`tools/gen-tool-vectors.py`).
 * More in this folder's README.md.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadManifest } from "../io/manifest.js";
import type { ChatEndpoint } from "../rollout/loop.js";
import { pyToPlain } from "../rollout/serialize.js";
import { systemPromptFromBfcl } from "../rollout/system-prompt.js";
import { bfclDataDir, projectRoot } from "../testing/shared.js";
import { loadRunEntries, runModel } from "./run/index.js";
import { inProcessRun } from "../testing/run-fixtures.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-tools-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const vectors = JSON.parse(readFileSync(join(projectRoot, "src", "rollout", "testdata", "tool-vectors.json"), "utf8")) as {
  entries: Record<string, [number, string][]>;
};

describe("the tools of every entry, against BFCL's convert_to_tool", () => {
  it("600 entries: the tool list of turn 0 and of every holdout turn equals BFCL's", async () => {
    const manifest = loadManifest();
    if (!manifest.ok) throw new Error("manifest");
    const sent = new Map<string, string[]>();
    const chat: ChatEndpoint = async (req) => {
      const list = sent.get(req.itemId) ?? [];
      list.push(createHash("sha256").update(JSON.stringify(req.tools)).digest("hex"));
      sent.set(req.itemId, list);
      return {
        ok: true,
        message: { role: "assistant", content: "Which one do you mean?" },
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      };
    };
    const doc = await runModel(
      inProcessRun({
        model: "stub/text",
        outDir: join(tmp, "out"),
        items: "all",
        concurrency: 8,
        manifest: manifest.value,
        chat,
      }),
    );
    expect(doc.ok && doc.value.errors).toEqual([]);
    expect(Object.keys(vectors.entries)).toHaveLength(600);
    expect(sent.size).toBe(600);
    let handbacks = 0;
    for (const [id, expected] of Object.entries(vectors.entries)) {
      const got = sent.get(id) ?? [];
      // request k is turn k; the list changes only where BFCL's does
      const changes: [number, string][] = got.flatMap((d, turn) =>
        turn === 0 || d !== got[turn - 1] ? [[turn, d] as [number, string]] : [],
      );
      expect(changes, id).toEqual(expected);
      handbacks += expected.length - 1;
    }
    expect(handbacks).toBe(200); // one holdout turn per miss_func entry
  }, 300_000);
});

const gorilla = process.env.GORILLA_DIR;
describe.skipIf(!gorilla)("against the Gorilla checkout in GORILLA_DIR", () => {
  it("tools/gen-tool-vectors.py writes the committed vectors", () => {
    const out = execFileSync(
      "python3",
      [join(projectRoot, "tools", "gen-tool-vectors.py"), "--bfcl-root", gorilla!, "--data", bfclDataDir()],
      { encoding: "utf8", maxBuffer: 1 << 26 },
    );
    expect(out).toBe(readFileSync(join(projectRoot, "src", "rollout", "testdata", "tool-vectors.json"), "utf8"));
  }, 60_000);

  it("prompting mode's system prompt, read from the checkout, is BFCL's formulate_system_prompt on all 600 entries", () => {
    const file = join(gorilla!, "bfcl_eval", "constants", "default_prompts.py");
    const built = systemPromptFromBfcl(readFileSync(file, "utf8"), file);
    if (!built.ok) throw new Error(JSON.stringify(built.problems));
    const entries = loadRunEntries(bfclDataDir());
    if (!entries.ok) throw new Error("BFCL data");
    const functions: Record<string, unknown> = {};
    const ours: Record<string, string> = {};
    for (const [id, e] of entries.value) {
      functions[id] = pyToPlain([...e.functions]);
      ours[id] = createHash("sha256").update(built.value(e.functions)).digest("hex");
    }
    const bfcl = JSON.parse(
      execFileSync("python3", [join(projectRoot, "tools", "bfcl-system-prompts.py"), gorilla!], {
        input: JSON.stringify(functions),
        encoding: "utf8",
        maxBuffer: 1 << 26,
      }),
    ) as Record<string, string>;
    expect(Object.keys(ours)).toHaveLength(600);
    expect(ours).toEqual(bfcl);
  }, 120_000);
});
