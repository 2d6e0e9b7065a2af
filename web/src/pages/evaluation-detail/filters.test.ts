import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/client";
import {
  activeFilters,
  filterErrorsOf,
  filtersFromSearch,
  readScoreInput,
  searchFromFilters,
} from "./filters";

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

describe("the filters a person set", () => {
  it("lists the ones set, in the bar's order", () => {
    expect(activeFilters({})).toEqual([]);
    expect(activeFilters({ q: "ferry", min: 0, status: [] })).toEqual(["min", "q"]);
  });

  it("reads numbers and true/false from the router as text where text is wanted", () => {
    expect(filtersFromSearch({ q: 42, type: true })).toEqual({ q: "42", type: "true" });
    expect(filtersFromSearch({ min: 0.9 })).toEqual({ min: 0.9 });
  });
});

describe("a score bound typed into the bar", () => {
  it("takes 0 to 1 or nothing, and says why anything else is refused", () => {
    expect(readScoreInput("")).toEqual({ value: undefined });
    expect(readScoreInput(" 0.75 ")).toEqual({ value: 0.75 });
    expect(readScoreInput("1")).toEqual({ value: 1 });
    expect(readScoreInput("5")).toEqual({ issue: "outOfRange" });
    expect(readScoreInput("-0.1")).toEqual({ issue: "outOfRange" });
    expect(readScoreInput("abc")).toEqual({ issue: "notNumber" });
  });
});

describe("the server's refusal of the filters", () => {
  const refusal = (issues?: { path: string; message: string }[]) =>
    new ApiError(400, "invalid_query", "q: too long", { error: "invalid_query", issues });

  it("goes beside the filters its issues name, by the URL's names", () => {
    expect(
      filterErrorsOf(
        refusal([
          { path: "q", message: "too long" },
          { path: "score_min", message: "at most 1" },
          { path: "offset", message: "not a number" },
        ]),
      ),
    ).toEqual({ q: "too long", min: "at most 1", list: "not a number" });
  });

  it("goes above the list when it names no field, and is nothing for other errors", () => {
    expect(filterErrorsOf(refusal())).toEqual({ list: "q: too long" });
    expect(filterErrorsOf(new Error("offline"))).toEqual({});
    expect(filterErrorsOf(new ApiError(500, "internal", "boom", {}))).toEqual({});
    expect(filterErrorsOf(undefined)).toEqual({});
  });
});
