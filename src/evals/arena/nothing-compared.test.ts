import { describe, expect, it } from "vitest";
import { nothingCompared } from "./nothing-compared.js";

const tally = (wins: number, ties: number, losses: number) => ({ wins, ties, losses });
const matrix = (cell: ReturnType<typeof tally>) => ({
  names: ["a", "b"],
  cells: [
    [null, cell],
    [tally(cell.losses, cell.ties, cell.wins), null],
  ],
});
const error = (kind: "http" | "unusable_reply", message: string) => ({
  a: "a",
  b: "b",
  question_id: "q",
  kind,
  message,
});

describe("nothingCompared", () => {
  it("is undefined once any pair met on any question, a tie included", () => {
    expect(nothingCompared({ matrix: matrix(tally(0, 1, 0)) })).toBeUndefined();
    expect(
      nothingCompared({ matrix: matrix(tally(1, 0, 0)), judge_errors: [error("http", "x")] }),
    ).toBeUndefined();
  });

  it("counts the pairwise judge's errors by kind when every judgment failed", () => {
    expect(
      nothingCompared({
        matrix: matrix(tally(0, 0, 0)),
        judge_errors: [
          error("http", "HTTP 500 once"),
          error("http", "HTTP 500 twice"),
          error("unusable_reply", "not JSON"),
        ],
      }),
    ).toEqual({
      code: "arena.all_judgments_failed",
      params: {
        n: 3,
        failures: [
          { kind: "http", count: 2, example: "HTTP 500 once" },
          { kind: "unusable_reply", count: 1, example: "not JSON" },
        ],
      },
      message:
        "All 3 pairwise judgments failed: 2 × the model's server answered with an error (e.g. HTTP 500 once); " +
        "1 × the model's reply was unusable (not JSON, or not the expected shape) (e.g. not JSON).",
    });
  });

  it("says why when scores never met (no judge errors to count)", () => {
    expect(nothingCompared({ matrix: matrix(tally(0, 0, 0)) })?.code).toBe(
      "arena.no_usable_results",
    );
  });
});
