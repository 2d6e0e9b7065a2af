import { z } from "zod";

// What a queue asks of its reviewers (issue 28 §2): the judge's own scale, pass/fail, or named
// criteria each with its scale; an arena's pairs are always one preference (A, B or a tie).

export const CRITERION_SCALES = ["1-5", "1-10", "pass_fail"] as const;
export type CriterionScale = (typeof CRITERION_SCALES)[number] | "pairwise";

export interface Criterion {
  name: string;
  scale: CriterionScale;
  description: string;
}

/** A queue's rubric as stored: its kind and the criteria every reviewer labels. */
export interface Rubric {
  kind: "judge_scale" | "pass_fail" | "criteria" | "pairwise";
  /** judge_scale: the judge whose scale it is. */
  judge?: string;
  criteria: Criterion[];
}

const Description = z.string().trim().max(2_000, "at most 2,000 characters");

export const CriterionInputSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "required")
      .max(60, "at most 60 characters")
      .regex(/^[^\s,][^,]*$/u, "no commas"),
    scale: z.enum(CRITERION_SCALES),
    description: Description.default(""),
  })
  .strict();

export const RubricInputSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("judge_scale"),
      judge: z.string().trim().min(1).max(50).optional(),
      description: Description.optional(),
    })
    .strict(),
  z.object({ kind: z.literal("pass_fail"), description: Description.optional() }).strict(),
  z
    .object({
      kind: z.literal("criteria"),
      criteria: z
        .array(CriterionInputSchema)
        .min(1, "at least one criterion")
        .max(10, "at most 10 criteria"),
    })
    .strict(),
]);
export type RubricInput = z.infer<typeof RubricInputSchema>;

export const PAIRWISE_RUBRIC: Rubric = {
  kind: "pairwise",
  criteria: [
    {
      name: "preference",
      scale: "pairwise",
      description: "Which answer is better: A, B, or a tie.",
    },
  ],
};

/** The range of a score criterion; null for pass/fail and pairwise. */
export function scoreRange(scale: CriterionScale): { min: number; max: number } | null {
  if (scale === "1-5") return { min: 1, max: 5 };
  if (scale === "1-10") return { min: 1, max: 10 };
  return null;
}

/** One criterion's value as the API takes it. */
export const LabelValueSchema = z
  .object({
    criterion: z.string().trim().min(1).max(60),
    score: z.number().int("a whole number on the scale").optional(),
    passed: z.boolean().optional(),
    choice: z.enum(["a", "b", "tie"]).optional(),
  })
  .strict();
export type LabelValue = z.infer<typeof LabelValueSchema>;

export const LabelSubmissionSchema = z
  .object({
    labels: z.array(LabelValueSchema).min(1, "at least one criterion").max(10),
    reason: z.string().trim().max(2_000, "at most 2,000 characters").optional(),
  })
  .strict();
export type LabelSubmission = z.infer<typeof LabelSubmissionSchema>;

/** A criterion's stored value. */
export interface StoredValue {
  criterion: string;
  score: number | null;
  passed: boolean | null;
  choice: "a" | "b" | "tie" | null;
}

/**
 * Checks a submission against the rubric: every criterion once, each with the field its scale
 * takes, in range. Returns the values in rubric order, or the field at fault.
 */
export function checkLabels(
  rubric: Rubric,
  labels: readonly LabelValue[],
): { values: StoredValue[] } | { field: string; reason: string } {
  const byName = new Map<string, { value: LabelValue; index: number }>();
  for (const [index, value] of labels.entries()) {
    if (byName.has(value.criterion)) {
      return { field: `labels.${index}.criterion`, reason: `${value.criterion} given twice` };
    }
    if (!rubric.criteria.some((c) => c.name === value.criterion)) {
      const names = rubric.criteria.map((c) => c.name).join(", ");
      return {
        field: `labels.${index}.criterion`,
        reason: `not a criterion of this queue (${names})`,
      };
    }
    byName.set(value.criterion, { value, index });
  }
  const values: StoredValue[] = [];
  for (const criterion of rubric.criteria) {
    const given = byName.get(criterion.name);
    if (!given) return { field: "labels", reason: `${criterion.name} is missing` };
    const { value, index } = given;
    const at = (field: string) => `labels.${index}.${field}`;
    const range = scoreRange(criterion.scale);
    if (range) {
      if (value.score === undefined)
        return { field: at("score"), reason: `required on ${criterion.scale}` };
      if (value.score < range.min || value.score > range.max) {
        return { field: at("score"), reason: `a whole number from ${range.min} to ${range.max}` };
      }
      if (value.passed !== undefined || value.choice !== undefined) {
        return { field: at("score"), reason: `only score is taken on ${criterion.scale}` };
      }
      values.push({ criterion: criterion.name, score: value.score, passed: null, choice: null });
    } else if (criterion.scale === "pass_fail") {
      if (value.passed === undefined)
        return { field: at("passed"), reason: "required on pass_fail" };
      if (value.score !== undefined || value.choice !== undefined) {
        return { field: at("passed"), reason: "only passed is taken on pass_fail" };
      }
      values.push({ criterion: criterion.name, score: null, passed: value.passed, choice: null });
    } else {
      if (value.choice === undefined) return { field: at("choice"), reason: "a, b or tie" };
      if (value.score !== undefined || value.passed !== undefined) {
        return { field: at("choice"), reason: "only choice is taken on a pairwise item" };
      }
      values.push({ criterion: criterion.name, score: null, passed: null, choice: value.choice });
    }
  }
  return { values };
}
