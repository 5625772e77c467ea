/**
 * The tools `run` sends in FC mode are BFCL's, byte for byte, for every base, miss_func
 * and miss_param entry of the real data: the docs of the involved classes in order, the
 * held-back docs taken out, the Python-3 hint on every other description, BFCL's type
 * conversion, and on a holdout turn the held-back docs appended (unhinted) and the list
 * recompiled. The vectors are digests of the lists BFCL's own functions build
 * (`tools/gen-tool-vectors.py`, run against a Gorilla checkout); here a model that answers
 * every request with text (one step per turn, so request k is turn k) records what it was
 * sent.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadManifest } from "../io/manifest.js";
import type { ChatEndpoint } from "../rollout/loop.js";
import { bfclDataDir, projectRoot } from "../testing/shared.js";
import { runModel } from "./run.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-tools-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const vectors = JSON.parse(readFileSync(join(projectRoot, "src", "rollout", "testdata", "tool-vectors.json"), "utf8")) as { entries: Record<string, [number, string][]> };

describe("the tools of every entry, against BFCL's convert_to_tool", () => {
  it("600 entries: the tool list of turn 0 and of every holdout turn equals BFCL's", async () => {
    const manifest = loadManifest();
    if (!manifest.ok) throw new Error("manifest");
    const sent = new Map<string, string[]>();
    const chat: ChatEndpoint = async (req) => {
      const list = sent.get(req.itemId) ?? [];
      list.push(createHash("sha256").update(JSON.stringify(req.tools)).digest("hex"));
      sent.set(req.itemId, list);
      return { ok: true, message: { role: "assistant", content: "Which one do you mean?" }, usage: { prompt_tokens: 1, completion_tokens: 1 } };
    };
    const doc = await runModel({
      endpoint: "in-process",
      model: "stub/text",
      outDir: join(tmp, "out"),
      items: "all",
      mode: "fc",
      temperature: 0.001,
      concurrency: 8,
      timeoutMs: 60_000,
      retries: 0,
      apiKey: null,
      bfclDataDir: bfclDataDir(),
      manifest: manifest.value,
      untilAnchor: false,
      retryErrors: false,
      inject: null,
      now: () => 0,
      chat,
    });
    expect(doc.ok && doc.value.errors).toEqual([]);
    expect(Object.keys(vectors.entries)).toHaveLength(600);
    expect(sent.size).toBe(600);
    let handbacks = 0;
    for (const [id, expected] of Object.entries(vectors.entries)) {
      const got = sent.get(id) ?? [];
      // request k is turn k; the list changes only where BFCL's does
      const changes: [number, string][] = got.flatMap((d, turn) => (turn === 0 || d !== got[turn - 1] ? [[turn, d] as [number, string]] : []));
      expect(changes, id).toEqual(expected);
      handbacks += expected.length - 1;
    }
    expect(handbacks).toBe(200); // one holdout turn per miss_func entry
  }, 300_000);
});
