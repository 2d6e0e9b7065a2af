import { z } from "zod";
import { LabelScaleSchema } from "../../evals/calibration/index.js";
import { responseSchema } from "../components.js";
import { CodedMessageSchema } from "./common.js";
import { BotSourceSchema, RESULT_STATUS_VALUES } from "./evaluations.js";
import { JudgeResultSchema } from "./judges.js";

// Human labels of evaluation results, the blind labelling view, and a run's calibration report
// (seed 002 sections 4 and 5.3).

export const ImportLabelsSchema = z.object({
  /** The label file's text: one JSON object per line, as `ragjudge label import` reads. */
  content: z.string().max(20_000_000),
  judge: z.string().optional(),
  scale: LabelScaleSchema.exclude(["pass_fail"]).optional(),
});

export const HumanLabelSchema = responseSchema(
  "HumanLabel",
  z.object({
    id: z.uuid(),
    evaluation_id: z.uuid(),
    evaluation_result_id: z.uuid(),
    scale: LabelScaleSchema,
    score: z.number().int().nullable(),
    passed: z.boolean().nullable(),
    note: z.string().nullable(),
    labelled_by: z.string(),
    labelled_at: z.string(),
  }),
);

export const RunLabelListSchema = responseSchema(
  "RunLabelList",
  z.object({
    items: z.array(
      HumanLabelSchema.extend({ position: z.number().int(), question_id: z.string() }),
    ),
  }),
);

export const ResultLabelListSchema = responseSchema(
  "ResultLabelList",
  z.object({ items: z.array(HumanLabelSchema) }),
);

/** A result as the labelling view shows it: without the judges' verdicts, so they cannot anchor the person. */
const BlindResultSchema = z.object({
  id: z.uuid(),
  position: z.number().int(),
  question_id: z.string(),
  question: z.string(),
  question_type: z.string(),
  ground_truth: z.string().nullable(),
  ground_truths: z.array(z.string()).nullable().describe("every reference when there are several"),
  status: z.enum(RESULT_STATUS_VALUES),
  answer: z.string().nullable(),
  citations: z.array(z.string()).nullable(),
  sources: z.array(BotSourceSchema).nullable(),
});

const labelCounts = {
  evaluation: z.object({ id: z.uuid(), name: z.string(), judges: z.array(z.string()) }),
  scale: LabelScaleSchema,
  scales: z.array(LabelScaleSchema).describe("the run's judges' score scales, then pass_fail"),
  labelled: z.number().int().describe("SCORED results with a label on the scale"),
  unlabelled: z.number().int(),
};

export const NextToLabelSchema = responseSchema(
  "NextToLabel",
  z.object({
    ...labelCounts,
    result: BlindResultSchema.nullable(),
  }),
);

export const LabelItemSchema = responseSchema(
  "LabelItem",
  z.object({
    ...labelCounts,
    index: z.number().int().describe("the result's 1-based place among the run's SCORED results"),
    total: z.number().int().describe("SCORED results"),
    previous_id: z.uuid().nullable().describe("the SCORED result before it"),
    next_id: z.uuid().nullable().describe("the SCORED result after it"),
    result: BlindResultSchema,
    label: HumanLabelSchema.nullable().describe("the person's label on the scale"),
    judges: z
      .array(
        z.object({
          name: z.string(),
          scale: LabelScaleSchema.exclude(["pass_fail"]).nullable(),
          result: JudgeResultSchema,
        }),
      )
      .nullable()
      .describe("the judges' verdicts: null until the person has labelled the result on the scale"),
  }),
);

const ScoreFiguresSchema = z.object({
  n: z.number().int(),
  mae: z.number().nullable().describe("mean |judge − human|"),
  within_1: z.number().nullable().describe("share with |judge − human| ≤ the tolerance"),
  kappa_quadratic: z.number().nullable(),
  alpha_ordinal: z.number().nullable(),
  spearman: z.number().nullable(),
  kendall_tau_b: z.number().nullable(),
});

const PassFailFiguresSchema = z.object({
  n: z.number().int(),
  tp: z.number().int(),
  fp: z.number().int(),
  tn: z.number().int(),
  fn: z.number().int(),
  accuracy: z.number().nullable(),
  tpr: z.number().nullable(),
  tnr: z.number().nullable(),
  kappa: z.number().nullable(),
});

const IntervalSchema = z.object({
  estimate: z.number(),
  ci: z.tuple([z.number(), z.number()]).describe("95% interval"),
});

export const LabelImportResultSchema = responseSchema(
  "LabelImportResult",
  z.object({
    lines: z.number().int(),
    written: z.number().int(),
    scale: LabelScaleSchema.nullable(),
  }),
);

/** The calibration report (docs/calibration.md says what each figure means). */
export const CalibrationReportSchema = responseSchema(
  "CalibrationReport",
  z.object({
    evaluation: z.object({ id: z.uuid(), name: z.string() }),
    judge: z.string(),
    scale: LabelScaleSchema.exclude(["pass_fail"]).nullable(),
    items: z.object({
      judged: z.number().int(),
      labelled_scores: z.number().int(),
      labelled_pass: z.number().int(),
      skipped_judge_errors: z.number().int(),
    }),
    agreement: ScoreFiguresSchema.nullable(),
    baseline: ScoreFiguresSchema.extend({ constant: z.number() }).nullable(),
    pass_fail: PassFailFiguresSchema.extend({
      human_pass_source: z.object({
        labels: z.number().int(),
        scores: z.number().int(),
        threshold: z.number().nullable(),
      }),
      baseline: PassFailFiguresSchema.extend({ constant: z.boolean() }).nullable(),
    }).nullable(),
    pass_rate: z.object({
      judge: IntervalSchema.extend({ n: z.number().int(), method: z.literal("wilson") }).nullable(),
      human: IntervalSchema.extend({ n: z.number().int(), method: z.literal("wilson") }).nullable(),
      ppi: IntervalSchema.extend({
        n: z.number().int(),
        N: z.number().int(),
        lambda: z.number(),
        method: z.literal("ppi++ clt"),
      }).nullable(),
    }),
    options: z.object({ target: z.number(), kappaMin: z.number(), tolerance: z.number() }),
    verdict: z.object({
      passed: z.boolean(),
      basis: z.enum(["scores", "pass_fail", "none"]),
      conditions: z.array(
        z.object({
          name: z.enum(["labels", "within_1", "accuracy", "kappa", "beats_baseline"]),
          ok: z.boolean(),
          value: z.number().nullable(),
          threshold: z.number().nullable(),
          message: z.string(),
        }),
      ),
      failed: z.array(z.string()),
    }),
    disagreements: z.array(
      z.object({
        result_id: z.string(),
        position: z.number().int(),
        question: z.string(),
        answer: z.string().nullable(),
        judge_score: z.number().nullable(),
        human_score: z.number().nullable(),
        difference: z.number().nullable(),
        judge_passed: z.boolean().nullable(),
        human_passed: z.boolean().nullable(),
        note: z.string().nullable(),
      }),
    ),
    reviewers: z
      .array(
        z.object({
          reviewer: z.string(),
          scores: ScoreFiguresSchema.nullable(),
          pass_fail: PassFailFiguresSchema.nullable(),
        }),
      )
      .describe(
        "the judge against each reviewer of the run's annotation queues, beside the figures against the run's (adjudicated) human labels",
      ),
    warnings: z.array(CodedMessageSchema),
  }),
);
