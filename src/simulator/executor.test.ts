import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PyDict } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { pyAdd, pyMul, pyTrueDiv } from "../python/arithmetic.js";
import type { PyValue } from "../python/value.js";
import {
  bindArguments,
  blockedCheckName,
  EvaluatorProcess,
  executeCalls,
  instanceName,
  resultToString,
  rewriteMethodCalls,
  type ExecutionContext,
} from "./executor.js";
import type { ApiInstance, MethodSpec } from "./types.js";

/** A tiny class mirroring the Python `Counter` the vectors were generated from (testdata/executor-vectors.json). */
function newCounter(): ApiInstance {
  let total: PyValue = 0n;
  const log: PyValue[] = [];
  const m = (params: MethodSpec["params"], invoke: MethodSpec["invoke"]): MethodSpec => ({ params, invoke });
  return {
    className: "GorillaFileSystem",
    loadScenario(config: PyDict) {
      total = config.get("total") ?? 0n;
    },
    publicState: () => [
      ["total", total],
      ["log", log],
    ],
    methods: new Map([
      [
        "add",
        m([{ name: "x" }, { name: "y", default: () => 1n }], ([x, y]) => {
          try {
            total = pyAdd(total, pyMul(x, y));
          } catch (e) {
            if (e instanceof PyException && e.pyType === "TypeError")
              throw new PyException("TypeError", e.pyMessage.replace("for +:", "for +=:"));
            throw e;
          }
          return new PyDict([["total", total]]);
        }),
      ],
      ["show", m([], () => log)],
      [
        "note",
        m([{ name: "content" }, { name: "file_name", default: () => null }], ([c]) => {
          log.push(c);
          return null;
        }),
      ],
      [
        "fail",
        m([{ name: "key" }], ([k]) => {
          throw new PyException("KeyError", typeof k === "string" ? `'${k}'` : String(k));
        }),
      ],
      ["ratio", m([{ name: "a" }, { name: "b" }], ([a, b]) => pyTrueDiv(a, b))],
    ]),
  };
}

const vectors = JSON.parse(readFileSync(new URL("./testdata/executor-vectors.json", import.meta.url), "utf8")) as {
  vectors: { call: string; result: string }[];
};

function counterProcess() {
  return new EvaluatorProcess((cls) => (cls === "Counter" ? { ...newCounter(), className: "Counter" as never } : undefined));
}

const ctx: ExecutionContext = {
  initialConfig: new PyDict([["Counter", new PyDict([["total", 5n]])]]),
  involvedClasses: ["Counter"],
  modelName: "m",
  entryId: "e.1",
  longContext: false,
  evalRun: true,
};

describe("executor against CPython vectors (fake Counter class)", () => {
  it("reproduces every result string of the 38 vector calls, run in order on one instance", () => {
    const process = counterProcess();
    for (const v of vectors.vectors) {
      const [got] = executeCalls(process, [v.call], ctx).results;
      expect(got, v.call).toBe(v.result);
    }
    expect(vectors.vectors.length).toBeGreaterThan(30);
  });

  it("names instances like BFCL (model, _eval, id, class; -./: become _)", () => {
    expect(instanceName("openai_gpt-oss-120b_eval", "multi_turn_base_0", "TravelAPI")).toBe(
      "openai_gpt_oss_120b_eval_multi_turn_base_0_TravelAPI_instance",
    );
    const process = counterProcess();
    executeCalls(process, ["add(x=1)"], ctx);
    executeCalls(process, ["add(x=1)"], { ...ctx, modelName: "m_ground_truth" });
    expect([...process.instances.keys()]).toEqual(["m_eval_e_1_Counter_instance", "m_ground_truth_eval_e_1_Counter_instance"]);
  });

  it("keeps model and reference instances apart and persistent across batches", () => {
    const process = counterProcess();
    expect(executeCalls(process, ["add(x=1)"], ctx).results).toEqual(['{"total": 6}']);
    expect(executeCalls(process, ["add(x=1)"], ctx).results).toEqual(['{"total": 7}']);
    expect(executeCalls(process, ["add(x=1)"], { ...ctx, modelName: "other" }).results).toEqual(['{"total": 6}']);
  });
});

describe("which instance a method name goes to (BFCL's method → instance map: the last involved class with the method wins)", () => {
  // two Counter-like classes that both have `add`; each reports which class ran it
  const twoClasses = () =>
    new EvaluatorProcess((cls) => {
      if (cls !== "A" && cls !== "B") return undefined;
      const base = newCounter();
      const methods = new Map(base.methods);
      methods.set("add", { params: [{ name: "x" }], invoke: () => cls });
      if (cls === "B") methods.set("only_b", { params: [], invoke: () => "B" });
      return { ...base, className: cls as never, methods };
    });
  const config = new PyDict([
    ["A", new PyDict()],
    ["B", new PyDict()],
  ]);
  const run = (classes: string[], calls: string[]) =>
    executeCalls(twoClasses(), calls, { ...ctx, initialConfig: config, involvedClasses: classes }).results;

  it("takes the later class, with repeats counted where they stand (A, B, A: A)", () => {
    expect(run(["A", "B"], ["add(x=1)"])).toEqual(["B"]);
    expect(run(["B", "A"], ["add(x=1)"])).toEqual(["A"]);
    expect(run(["A", "B", "A"], ["add(x=1)", "only_b()"])).toEqual(["A", "B"]);
  });
  it("resolves the same way on the rewritten path (a call with a second parenthesis)", () => {
    expect(run(["A", "B", "A"], ["add(x=(1))"])).toEqual(["A"]);
    expect(run(["A", "B"], ["add(x=(1))"])).toEqual(["B"]);
  });
});

describe("rewriting and the block list", () => {
  const owner = new Map([["ls", "I"]]);
  it("prefixes method names anywhere, also inside strings, and swallows spaces before ( for every identifier", () => {
    expect(rewriteMethodCalls("echo(content='run ls (now) and foo  (x)')", owner)).toBe("echo(content='run I.ls(now) and foo(x)')");
    expect(rewriteMethodCalls("ls(a=True)", owner)).toBe("I.ls(a=True)");
    expect(rewriteMethodCalls("éls(a=True)", owner)).toBe("éls(a=True)");
    expect(rewriteMethodCalls("no call here", owner)).toBe("no call here");
  });
  it("checks the block list on the text before ( and after the first .", () => {
    expect(blockedCheckName("I.rm(file_name='x')")).toBe("rm");
    expect(blockedCheckName("os.remove(x)")).toBe("remove");
    expect(blockedCheckName("exit")).toBe("exit");
    expect(executeCalls(counterProcess(), ["quit()"], ctx).results).toEqual(["Error during execution: Function call quit is not allowed."]);
  });
});

describe("argument binding (CPython's messages, self counted)", () => {
  const spec: MethodSpec = { params: [{ name: "a" }, { name: "b" }, { name: "c", default: () => 0n }], invoke: () => null };
  const bind = (pos: PyValue[], kw: [string, PyValue][] = []) => {
    try {
      return bindArguments("C.f", spec, pos, kw);
    } catch (e) {
      return (e as PyException).pyMessage;
    }
  };
  it("binds positional then keyword and fills defaults", () => {
    expect(bind([1n], [["b", 2n]])).toEqual([1n, 2n, 0n]);
  });
  it("reports the first problem in CPython's order", () => {
    expect(bind([])).toBe("C.f() missing 2 required positional arguments: 'a' and 'b'");
    expect(bind([1n, 2n, 3n, 4n])).toBe("C.f() takes from 3 to 4 positional arguments but 5 were given");
    expect(bind([1n, 2n, 3n, 4n], [["x", 1n]])).toBe("C.f() got an unexpected keyword argument 'x'");
    expect(bind([1n, 2n, 3n, 4n], [["a", 1n]])).toBe("C.f() got multiple values for argument 'a'");
    expect(bindArguments.length).toBe(4);
  });
  it("lists three missing names with an Oxford comma", () => {
    const three: MethodSpec = { params: [{ name: "a" }, { name: "b" }, { name: "c" }], invoke: () => null };
    expect(() => bindArguments("C.h", three, [], [])).toThrow("C.h() missing 3 required positional arguments: 'a', 'b', and 'c'");
  });
});

describe("result strings", () => {
  it("dicts become json.dumps, falling back to str; other values str", () => {
    expect(resultToString(new PyDict([["a", 1.0]]))).toBe('{"a": 1.0}');
    expect(resultToString(null)).toBe("None");
    expect(resultToString(["x", 2n])).toBe("['x', 2]");
    expect(resultToString("plain")).toBe("plain");
  });
  it("never throws on hostile input: deep nesting, huge literals", () => {
    const process = counterProcess();
    const deep = "note(content=" + "[".repeat(5000) + "]".repeat(5000) + ")";
    expect(executeCalls(process, [deep], ctx).results[0]).toMatch(/^Error during execution: /);
    const huge = "note(content='" + "x".repeat(2_000_000) + "')";
    expect(executeCalls(process, [huge], ctx).results[0]).toBe("None");
    expect(executeCalls(process, ["note(content='a' * 10**12)"], ctx).results[0]).toMatch(/^Error during execution: /);
  });
});
