import { describe, expect, it } from "vitest";
import { type SavedQuestion, savePlan } from "./save-plan";

const q = (id: string, text: string): SavedQuestion => ({
  id,
  question_type: "FACTUAL",
  question_text: text,
  ground_truth: "",
});

describe("savePlan", () => {
  it("adds new rows, updates changed ones and removes the missing", () => {
    const saved = [q("1", "a"), q("2", "b"), q("3", "c")];
    const plan = savePlan(saved, [
      { key: 0, id: "1", question_type: "FACTUAL", question_text: "a", ground_truth: "" },
      { key: 1, id: "2", question_type: "FACTUAL", question_text: "b ", ground_truth: "new truth" },
      { key: 2, question_type: "INFERENTIAL", question_text: " d ", ground_truth: "" },
    ]);
    expect(plan).toEqual({
      added: [{ question_type: "INFERENTIAL", question_text: "d", ground_truth: "" }],
      updated: [
        { id: "2", question_type: "FACTUAL", question_text: "b", ground_truth: "new truth" },
      ],
      removed: ["3"],
    });
  });
});
