import { describe, expect, it } from "vitest";
import { RESULT_CHOICES, runFilterOf } from "./run-filter";

describe("runFilterOf", () => {
  it("maps each choice of the form to the API's filter", () => {
    expect(RESULT_CHOICES.map((choice) => [choice, runFilterOf(choice)])).toEqual([
      ["scored", { status: "SCORED" }],
      ["failed", { status: "SCORED", passed: false }],
      ["passed", { status: "SCORED", passed: true }],
      ["judge_error", { status: "JUDGE_ERROR" }],
      ["bot_error", { status: "BOT_ERROR" }],
    ]);
  });
});
