import { describe, expect, it } from "vitest";
import { initialTable, rowProblems, tableReducer, type TableState } from "./table-state";

const apply = (state: TableState, ...actions: Parameters<typeof tableReducer>[1][]) =>
  actions.reduce(tableReducer, state);

describe("tableReducer", () => {
  it("undoes the last change, one cell's typing counting as one change", () => {
    let state = apply(initialTable(), { type: "add" });
    const key = state.rows[0]!.key;
    state = apply(
      state,
      { type: "edit", key, field: "question_text", value: "W" },
      { type: "edit", key, field: "question_text", value: "When" },
      { type: "edit", key, field: "ground_truth", value: "2009" },
    );
    expect(state.rows[0]).toMatchObject({ question_text: "When", ground_truth: "2009" });
    state = tableReducer(state, { type: "undo" });
    expect(state.rows[0]).toMatchObject({ question_text: "When", ground_truth: "" });
    state = tableReducer(state, { type: "undo" });
    expect(state.rows[0]).toMatchObject({ question_text: "", ground_truth: "" });
    state = tableReducer(state, { type: "undo" });
    expect(state.rows).toEqual([]);
    expect(tableReducer(state, { type: "undo" })).toBe(state);
  });

  it("brings a removed row back on undo", () => {
    let state = initialTable([
      { question_type: "FACTUAL", question_text: "a", ground_truth: "" },
      { question_type: "FACTUAL", question_text: "b", ground_truth: "" },
    ]);
    state = tableReducer(state, { type: "remove", key: state.rows[0]!.key });
    expect(state.rows.map((r) => r.question_text)).toEqual(["b"]);
    state = tableReducer(state, { type: "undo" });
    expect(state.rows.map((r) => r.question_text)).toEqual(["a", "b"]);
  });
});

describe("rowProblems", () => {
  it("flags empty questions and repeats of an earlier row by its number", () => {
    const state = initialTable([
      { question_type: "FACTUAL", question_text: "兰亭县在哪？", ground_truth: "" },
      { question_type: "FACTUAL", question_text: "  ", ground_truth: "" },
      { question_type: "FACTUAL", question_text: "兰亭 县在哪", ground_truth: "" },
    ]);
    const problems = rowProblems(state.rows);
    expect(problems.get(state.rows[0]!.key)).toBeUndefined();
    expect(problems.get(state.rows[1]!.key)).toEqual({ kind: "empty" });
    expect(problems.get(state.rows[2]!.key)).toEqual({ kind: "duplicate", of: 1 });
  });
});
