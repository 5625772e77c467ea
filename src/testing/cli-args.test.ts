import { describe, expect, it } from "vitest";
import { cliArgs } from "./cli-args.js";

describe("cliArgs", () => {
  it("writes the command, then each flag in the order given, then the rest", () => {
    expect(cliArgs("run", { "bfcl-data": "/d", endpoint: "http://127.0.0.1:1/v1", model: "m", limit: 1, retries: 0 }, "--verbose")).toEqual(
      ["run", "--bfcl-data", "/d", "--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--limit", "1", "--retries", "0", "--verbose"],
    );
  });

  it("writes a true flag alone, leaves false and undefined out, and spreads a list of values", () => {
    expect(cliArgs("", { results: ["a", "b"], "retry-errors": true, continue: false, format: undefined, items: "all" })).toEqual([
      "--results",
      "a",
      "b",
      "--retry-errors",
      "--items",
      "all",
    ]);
  });
});
