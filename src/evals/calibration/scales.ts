import { z } from "zod";
import type { JudgesConfig } from "../../judges/index.js";
import type { LabelScale } from "../../store/index.js";

// Human labels are given on a judge's own scale, so a label on "1-10" calibrates both the rubric
// judge and the offline heuristic rubric, which share seed 002's 1-10 scale.

export const LabelScaleSchema = z.enum(["1-10", "1-5", "pass_fail"]);

export const SCALE_RANGES: Record<
  Exclude<LabelScale, "pass_fail">,
  { min: number; max: number }
> = {
  "1-10": { min: 1, max: 10 },
  "1-5": { min: 1, max: 5 },
};

/** The score scale of a judge's raw_score; null for review, whose only verdict is pass/fail. */
export function scaleOfJudge(judge: string): Exclude<LabelScale, "pass_fail"> | null {
  if (judge === "rubric" || judge === "offline") return "1-10";
  if (judge === "reference") return "1-5";
  return null;
}

/**
 * The score a person's pass is read from when they gave a score but no pass/fail label: the
 * judges' own thresholds (seed 002's "Accuracy >= 7" on 1-10, reference pass_min_score on 1-5).
 */
export function passThreshold(scale: Exclude<LabelScale, "pass_fail">, config: JudgesConfig) {
  return scale === "1-10" ? config.rubric.pass_min_accuracy : config.reference.pass_min_score;
}

/** A label as the API takes it (PUT .../labels/:scale): a score on a score scale, else passed. */
export const LabelInputSchema = z
  .object({
    score: z.number().int("a whole number on the scale").optional(),
    passed: z.boolean().optional(),
    note: z.string().max(4_000).optional(),
    /** Who labelled it; default the account's name. */
    labelled_by: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export type LabelInput = z.infer<typeof LabelInputSchema>;

/** The field at fault and why, when `input` does not fit `scale`; null when it does. */
export function labelIssue(
  scale: LabelScale,
  input: { score?: number | undefined; passed?: boolean | undefined },
): { field: string; message: string } | null {
  if (scale === "pass_fail") {
    if (input.passed === undefined) return { field: "passed", message: "required on pass_fail" };
    if (input.score !== undefined) {
      return { field: "score", message: "not allowed on pass_fail (use passed)" };
    }
    return null;
  }
  const { min, max } = SCALE_RANGES[scale];
  if (input.score === undefined) return { field: "score", message: `required on ${scale}` };
  if (!Number.isInteger(input.score) || input.score < min || input.score > max) {
    return { field: "score", message: `a whole number from ${min} to ${max}` };
  }
  if (input.passed !== undefined) {
    return { field: "passed", message: `not allowed on ${scale} (label pass_fail separately)` };
  }
  return null;
}
