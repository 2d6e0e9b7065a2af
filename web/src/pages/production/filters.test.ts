import { describe, expect, it } from "vitest";
import { answerQuery, filtersFromSearch } from "./filters";

describe("answer list filters", () => {
  it("reads known filters from the address and drops the rest", () => {
    expect(
      filtersFromSearch({
        gate: "fail",
        service: " support-bot ",
        model: "",
        range: "24h",
        feedback: "any",
        extra: "x",
      }),
    ).toEqual({ gate: "fail", service: "support-bot", range: "24h", feedback: "any" });
    expect(filtersFromSearch({ gate: "maybe", range: "2y", feedback: "lots" })).toEqual({});
  });

  it("asks the API for a time range counted back from now", () => {
    const now = new Date("2026-11-27T12:00:00Z");
    expect(answerQuery({ gate: "partial", range: "1h", model: "qwen" }, now)).toEqual({
      gate: "partial",
      model: "qwen",
      from: "2026-11-27T11:00:00.000Z",
    });
    expect(answerQuery({ range: "7d" }, now)).toEqual({ from: "2026-11-20T12:00:00.000Z" });
  });
});
