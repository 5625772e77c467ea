import { describe, expect, test } from "vitest";
import { pyDeepCopy, type DeepCopyMemo } from "./copy.js";
import { PyDict, PySet, PyTuple } from "./containers.js";
import type { PyObject, PyValue } from "./value.js";
import { pyEquals } from "./compare.js";
import { pyRepr } from "./repr.js";
import { jsonLoadsOrThrow } from "./json.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bfclDataDir } from "../testing/shared.js";

/** A node with a parent link, like BFCL's File/Directory. */
class Node implements PyObject {
  readonly pyTypeName = "Node";
  constructor(
    public name: string,
    public parent: Node | null,
    public children: PyValue[] = [],
  ) {}
  pyRepr(): string {
    return `<Node ${this.name}>`;
  }
  pyDeepCopy(memo: DeepCopyMemo): PyValue {
    const copy = new Node(this.name, null);
    memo.set(this, copy);
    copy.parent = this.parent ? (pyDeepCopy(this.parent as unknown as PyValue, memo) as unknown as Node) : null;
    copy.children = pyDeepCopy(this.children, memo);
    return copy;
  }
}

describe("pyDeepCopy is copy.deepcopy", () => {
  test("containers are new all the way down, values equal", () => {
    const inner = [1n, 2.5];
    const v = new PyDict([
      ["a", inner],
      ["t", new PyTuple([inner, "x"])],
      ["s", new PySet([1n, "y"])],
    ]);
    const c = pyDeepCopy(v);
    expect(pyEquals(c, v)).toBe(true);
    expect(c).not.toBe(v);
    (c.get("a") as PyValue[]).push(3n);
    expect(inner.length).toBe(2);
  });
  test("shared references stay shared inside the copy, and cycles terminate", () => {
    const shared = ["x"] as PyValue[];
    const outer: PyValue[] = [shared, shared];
    outer.push(outer);
    const c = pyDeepCopy(outer);
    expect(c[0]).toBe(c[1]);
    expect(c[0]).not.toBe(shared);
    expect(c[2]).toBe(c);
  });
  test("objects copy themselves through pyDeepCopy(memo), keeping parent links inside the copy", () => {
    const root = new Node("root", null);
    const child = new Node("child", root);
    root.children.push(child);
    const c = pyDeepCopy(root as unknown as PyValue) as unknown as Node;
    const cc = c.children[0] as unknown as Node;
    expect(cc).not.toBe(child);
    expect(cc.parent).toBe(c);
  });
  test("real data: every initial_config of BFCL v4 multi_turn_base copies to an equal, independent value", () => {
    const text = readFileSync(join(bfclDataDir(), "BFCL_v4_multi_turn_base.json"), "utf8");
    let n = 0;
    for (const line of text.split("\n").filter(Boolean)) {
      const entry = jsonLoadsOrThrow(line) as PyDict;
      const config = entry.get("initial_config")!;
      const copy = pyDeepCopy(config);
      expect(pyEquals(copy, config)).toBe(true);
      expect(pyRepr(copy)).toBe(pyRepr(config));
      if (config instanceof PyDict && config.size > 0) expect(copy).not.toBe(config);
      n++;
    }
    expect(n).toBe(200);
  });
});
