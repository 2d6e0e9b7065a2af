import { describe, expect, it } from "vitest";
import type { EvaluationResult } from "../../api/types";
import { filtersFromSearch, matchesFilters, searchFromFilters } from "./filters";

const result = (over: Partial<EvaluationResult>): EvaluationResult => ({
  id: "r",
  evaluation_id: "e",
  question_id: "q",
  position: 0,
  question_type: "FACTUAL",
  question_text: "When did Line 1 open?",
  ground_truth: "2009",
  status: "SCORED",
  attempts: 1,
  latency_ms: 10,
  usage: null,
  rag_answer: "In 2009 [n1].",
  rag_answer_sources: [],
  rag_citations: ["n1"],
  rag_tool_calls: null,
  gate_status: "pass",
  gate: null,
  judges: null,
  score: 0.8,
  passed: true,
  error: null,
  ...over,
});

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

describe("matchesFilters", () => {
  it("never matches an unscored result to a score range, even from 0", () => {
    const error = result({ status: "BOT_ERROR", score: null, passed: null });
    expect(matchesFilters(error, { min: 0 })).toBe(false);
    expect(matchesFilters(error, { status: ["BOT_ERROR"] })).toBe(true);
  });

  it("applies outcome, gate, type and text search together", () => {
    const failed = result({ passed: false, gate_status: "fail", question_type: "INFERENTIAL" });
    expect(matchesFilters(failed, { outcome: "failed", gate: "fail", type: "INFERENTIAL" })).toBe(
      true,
    );
    expect(matchesFilters(failed, { outcome: "passed" })).toBe(false);
    expect(matchesFilters(failed, { q: "LINE 1" })).toBe(true);
    expect(matchesFilters(failed, { q: "tram" })).toBe(false);
  });
});
