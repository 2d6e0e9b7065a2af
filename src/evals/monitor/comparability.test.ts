import { describe, expect, it } from "vitest";
import { DEFAULT_JUDGES_CONFIG } from "../../judges/index.js";
import { incomparabilityOf } from "./comparability.js";

const run = (
  judges: string[],
  options: { set?: string | null; model?: string; judgesConfig?: object } = {},
) => ({
  question_set_id: options.set === undefined ? "set-1" : options.set,
  judge_llm_model_id: options.model ?? (judges.every((j) => j === "offline") ? "offline" : "m1"),
  config: { judges, judges_config: options.judgesConfig ?? DEFAULT_JUDGES_CONFIG },
});

describe("incomparabilityOf", () => {
  it("finds nothing between two runs judged alike on one set", () => {
    expect(incomparabilityOf(run(["offline"]), run(["offline"]))).toEqual([]);
    // The order the judges were asked in does not matter.
    expect(incomparabilityOf(run(["rubric", "offline"]), run(["offline", "rubric"]))).toEqual([]);
  });

  it("names a different question set, base first", () => {
    expect(incomparabilityOf(run(["offline"]), run(["offline"], { set: "set-2" }))).toEqual([
      { code: "question_set", base: "set-1", head: "set-2" },
    ]);
  });

  it("names different judges, and different scales only when the scales differ", () => {
    // offline and rubric share the 1-10 scale.
    expect(incomparabilityOf(run(["offline"]), run(["rubric"], { model: "offline" }))).toEqual([
      { code: "judges", base: ["offline"], head: ["rubric"] },
    ]);
    expect(incomparabilityOf(run(["rubric"]), run(["reference"]))).toEqual([
      { code: "judges", base: ["rubric"], head: ["reference"] },
      { code: "scale", base: ["1-10"], head: ["1-5"] },
    ]);
  });

  it("names a different judge model where both runs had an LLM judge", () => {
    expect(incomparabilityOf(run(["rubric"]), run(["rubric"], { model: "m2" }))).toEqual([
      { code: "judge_model", base: "m1", head: "m2" },
    ]);
    // An all-offline run has no model: its judges already say how it differs.
    expect(incomparabilityOf(run(["offline"]), run(["offline", "rubric"]))).toEqual([
      { code: "judges", base: ["offline"], head: ["offline", "rubric"] },
    ]);
  });

  it("names judges set up differently, only for judges both runs used", () => {
    const weights = {
      ...DEFAULT_JUDGES_CONFIG,
      rubric: { ...DEFAULT_JUDGES_CONFIG.rubric, pass_min_accuracy: 8 },
    };
    const threshold = {
      ...DEFAULT_JUDGES_CONFIG,
      reference: { pass_min_score: 5 },
    };
    expect(
      incomparabilityOf(run(["offline"]), run(["offline"], { judgesConfig: weights })),
    ).toEqual([{ code: "judge_settings", judges: ["offline"] }]);
    // A reference threshold means nothing to two offline runs.
    expect(
      incomparabilityOf(run(["offline"]), run(["offline"], { judgesConfig: threshold })),
    ).toEqual([]);
  });

  it("reads a snapshot without judges as no judges, not as an error", () => {
    expect(
      incomparabilityOf(
        { question_set_id: "s", judge_llm_model_id: "offline", config: {} },
        { question_set_id: "s", judge_llm_model_id: "offline", config: { judges: ["offline"] } },
      ),
    ).toEqual([
      { code: "judges", base: [], head: ["offline"] },
      { code: "scale", base: [], head: ["1-10"] },
    ]);
  });
});
