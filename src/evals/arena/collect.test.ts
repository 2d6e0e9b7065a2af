import { describe, expect, it } from "vitest";
import { collectContestant } from "./collect.js";

const ok = (score: number, accuracy: number) => ({
  offline: {
    outcome: "ok",
    defaulted: false,
    score,
    verdict: { metrics: { accuracy, completeness: 6, clarity: 8 } },
  },
});

describe("collectContestant", () => {
  it("lines results up with the set's questions; errors and gaps are missing, never zero", () => {
    const data = collectContestant(
      ["q1", "q2", "q3", "q4"],
      [
        {
          question_id: "q2",
          status: "SCORED",
          rag_answer: "二〇〇九年 🚇",
          rag_answer_sources: [{ node_id: "n1", content: "c" }],
          judges: ok(0.5, 4),
        },
        {
          question_id: "q1",
          status: "SCORED",
          rag_answer: "2009",
          rag_answer_sources: [],
          judges: ok(0.9, 10),
        },
        {
          question_id: "q3",
          status: "JUDGE_ERROR",
          rag_answer: "x",
          rag_answer_sources: [],
          judges: { offline: { outcome: "judge_error", defaulted: true, score: 0 } },
        },
      ],
      "offline",
    );
    expect(data.answers).toEqual(["2009", "二〇〇九年 🚇", "x", null]);
    expect(Array.from(data.scores)).toEqual([0.9, 0.5, Number.NaN, Number.NaN]);
    // Code points: the emoji (a surrogate pair) counts once.
    expect(Array.from(data.lengths)).toEqual([4, 7, 1, Number.NaN]);
    expect(data.contexts[1]).toEqual([{ node_id: "n1", content: "c" }]);
    expect([data.answered, data.scored]).toEqual([3, 2]);
    expect(data.radar).toEqual({ accuracy: 7, completeness: 6, clarity: 8 });
  });

  it("prefers the rubric judge's dimensions for the radar", () => {
    const data = collectContestant(
      ["q1"],
      [
        {
          question_id: "q1",
          status: "SCORED",
          rag_answer: "a",
          rag_answer_sources: [],
          judges: {
            ...ok(0.2, 2),
            rubric: {
              outcome: "ok",
              score: 0.8,
              verdict: { metrics: { accuracy: 9, completeness: 8, clarity: 7 } },
            },
          },
        },
      ],
      "rubric",
    );
    expect(data.radar).toEqual({ accuracy: 9, completeness: 8, clarity: 7 });
    expect(Array.from(data.scores)).toEqual([0.8]);
  });
});
