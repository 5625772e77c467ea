/**
 * Requests of the wrong shape through the public library entry (`src/index.ts`), as a
 * JavaScript caller can send them: no request, a string where a list belongs, a number
 * where a path belongs, a list where a string belongs. `buildReport`, `compareArms`,
 * `judgeHeldBack`, `readRun`, `buildPairs`, `checkRuns` and `runCommand` answer each with their document — one `bad-argument`
 * problem per wrong field, exit code 2 where the document has one — never a TypeError,
 * and read nothing. A request of the right shape still reads the real run.
 */
import { describe, expect, it } from "vitest";
import { buildPairs, buildReport, checkRuns, compareArms, judgeHeldBack, readRun, runCommand } from "./index.js";
import { rolloutRunDir } from "./testing/shared.js";

const realRun = rolloutRunDir("2025-11-12-main");
const bad = (message: string) => ({ code: "bad-argument", severity: "error", message });
// what a JavaScript caller may pass: the types say otherwise
const loose = <T>(v: unknown) => v as T;

describe("buildReport", () => {
  it("no request, a string for results, a number for out, a string for models, a wrong bootstrap: the problems, exit 2, no page", async () => {
    for (const [req, problems] of [
      [undefined, [bad('the request must be an object, e.g. { results: ["runs/main"] }, not undefined')]],
      [null, [bad('the request must be an object, e.g. { results: ["runs/main"] }, not null')]],
      [{}, [bad("results is required: a list of non-empty strings (string[])")]],
      [{ results: "runs" }, [bad('results must be a list of non-empty strings (string[]), not a string ("runs"); give ["runs"]')]],
      [
        { results: [realRun, 1] },
        [bad("results must be a list of non-empty strings (string[]), not a list with an entry that is not a non-empty string")],
      ],
      [
        { results: [realRun], out: 5, models: "openai_gpt-oss-120b", bootstrap: "none", strict: "yes" },
        [
          bad('models must be a list of non-empty strings (string[]), not a string ("openai_gpt-oss-120b"); give ["openai_gpt-oss-120b"]'),
          bad("out must be a string, not number 5"),
          bad('bootstrap must be an object { resamples?: number, seed?: number }, not a string ("none")'),
          bad('strict must be true or false, not a string ("yes")'),
        ],
      ],
      [{ results: [realRun], cwd: 3 }, [bad("cwd must be a string, not number 3")]],
    ] as const) {
      const doc = await buildReport(loose(req));
      expect(doc.problems, JSON.stringify(req)).toEqual(problems);
      expect(doc.exitCode).toBe(2);
      expect(doc.html).toBeNull();
      expect(doc.file).toBeNull();
    }
  });
});

describe("buildReport's trials and names", () => {
  it("a string for trialsOf, a pair set or a reading it does not know, a string for countLogin: the problems, exit 2, no page", async () => {
    for (const [req, problems] of [
      [
        { results: [], trialsOf: "runs" },
        [bad('trialsOf must be a list of non-empty strings (string[]), not a string ("runs"); give ["runs"]')],
      ],
      [{ results: [realRun], countLogin: "yes" }, [bad('countLogin must be true or false, not a string ("yes")')]],
      [{ results: [realRun], pairSet: "most" }, [bad('pairSet must be one of certified, uncertified, all, not "most"')]],
      [{ results: [realRun], reading: "loose" }, [bad('reading must be one of decided, release, not "loose"')]],
    ] as const) {
      const doc = await buildReport(loose(req));
      expect(doc.problems, JSON.stringify(req)).toEqual(problems);
      expect(doc.exitCode).toBe(2);
      expect(doc.html).toBeNull();
    }
  });
});

describe("buildPairs and checkRuns", () => {
  it("a list or a number where a folder goes: the problems, exit 2, nothing read", async () => {
    const pairs = await buildPairs(loose({ bfclData: ["bfcl-v4"], strict: 1 }));
    expect(pairs.problems).toEqual([bad("bfclData must be a string, not a list"), bad("strict must be true or false, not number 1")]);
    expect(pairs.exitCode).toBe(2);
    expect(pairs.built).toBe(false);
    const check = await checkRuns(loose({ results: [realRun], bfclData: 5, threads: "2" }));
    expect(check.problems).toEqual([
      bad("results must be a string, not a list"),
      bad("bfclData must be a string, not number 5"),
      bad('threads must be a number, not a string ("2")'),
    ]);
    expect(check.exitCode).toBe(2);
    expect(check.files).toEqual([]);
  });
});

describe("compareArms", () => {
  it("no request, a number and a list for the arms, a string for models: the problems, exit 2", async () => {
    expect((await compareArms(loose(undefined))).problems).toEqual([
      bad('the request must be an object, e.g. { a: "runs/main", b: "runs/fixes" }, not undefined'),
    ]);
    const doc = await compareArms(loose({ a: 5, b: [realRun], models: "m" }));
    expect(doc.problems).toEqual([
      bad("a must be a string, not number 5"),
      bad("b must be a string, not a list"),
      bad('models must be a list of non-empty strings (string[]), not a string ("m"); give ["m"]'),
    ]);
    expect(doc.exitCode).toBe(2);
    expect(doc.models).toEqual([]);
  });
});

describe("judgeHeldBack", () => {
  it("no request, a string for results, a string for concurrency, a function that is not one: the problems, exit 2, nothing judged", async () => {
    expect((await judgeHeldBack(loose(undefined))).problems).toHaveLength(1);
    const doc = await judgeHeldBack(loose({ results: realRun, dryRun: true, concurrency: "4", onProgress: "log" }));
    expect(doc.problems).toEqual([
      bad(
        `results must be a list of non-empty strings (string[]), not a string (${JSON.stringify(realRun.length > 60 ? `${realRun.slice(0, 60)}…` : realRun)}); give [${JSON.stringify(realRun)}]`,
      ),
      bad('concurrency must be a number, not a string ("4")'),
      bad('onProgress must be a function, not a string ("log")'),
    ]);
    expect(doc.exitCode).toBe(2);
    expect(doc.dryRun).toBeNull();
  });
});

describe("readRun", () => {
  it("no request, a string for categories, a number for models: the problems, no model read", async () => {
    expect(await readRun(loose(undefined))).toEqual({
      models: [],
      problems: [bad('the request must be an object, e.g. { results: ["runs/main"] }, not undefined')],
    });
    const doc = await readRun(loose({ results: [realRun], categories: "base", models: 3 }));
    expect(doc).toEqual({
      models: [],
      problems: [
        bad("models must be a list of non-empty strings (string[]), not number 3"),
        bad('categories must be a list of non-empty strings (string[]), not a string ("base"); give ["base"]'),
      ],
    });
  });

  it("a request of the right shape reads the real run", async () => {
    const doc = await readRun({ results: [realRun], models: ["openai_gpt-oss-120b"], categories: ["miss_param"] });
    expect(doc.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(doc.models.map((m) => m.model)).toEqual(["openai_gpt-oss-120b"]);
    expect(doc.models[0].rollouts.size).toBe(200);
  });
});

describe("runCommand", () => {
  it("no request, missing endpoint, model and out, a number, a list and a string where they go: the problems, exit 2, nothing sent or written", async () => {
    const example = '{ endpoint: "http://127.0.0.1:8000/v1", model: "my-model", out: "runs/mine" }';
    expect((await runCommand(loose(undefined))).problems).toEqual([bad(`the request must be an object, e.g. ${example}, not undefined`)]);
    expect((await runCommand(loose({}))).problems).toEqual([
      bad("endpoint is required: a string"),
      bad("model is required: a string"),
      bad("out is required: a string"),
    ]);
    const doc = await runCommand(loose({ endpoint: 5, model: ["m"], out: "/nonexistent/out", ids: "multi_turn_base_0", dryRun: "yes" }));
    expect(doc.problems).toEqual([
      bad("endpoint must be a string, not number 5"),
      bad("model must be a string, not a list"),
      bad('dryRun must be true or false, not a string ("yes")'),
      bad('ids must be a list of non-empty strings (string[]), not a string ("multi_turn_base_0"); give ["multi_turn_base_0"]'),
    ]);
    expect(doc.exitCode).toBe(2);
    expect(doc.requests).toBe(0);
  });
});
