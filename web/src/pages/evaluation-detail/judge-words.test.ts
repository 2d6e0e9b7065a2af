import { describe, expect, it } from "vitest";
import { offline } from "../../../../src/judges/index";
import { wordMessage } from "../../../../src/text/user-messages";
import type { JudgeResult } from "../../api/types";
import { judgeWords } from "./judge-words";

const inChinese = (message: Parameters<typeof wordMessage>[0]) => wordMessage(message, "zh");

/** The offline judge's verdict as the API sends it (JSON), for an answer with a wrong year. */
function offlineResult(): JudgeResult {
  const result = offline({
    question: "In what year was the fire?",
    answer: "The Great Fire happened in 1870.",
    ground_truth: "1869",
  });
  return JSON.parse(JSON.stringify(result)) as JudgeResult;
}

describe("a judge's words", () => {
  it("words the offline judge's reason and suggestion from their codes", () => {
    const words = judgeWords(offlineResult(), inChinese);
    expect(words.reasoning).toBe(
      "启发式评判（未用 LLM）：与参考答案矛盾：回答说 1870，而参考答案说 1869。",
    );
    expect(words.suggestions).toContain("请更正回答：它与参考答案矛盾。");
  });

  it("shows the English reason of a result stored before the codes", () => {
    const stored = offlineResult();
    if (stored.outcome !== "ok") throw new Error("the offline judge always scores");
    delete stored.verdict.reason_message;
    delete stored.verdict.suggestion_message;
    const words = judgeWords(stored, inChinese);
    expect(words.reasoning).toBe(
      "Heuristic (no LLM): contradicts the reference: 1870 where the reference says 1869.",
    );
    expect(words.suggestions).toContain("Correct the answer: it contradicts the reference.");
  });

  it("keeps a model's own reasoning as it wrote it", () => {
    const rubric: JudgeResult = {
      name: "rubric",
      outcome: "ok",
      raw_score: 8,
      score: 0.78,
      passed: true,
      verdict: { reasoning: "准确，引用充分。", suggestions: ["补充年份。"] },
    };
    expect(judgeWords(rubric, inChinese)).toEqual({
      reasoning: "准确，引用充分。",
      suggestions: "补充年份。",
    });
  });
});
