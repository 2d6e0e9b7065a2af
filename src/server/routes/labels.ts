import type { Context } from "hono";
import { z } from "zod";
import { actorOf } from "../auth.js";
import {
  calibrateEvaluation,
  importLabels,
  LabelInputSchema,
  labelItem,
  LabelScaleSchema,
  nextToLabel,
  putLabel,
  removeLabel,
  resultLabels,
  runLabels,
} from "../../evals/calibration/index.js";
import { recordAudit } from "../../store/index.js";
import type { App, Env, RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import {
  BotSourceSchema,
  CodedMessageSchema,
  ErrorSchema,
  JudgeResultSchema,
  RESULT_STATUS_VALUES,
} from "../schemas/index.js";
import { IdParams, ResultIdParams as ResultParams, uuid } from "./params.js";
import { requestSchema, responseSchema } from "../components.js";

// Human labels of evaluation results and a run's calibration report (seed 002 sections 4 and 5.3).
// Thin: the route table validates, one function of evals/calibration answers, and its typed
// errors become HTTP answers in errors.ts.

const BASE = "/api/v1/evaluations/:id";
const error = (description: string) => ({ description, schema: ErrorSchema });
const notFound = error("No such evaluation or result for this user (another user's id too)");

/** A scale that is not one of the three reads as not found, like a malformed id. */
const LabelParams = z.object({ id: uuid, resultId: uuid, scale: LabelScaleSchema });

export const ImportLabelsSchema = z.object({
  /** The label file's text: one JSON object per line, as `ragjudge label import` reads. */
  content: z.string().max(20_000_000),
  judge: z.string().optional(),
  scale: LabelScaleSchema.exclude(["pass_fail"]).optional(),
});

export const CalibrationQuerySchema = z.object({
  judge: z.string().optional().describe("the run's judge to calibrate (default its first)"),
  target: z.coerce.number().min(-1).max(1).optional().describe("the ±1 share to reach (0.9)"),
  kappa: z.coerce.number().min(-1).max(1).optional().describe("the κ to reach (0.6)"),
  disagreements: z.coerce.number().int().min(1).max(1000).optional(),
});

export const NextLabelQuerySchema = z.object({
  scale: LabelScaleSchema.optional().describe(
    "default the run's first judge's score scale, else pass_fail",
  ),
  /** Skip results up to this position (the one just shown). */
  after: z.coerce.number().int().min(-1).optional().describe("skip results up to this position"),
});

const ScaleQuerySchema = z.object({ scale: LabelScaleSchema.optional() });

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

const TAGS = ["calibration"] as const;

export const labelApi = {
  runLabels: defineRoute({
    method: "get",
    path: `${BASE}/labels`,
    tags: TAGS,
    summary: "Every human label of a run, in question order",
    params: IdParams,
    resource: "evaluation",
    query: ScaleQuerySchema,
    responses: {
      200: { description: "The labels", schema: RunLabelListSchema },
      400: error("Bad query"),
      404: notFound,
    },
  }),
  next: defineRoute({
    method: "get",
    path: `${BASE}/labels/next`,
    tags: TAGS,
    summary:
      "The labelling view's next item: the first judged result with no label on the scale, without the judges' verdicts",
    params: IdParams,
    resource: "evaluation",
    query: NextLabelQuerySchema,
    responses: {
      200: {
        description: "Counts and the next result (null when done)",
        schema: NextToLabelSchema,
      },
      400: error("Bad query"),
      404: notFound,
    },
  }),
  item: defineRoute({
    method: "get",
    path: `${BASE}/labels/items/:resultId`,
    tags: TAGS,
    summary:
      "One result in the labelling view: blind, with its neighbours, the person's label, and the judges' verdicts only once it is labelled",
    params: ResultParams,
    resource: "evaluation or result",
    query: ScaleQuerySchema,
    responses: {
      200: { description: "The result to label", schema: LabelItemSchema },
      400: error("Bad query"),
      404: notFound,
    },
  }),
  import: defineRoute({
    method: "post",
    path: `${BASE}/labels/import`,
    tags: TAGS,
    summary:
      "Import a label file's lines ({question, human_score | human_passed, note?}); all or nothing",
    params: IdParams,
    resource: "evaluation",
    body: requestSchema("ImportLabels", ImportLabelsSchema),
    responses: {
      201: { description: "Lines read and labels written", schema: LabelImportResultSchema },
      400: error(
        "Every bad or unmatched line, in lines[] (line, field, message); nothing was written",
      ),
      404: notFound,
      413: error("Body too large"),
      415: error("The body is not application/json"),
    },
  }),
  resultLabels: defineRoute({
    method: "get",
    path: `${BASE}/results/:resultId/labels`,
    tags: TAGS,
    summary: "A result's labels",
    params: ResultParams,
    resource: "result",
    responses: {
      200: { description: "The labels", schema: ResultLabelListSchema },
      404: notFound,
    },
  }),
  put: defineRoute({
    method: "put",
    path: `${BASE}/results/:resultId/labels/:scale`,
    tags: TAGS,
    summary:
      "Set (or replace) a result's label on a scale: score on 1-10 or 1-5, passed on pass_fail",
    params: LabelParams,
    resource: "result or scale",
    body: requestSchema("LabelInput", LabelInputSchema),
    responses: {
      200: { description: "The label", schema: HumanLabelSchema },
      400: error("A score off the scale, or the wrong field for it"),
      404: notFound,
      413: error("Body too large"),
      415: error("The body is not application/json"),
    },
  }),
  delete: defineRoute({
    method: "delete",
    path: `${BASE}/results/:resultId/labels/:scale`,
    tags: TAGS,
    summary: "Delete a result's label on a scale",
    params: LabelParams,
    resource: "result or scale",
    responses: { 204: { description: "Deleted" }, 404: error("No such label") },
  }),
  calibration: defineRoute({
    method: "get",
    path: `${BASE}/calibration`,
    tags: TAGS,
    summary:
      "How far a judge of the run agrees with the human labels: agreement, constant baseline, pass rates (judge, human, PPI++), golden-set verdict, disagreements",
    params: IdParams,
    resource: "evaluation",
    query: CalibrationQuerySchema,
    responses: {
      200: { description: "The calibration report", schema: CalibrationReportSchema },
      400: error("A judge the run did not use, or a bad query"),
      404: notFound,
    },
  }),
};

async function* textSource(text: string): AsyncGenerator<string> {
  yield text;
}

export function labelRoutes(app: App, deps: RouteDeps) {
  const { db } = deps;
  const labeller = (c: Context<Env>) => ({ ...actorOf(c), name: c.get("user").name });

  mountRoute(app, deps, labelApi.runLabels, async (c, { params, query }) =>
    c.json({ items: await runLabels(db, c.get("workspace").id, params.id, query.scale) }, 200),
  );

  mountRoute(app, deps, labelApi.next, async (c, { params, query }) =>
    c.json(await nextToLabel(db, c.get("workspace").id, params.id, query.scale, query.after), 200),
  );

  mountRoute(app, deps, labelApi.item, async (c, { params, query }) =>
    c.json(
      await labelItem(db, c.get("workspace").id, params.id, params.resultId, query.scale),
      200,
    ),
  );

  /** Labels changed on a run, in its history (issue 28): who relabelled what. */
  const audit = (c: Context<Env>, action: string, id: string, detail: Record<string, unknown>) =>
    recordAudit(db, { ...actorOf(c), action, subjectType: "evaluation", subjectId: id, detail });

  mountRoute(app, deps, labelApi.import, async (c, { params, body }) => {
    const { content, ...options } = body;
    const imported = await importLabels(db, labeller(c), params.id, textSource(content), options);
    await audit(c, "label.import", params.id, { written: imported.written });
    return c.json(imported, 201);
  });

  mountRoute(app, deps, labelApi.resultLabels, async (c, { params }) =>
    c.json(
      { items: await resultLabels(db, c.get("workspace").id, params.id, params.resultId) },
      200,
    ),
  );

  mountRoute(app, deps, labelApi.put, async (c, { params, body }) => {
    const saved = await putLabel(db, labeller(c), params.id, params.resultId, params.scale, body);
    await audit(c, "label.change", params.id, { result_id: params.resultId, scale: params.scale });
    return c.json(saved, 200);
  });

  mountRoute(app, deps, labelApi.delete, async (c, { params }) => {
    await removeLabel(db, c.get("workspace").id, params.id, params.resultId, params.scale);
    await audit(c, "label.delete", params.id, { result_id: params.resultId, scale: params.scale });
    return c.body(null, 204);
  });

  mountRoute(app, deps, labelApi.calibration, async (c, { params, query }) => {
    const { judge, target, kappa, disagreements } = query;
    return c.json(
      await calibrateEvaluation(db, c.get("workspace").id, params.id, {
        ...(judge !== undefined ? { judge } : {}),
        ...(target !== undefined ? { target } : {}),
        ...(kappa !== undefined ? { kappaMin: kappa } : {}),
        ...(disagreements !== undefined ? { disagreements } : {}),
      }),
      200,
    );
  });
}
