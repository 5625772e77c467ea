/**
 * The handler conformance corpus (tools/gen-handler-corpus.py): what every handler class
 * of BFCL's model registry writes, made by BFCL's own handler code, for both supported
 * Gorilla revisions. The committed files are gzip'd text: a header line, then per vector a
 * line of what the handler's parsing and `decode_execute` gave and the result line exactly
 * as `bfcl generate` wrote it.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { projectRoot } from "./shared.js";

/** One driven handler class in one mode. */
export interface CorpusHandler {
  readonly handler: string;
  readonly key: string;
  readonly folder: string;
  readonly isFcModel: boolean;
  readonly loop: "FC" | "prompting";
  readonly family: string;
  readonly decodeOwner: string;
  readonly callSyntax: string | null;
}

/** One synthetic provider response through the handler's parsing and through BFCL's loop. */
export interface CorpusVector {
  readonly handler: string;
  readonly key: string;
  readonly kind: string;
  /** The parsed `model_responses` (or the error the parsing raised). */
  readonly parsed: { model_responses?: unknown; reasoning_content?: unknown; error?: string };
  /** The handler's `decode_execute` on them: call strings, or `Type: message`. */
  readonly decoded: { calls: string[] } | { error: string } | null;
  /** The result line's bytes, as the result file holds them (newline included). */
  readonly line: string;
}

export interface Corpus {
  readonly revision: "v3" | "v4";
  readonly entry: string;
  readonly tools: readonly string[];
  readonly registryKeys: number;
  readonly handlerClasses: number;
  readonly drivenClasses: number;
  readonly notDriven: readonly { handler: string; key: string; reason: string }[];
  readonly onlyErrorLines: readonly string[];
  readonly handlers: readonly CorpusHandler[];
  readonly vectors: readonly CorpusVector[];
}

/** The committed corpus file of a revision. */
export function corpusPath(revision: "v3" | "v4"): string {
  return join(projectRoot, "src", "bfcl", "decode", "testdata", `handler-corpus-${revision}.jsonl.gz`);
}

/** The committed corpus text of a revision (what the generator prints). */
export function corpusText(revision: "v3" | "v4"): string {
  return gunzipSync(readFileSync(corpusPath(revision))).toString("utf8");
}

/** The committed corpus of a revision, read. */
export function loadCorpus(revision: "v3" | "v4"): Corpus {
  const lines = corpusText(revision).split(/(?<=\n)/);
  const head = JSON.parse(lines[0]) as Omit<Corpus, "revision" | "vectors">;
  const vectors: CorpusVector[] = [];
  for (let i = 1; i + 1 < lines.length; i += 2) {
    const meta = JSON.parse(lines[i]) as Omit<CorpusVector, "line">;
    vectors.push({ ...meta, line: lines[i + 1] });
  }
  return { ...head, revision, vectors };
}
