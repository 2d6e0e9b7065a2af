import { describe, expect, it } from "vitest";
import { offline } from "../../../../src/judges/offline/index";
import { wordMessage } from "../../../../src/text/user-messages";
import { reasoningOf } from "./judgment-reasoning";

const english = (m: Parameters<typeof wordMessage>[0]) => wordMessage(m, "en");
const chinese = (m: Parameters<typeof wordMessage>[0]) => wordMessage(m, "zh");

describe("reasoningOf", () => {
  it("reads the reasons a judge wrote, and review's problems", () => {
    expect(
      reasoningOf(
        {
          reasoning: " Matches the passage. ",
          reasonableness: { passed: false, problems: ["The year is not in the passage."] },
          evidence: { passed: true, problems: [] },
          score: 4,
        },
        english,
      ),
    ).toEqual(["Matches the passage.", "The year is not in the passage."]);
  });
  it("gives nothing for a verdict without words", () => {
    expect(reasoningOf(null, english)).toEqual([]);
    expect(reasoningOf({ score: 1 }, english)).toEqual([]);
  });
  it("words the offline judge's reason, analysis and limits in the reader's language", () => {
    const { verdict } = offline({
      question: "In what year was the fire?",
      answer: "The Great Fire happened in 1870.",
      ground_truth: "1869",
    });
    expect(reasoningOf(verdict, english)).toEqual([
      verdict.reason,
      verdict.analysis,
      ...verdict.limits,
    ]);
    const zh = reasoningOf(verdict, chinese);
    expect(zh).toHaveLength(3);
    expect(zh[0]).toBe("启发式评判（未用 LLM）：与参考答案矛盾：回答说 1870，而参考答案说 1869。");
    expect(zh[1]).toMatch(/^拒答 无；/);
    expect(zh[2]).toMatch(/^对照参考答案时/);
    for (const line of zh) expect(line).not.toMatch(/Heuristic|abstention|Against references/);
  });
  it("shows a verdict stored before the codes in its English words", () => {
    expect(
      reasoningOf({ reason: "Heuristic (no LLM): very long.", limits: ["A limit."] }, chinese),
    ).toEqual(["Heuristic (no LLM): very long.", "A limit."]);
  });
});
