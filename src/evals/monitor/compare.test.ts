import { describe, expect, it } from "vitest";
import type { CompareColumns } from "../../store/index.js";
import { type CompareSide, changeOf, compareRows, questionKey } from "./compare.js";

const side = (over: Partial<CompareSide>): CompareSide => ({
  result_id: "r",
  question_id: "q",
  position: 0,
  status: "SCORED",
  score: 0.5,
  passed: false,
  gate_status: "pass",
  ...over,
});

const row = (over: Partial<CompareColumns>): CompareColumns => ({
  id: `r-${over.question_id ?? "q"}`,
  question_id: "q",
  position: 0,
  question_type: "FACTUAL",
  question_text: "q?",
  ground_truth: "",
  ground_truths: null,
  status: "SCORED",
  score: 0.5,
  passed: false,
  gate_status: "pass",
  ...over,
});

describe("changeOf", () => {
  it("counts a lost pass as a regression even when the score rose", () => {
    expect(
      changeOf(side({ passed: true, score: 0.5 }), side({ passed: false, score: 0.7 }), 0.2),
    ).toBe("regression");
  });

  it("reads score moves when the pass did not change, ignoring noise", () => {
    expect(changeOf(side({}), side({}), -0.1)).toBe("regression");
    expect(changeOf(side({}), side({}), 0.1)).toBe("improvement");
    expect(changeOf(side({}), side({}), 1e-9)).toBe("unchanged");
  });

  it("counts an error where there was a score as a regression, and the reverse", () => {
    const error = side({ status: "BOT_ERROR", score: null, passed: null });
    expect(changeOf(side({}), error, null)).toBe("regression");
    expect(changeOf(error, side({}), null)).toBe("improvement");
    expect(changeOf(error, error, null)).toBe("unchanged");
  });
});

describe("compareRows", () => {
  it("orders regressions by their drop, then improvements by their gain, then the rest", () => {
    const base = ["a", "b", "c", "d", "e"].map((id, position) =>
      row({ question_id: id, position, score: 0.5 }),
    );
    const head = [
      row({ question_id: "a", position: 0, score: 0.5 }),
      row({ question_id: "b", position: 1, score: 0.4 }),
      row({ question_id: "c", position: 2, score: 0.1 }),
      row({ question_id: "d", position: 3, score: 0.6 }),
      row({ question_id: "e", position: 4, score: 0.9 }),
      row({ question_id: "f", position: 5 }),
    ];
    const { items, counts } = compareRows(base, head, "question_id");
    expect(items.map((i) => i.head.question_id)).toEqual(["c", "b", "e", "d", "a"]);
    expect(counts).toMatchObject({ shared: 5, only_base: 0, only_head: 1, regressions: 2 });
    expect(counts.mean_score_delta).toBeCloseTo((0 - 0.1 - 0.4 + 0.1 + 0.4) / 5);
  });

  it("matches by text across sets, whatever the case and spacing", () => {
    expect(questionKey("  When did  LINE 1 open?\n")).toBe(questionKey("when did line 1 open?"));
    const { items, counts } = compareRows(
      [row({ id: "base-row", question_id: "1", question_text: "When did Line 1 open?" })],
      [row({ id: "head-row", question_id: "x", question_text: " when did line 1  open? " })],
      "question_text",
    );
    expect(counts.shared).toBe(1);
    // Each side names its own result row, so the page can open both answers in full.
    expect([items[0]!.base.result_id, items[0]!.head.result_id]).toEqual(["base-row", "head-row"]);
  });

  it("leaves out a question whose text or references changed between the runs, and counts it", () => {
    const base = [
      row({ question_id: "a", question_text: "Fare?", ground_truth: "2 yuan" }),
      row({ question_id: "b", question_text: "Hours?", ground_truth: "6-23" }),
      row({ question_id: "c", question_text: "Line?", ground_truth: "1" }),
    ];
    const head = [
      row({ question_id: "a", question_text: "Fare?", ground_truth: "3 yuan", score: 0.1 }),
      row({ question_id: "b", question_text: "Opening hours?", ground_truth: "6-23" }),
      row({ question_id: "c", question_text: "line?", ground_truth: " 1 ", ground_truths: ["1"] }),
    ];
    const { items, counts } = compareRows(base, head, "question_id");
    expect(items.map((i) => i.head.question_id)).toEqual(["c"]);
    expect(counts).toMatchObject({ shared: 1, changed_questions: 2, only_base: 0, only_head: 0 });
  });
});
