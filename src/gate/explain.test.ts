import { describe, expect, it } from "vitest";
import { evaluateGate } from "./evaluate.js";
import { explainCheck } from "./explain.js";
import { type EvaluatorInput, EvaluatorInputSchema } from "./schema.js";

function input(answer: string, hits: string[], citations: string[] = []): EvaluatorInput {
  return EvaluatorInputSchema.parse({
    conversation_id: "c1",
    message_id: "m1",
    retrieval_record: { id: "r1" },
    retrieval_hits: hits.map((content, i) => ({ node_id: `n${i + 1}`, content })),
    generation_record: { id: "g1" },
    generation_output: { answer, citations: citations.map((node_id) => ({ node_id })) },
  });
}

/** The explanation of each check that did not pass, by check name. */
function explanations(value: EvaluatorInput, lang: "en" | "zh" = "en") {
  const out: Record<string, string | undefined> = {};
  for (const check of evaluateGate(value).checks) {
    if (check.status === "fail" || check.status === "warn")
      out[check.name] = explainCheck(check, lang);
  }
  return out;
}

describe("explainCheck", () => {
  it("is undefined for a check that passed or was skipped", () => {
    expect(explainCheck({ name: "sentence_support", status: "pass", detail: {} })).toBeUndefined();
    expect(
      explainCheck({ name: "sentence_support", status: "skipped", detail: {} }),
    ).toBeUndefined();
  });

  it("names the cited ids that are not among the hits, the first three then a count", () => {
    const value = input(
      "The bridge opened in 1870 [n1].",
      ["The bridge opened in 1870."],
      ["n1", "x1", "x2", "x3", "x4"],
    );
    expect(explanations(value).citation_coverage).toBe(
      "4 of 5 cited passages are not among the retrieved ones: x1, x2, x3 and 1 more.",
    );
    expect(explanations(value, "zh").citation_coverage).toBe(
      "引用的 5 个段落中有 4 个不在检索结果里：x1、x2、x3 等 4 项。",
    );
  });

  it("says a confident answer without evidence should decline, and an empty one is empty", () => {
    expect(explanations(input("The bridge opened in 1870.", [])).honest_abstention).toBe(
      "Nothing was retrieved, yet the answer is confident; it should say it cannot answer.",
    );
    expect(explanations(input("   ", ["x"])).no_empty_answer).toBe("The answer is empty.");
  });

  it("never shows detail objects, whatever a check's detail holds", () => {
    const text = explainCheck({
      name: "sentence_support",
      status: "fail",
      detail: { judged: "?" },
    });
    expect(text).toBe(
      "0 of 0 sentences have no support in the cited passages (needed 0 supported).",
    );
    expect(explainCheck({ name: "new_check", status: "warn", detail: { a: 1 } })).toBe(
      "The new_check check did not pass.",
    );
  });
});
