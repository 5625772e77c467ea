import { describe, expect, it } from "vitest";
import { diffRequests } from "./diff.js";

describe("diffRequests", () => {
  it("isolates a withheld value (shape of miss_param_122)", () => {
    const parts = diffRequests(
      "proceed with a 'Buy' order for 100 shares of AAPL at a price of $150 each.",
      "proceed with a 'Buy' order for 100 shares at a price of $150 each.",
    );
    expect(parts.filter((p) => p.side === "base").map((p) => p.text.trim())).toEqual(["of AAPL"]);
    expect(parts.filter((p) => p.side === "miss")).toEqual([]);
  });
  it("reports identical texts as one shared run", () => {
    expect(diffRequests("Lock the doors.", "Lock the doors.")).toEqual([{ text: "Lock the doors.", side: "both" }]);
  });
  it("shows rewritten words on both sides", () => {
    const parts = diffRequests("Send it to Bob now", "Send it to someone now");
    expect(parts).toContainEqual({ text: "Bob", side: "base" });
    expect(parts).toContainEqual({ text: "someone", side: "miss" });
  });
});
