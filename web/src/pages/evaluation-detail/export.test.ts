import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { EvaluationResult } from "../../api/types";
import { EXPORT_COLUMNS, resultsToCsv } from "./export";

const base: EvaluationResult = {
  id: "r",
  evaluation_id: "e",
  question_id: "q",
  position: 0,
  question_type: "FACTUAL",
  question_text: 'Which, "quoted"\nquestion?',
  ground_truth: "=1+1",
  status: "SCORED",
  attempts: 1,
  latency_ms: 12,
  usage: null,
  rag_answer: "A [n1].",
  rag_answer_sources: null,
  rag_citations: ["n1", "n2"],
  rag_tool_calls: null,
  gate_status: "pass",
  gate: null,
  judges: null,
  score: 0.75,
  passed: true,
  error: null,
};

describe("resultsToCsv", () => {
  it("writes a header and rows that parse back, defusing formulas and keeping errors unscored", () => {
    const csv = resultsToCsv([
      base,
      { ...base, position: 1, status: "BOT_ERROR", score: null, passed: null, error: "bot down" },
    ]);
    const parsed = Papa.parse<string[]>(csv).data;
    expect(parsed[0]).toEqual([...EXPORT_COLUMNS]);
    expect(parsed[1]?.slice(0, 7)).toEqual([
      "1",
      "FACTUAL",
      'Which, "quoted"\nquestion?',
      "'=1+1",
      "SCORED",
      "0.75",
      "true",
    ]);
    expect(parsed[1]?.[9]).toBe("n1 n2");
    expect(parsed[2]?.slice(4, 7)).toEqual(["BOT_ERROR", "", ""]);
    expect(parsed[2]?.[11]).toBe("bot down");
  });
});
