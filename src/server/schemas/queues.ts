import { z } from "zod";
import { CRITERION_SCALES } from "../../evals/queues/index.js";
import { Time } from "./common.js";

// Annotation queues (issue 28 §2): a queue with its rubric and progress, the blind item a
// reviewer is handed, a saved label with the judge's verdict, the items, agreement between people.

const CriterionSchema = z.object({
  name: z.string(),
  scale: z.enum([...CRITERION_SCALES, "pairwise"]),
  description: z.string(),
});

const RubricSchema = z.object({
  kind: z.enum(["judge_scale", "pass_fail", "criteria", "pairwise"]),
  judge: z.string().optional(),
  criteria: z.array(CriterionSchema),
});

const QueuePersonSchema = z.object({ user_id: z.string(), name: z.string() });

export const QueueSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["run", "arena", "production"]),
  source: z.record(z.string(), z.unknown()).describe("where the items came from, as asked"),
  rubric: RubricSchema,
  reviewers_per_item: z.number().int(),
  reviewers: z.array(QueuePersonSchema),
  created_at: Time,
  items: z.number().int(),
  complete: z.number().int().describe("items labelled by as many reviewers as asked"),
});

export const QueueSchema = QueueSummarySchema.extend({
  progress: z.object({
    slots: z.number().int().describe("items × reviewers per item"),
    slots_filled: z.number().int(),
    reviewers: z.array(QueuePersonSchema.extend({ labelled: z.number().int() })),
  }),
});

const ItemContentSchema = z.object({
  question: z.string(),
  answer: z.string().nullable().optional(),
  ground_truth: z.string().nullable().optional(),
  contexts: z.array(z.string()).optional(),
  answers: z.tuple([z.string(), z.string()]).optional().describe("pairwise: A, then B"),
});

const BlindItemSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  subject: z.object({
    kind: z.enum(["result", "pair", "answer"]),
    result_id: z.string().nullable(),
    answer_id: z.string().nullable(),
  }),
  content: ItemContentSchema,
});

const QueueJudgeVerdictSchema = z
  .record(z.string(), z.unknown())
  .nullable()
  .describe(
    "the judge's verdict: a run's judges (raw_score, passed, reasoning), an arena pair's outcome (a, b or tie, as shown), or a production answer's gate",
  );

export const QueueNextSchema = z.object({
  rubric: RubricSchema,
  labelled: z.number().int().describe("items this reviewer has labelled in the queue"),
  item: BlindItemSchema.nullable().describe("null when nothing is left for this reviewer"),
  lock_expires_at: Time.nullable(),
});

const LabelValueOut = z.object({
  criterion: z.string(),
  score: z.number().int().nullable(),
  passed: z.boolean().nullable(),
  choice: z.enum(["a", "b", "tie"]).nullable(),
});

export const QueueLabelSavedSchema = z.object({
  item_id: z.string(),
  labels: z.array(LabelValueOut),
  reason: z.string().nullable(),
  judge: QueueJudgeVerdictSchema,
});

export const QueueItemListSchema = z.object({
  total: z.number().int(),
  items: z.array(
    BlindItemSchema.extend({
      judge: QueueJudgeVerdictSchema,
      labels: z.array(LabelValueOut.extend({ reviewer_id: z.string(), reviewer: z.string() })),
      final: z.object({ labels: z.array(LabelValueOut), note: z.string().nullable() }).nullable(),
      final_at: Time.nullable(),
    }),
  ),
});

export const QueueAgreementSchema = z.object({
  criteria: z.array(
    z.object({
      criterion: z.string(),
      scale: CriterionSchema.shape.scale,
      metric: z.enum(["nominal", "ordinal", "interval"]),
      items: z.number().int().describe("items labelled by two reviewers or more"),
      alpha: z.number().nullable().describe("Krippendorff's α"),
      alpha_ci: z.tuple([z.number(), z.number()]).nullable().describe("95% bootstrap interval"),
      kappas: z.array(
        z.object({
          a: z.string(),
          b: z.string(),
          n: z.number().int(),
          agreement: z.number().nullable(),
          kappa: z.number().nullable().describe("Cohen's κ (quadratic weights on scores)"),
        }),
      ),
    }),
  ),
  disagreements: z.array(
    z.object({
      item_id: z.string(),
      position: z.number().int(),
      spread: z.number(),
      criterion: z.string(),
      question: z.string(),
      labels: z.array(
        LabelValueOut.omit({ criterion: true }).extend({
          reviewer: z.string(),
          criterion: z.string(),
        }),
      ),
    }),
  ),
  pairs: z
    .array(
      z.object({
        a: z.string(),
        b: z.string(),
        items: z.number().int(),
        agree: z.number().int(),
        share: z.number().nullable(),
      }),
    )
    .nullable()
    .describe(
      "arena queues: per pair of contestants, how often people's majority matched the judge",
    ),
  people_standings: z
    .array(
      z.object({
        contestant: z.string(),
        rating: z.number(),
        wins: z.number().int(),
        losses: z.number().int(),
        ties: z.number().int(),
      }),
    )
    .nullable()
    .describe(
      "arena queues: people as a judge, their majority per item rated by Bradley-Terry as the arena rates its judge (best first)",
    ),
});

export const AdjudicatedItemSchema = BlindItemSchema.extend({
  final: z.object({ labels: z.array(LabelValueOut), note: z.string().nullable() }),
  final_at: Time.nullable(),
  human_labels_written: z
    .number()
    .int()
    .describe("a run's result: the run's human labels written from the final label"),
});

export const QueueListSchema = z.object({ items: z.array(QueueSummarySchema) });

/** The members a queue may be assigned to. */
export const QueueReviewerListSchema = z.object({
  items: z.array(
    QueuePersonSchema.extend({ role: z.enum(["owner", "editor", "annotator", "viewer"]) }),
  ),
});
