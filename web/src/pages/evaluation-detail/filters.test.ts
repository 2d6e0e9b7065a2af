import { describe, expect, it } from "vitest";
import { filtersFromSearch, searchFromFilters } from "./filters";

describe("filters and the URL", () => {
  it("round-trips every filter through search values", () => {
    const filters = {
      status: ["SCORED" as const, "BOT_ERROR" as const],
      outcome: "failed" as const,
      gate: "fail",
      type: "FACTUAL",
      min: 0.2,
      max: 0.9,
      q: "metro",
    };
    const search = searchFromFilters(filters);
    expect(search).toEqual({
      status: "SCORED,BOT_ERROR",
      outcome: "failed",
      gate: "fail",
      type: "FACTUAL",
      min: "0.2",
      max: "0.9",
      q: "metro",
    });
    expect(filtersFromSearch(search)).toEqual(filters);
  });

  it("drops malformed values from a hand-edited URL", () => {
    expect(
      filtersFromSearch({ status: "scored,NOPE", outcome: "maybe", min: "2", max: "x", q: "  " }),
    ).toEqual({ status: ["SCORED"] });
    // The router may hand numbers over already parsed.
    expect(filtersFromSearch({ min: 0.5 })).toEqual({ min: 0.5 });
  });

  it("writes nothing for no filters", () => {
    expect(searchFromFilters({})).toEqual({});
  });
});
