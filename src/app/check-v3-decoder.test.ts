/**
 * `check` on the real xLAM run (BFCL v3, raw JSON-text steps) with no `--decoder`: the
 * folder is a key of BFCL's model registry, so its handler's decoder (xlam) is taken from
 * the registry table without a word on stderr, and the documents are the ones
 * `--decoder xlam` gives, but for how the decoder was chosen.
 */
import { describe, expect, it } from "vitest";
import { memoryIo } from "../cli/io.js";
import { runCli } from "../cli/program.js";
import { sharedPath } from "../testing/shared.js";

const xlam = (...parts: string[]) => sharedPath("rollouts", "xlam-v3", ...parts);

type Doc = { files: { decoder: { name: string; source: string; reason: string }; agreement: { verdictAgree: number } }[]; exitCode: number };

async function check(extra: string[]): Promise<{ code: number; err: string; doc: Doc }> {
  const io = memoryIo();
  const code = await runCli(["check", "--results", xlam("result"), "--bfcl-data", sharedPath("bfcl-v3"), "--scores", xlam("score"), "--format", "json", ...extra], io);
  return { code, err: io.err.join(""), doc: JSON.parse(io.out.join("")) as Doc };
}

describe("check on the xLAM v3 run without --decoder", () => {
  it("takes the xlam decoder from BFCL's registry and gives --decoder xlam's verdicts (597 of 600 agree with the stored score files)", async () => {
    const chosen = await check([]);
    const forced = await check(["--decoder", "xlam"]);
    expect(chosen.doc.files.map((f) => f.decoder)).toEqual(
      Array(3).fill({ name: "xlam", source: "registry", reason: "BFCL registry key Salesforce/Llama-xLAM-2-8b-fc-r: SalesforceLlamaHandler, function-calling mode" }),
    );
    expect(forced.doc.files.map((f) => [f.decoder.name, f.decoder.source])).toEqual(Array(3).fill(["xlam", "flag"]));
    // a registry choice is not announced; detection would be
    expect(chosen.err).toBe("");
    const withoutChoice = (d: Doc) => ({ ...d, files: d.files.map((f) => ({ ...f, decoder: f.decoder.name })) });
    expect(withoutChoice(chosen.doc)).toEqual(withoutChoice(forced.doc));
    expect(chosen.doc.files.map((f) => f.agreement.verdictAgree)).toEqual([199, 199, 199]);
    expect([chosen.code, forced.code]).toEqual([1, 1]);
  }, 60_000);
});
