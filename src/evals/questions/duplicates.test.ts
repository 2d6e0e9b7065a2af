import { describe, expect, it } from "vitest";
import { assertNoDuplicateQuestions, findDuplicates, questionKey } from "./duplicates.js";
import { QuestionImportError } from "./errors.js";

describe("questionKey", () => {
  it("ignores case, punctuation and extra whitespace", () => {
    expect(questionKey("  When was the   Tidewall built?! ")).toBe("when was the tidewall built");
    expect(questionKey("When was the Tidewall built")).toBe(
      questionKey("when WAS the tidewall built?"),
    );
    expect(questionKey("state-of-the-art")).toBe(questionKey("state of the art"));
  });

  it("folds full-width forms and drops CJK punctuation and spaces between CJK characters", () => {
    expect(questionKey("新防洪堤有多长？")).toBe("新防洪堤有多长");
    expect(questionKey("“盐灯节”在 什么时候 举行？")).toBe(questionKey("盐灯节在什么时候举行"));
    expect(questionKey("ＡＢＣ　１２３？")).toBe("abc 123");
    expect(questionKey("Line 1 在 2016 年")).toBe("line 1在2016年");
  });

  it("keeps symbols and digits that change the question", () => {
    expect(questionKey("What is 5+3?")).not.toBe(questionKey("What is 53?"));
    expect(questionKey("How far is 7.4 km?")).not.toBe(questionKey("How far is 74 km?"));
  });
});

describe("findDuplicates", () => {
  it("reports each repeat with the row it repeats, never the first occurrence", () => {
    const questions = ["A?", "b", "a!", "C", "B.", "a"].map((question_text) => ({ question_text }));
    expect(findDuplicates(questions)).toEqual([
      { row: 3, duplicate_of_row: 1, existing: false },
      { row: 5, duplicate_of_row: 2, existing: false },
      { row: 6, duplicate_of_row: 1, existing: false },
    ]);
  });

  it("reports repeats of an existing set's questions as existing", () => {
    expect(findDuplicates(["New?", "old question", "Old question!"], ["OLD QUESTION?"])).toEqual([
      { row: 2, existing: true },
      { row: 3, existing: true },
    ]);
  });

  it("skips questions with no letters or digits", () => {
    expect(findDuplicates(["?", "?"])).toEqual([]);
  });
});

describe("assertNoDuplicateQuestions", () => {
  it("passes new questions that repeat nothing", () => {
    expect(() => assertNoDuplicateQuestions(["A?", "B?"], ["C?"])).not.toThrow();
  });

  it("throws naming every repeating row", () => {
    let caught: unknown;
    try {
      assertNoDuplicateQuestions(["A?", "C", "a"], ["c?"]);
    } catch (error) {
      caught = error;
    }
    expect(QuestionImportError.isInstance(caught)).toBe(true);
    expect((caught as QuestionImportError).rows).toEqual([
      { row: 2, field: "question_text", message: "already in the question set" },
      { row: 3, field: "question_text", message: "duplicate of row 1" },
    ]);
    expect((caught as Error).message).toBe(
      "2 invalid rows: row 2: question_text: already in the question set; row 3: question_text: duplicate of row 1",
    );
  });
});
