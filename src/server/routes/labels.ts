import { z } from "zod";
import {
  calibrateEvaluation,
  importLabels,
  LabelInputSchema,
  LabelScaleSchema,
  nextToLabel,
  putLabel,
  removeLabel,
  resultLabels,
  runLabels,
} from "../../evals/calibration/index.js";
import { isUuid } from "../../store/index.js";
import type { App, Env, RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import { ErrorSchema } from "../schemas.js";
import { IdParams } from "./params.js";

// Human labels of evaluation results and a run's calibration report (seed 002 sections 4 and 5.3).
// Thin: the route table validates, one function of evals/calibration answers, and its typed
// errors become HTTP answers in errors.ts.

const BASE = "/api/v1/evaluations/:id";
const error = (description: string) => ({ description, schema: ErrorSchema });
const notFound = error("No such evaluation or result for this user (another user's id too)");

const uuid = z.string().refine(isUuid, "not a UUID").meta({ format: "uuid" });
const ResultParams = z.object({ id: uuid, resultId: uuid });
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
  scale: LabelScaleSchema,
  /** Skip results up to this position (the one just shown). */
  after: z.coerce.number().int().min(-1).optional().describe("skip results up to this position"),
});

const ScaleQuerySchema = z.object({ scale: LabelScaleSchema.optional() });

export const HumanLabelSchema = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  evaluation_id: z.uuid(),
  evaluation_result_id: z.uuid(),
  scale: LabelScaleSchema,
  score: z.number().int().nullable(),
  passed: z.boolean().nullable(),
  note: z.string().nullable(),
  labelled_by: z.string(),
  labelled_at: z.string(),
});

export const RunLabelListSchema = z.object({
  items: z.array(HumanLabelSchema.extend({ position: z.number().int(), question_id: z.string() })),
});

export const ResultLabelListSchema = z.object({ items: z.array(HumanLabelSchema) });

export const NextToLabelSchema = z.object({
  scale: LabelScaleSchema,
  labelled: z.number().int(),
  unlabelled: z.number().int(),
  /** Without the judges' verdicts, so they cannot anchor the person. */
  result: z
    .object({
      id: z.uuid(),
      position: z.number().int(),
      question_id: z.string(),
      question: z.string(),
      question_type: z.string(),
      ground_truth: z.string().nullable(),
      answer: z.string().nullable(),
      citations: z.unknown(),
      sources: z.unknown(),
    })
    .nullable(),
});

export const LabelImportResultSchema = z.object({
  lines: z.number().int(),
  written: z.number().int(),
  scale: LabelScaleSchema.nullable(),
});

/** The calibration report (docs/calibration.md); nested figures are described there. */
export const CalibrationReportSchema = z.looseObject({
  evaluation: z.object({ id: z.uuid(), name: z.string() }),
  judge: z.string(),
  scale: LabelScaleSchema.exclude(["pass_fail"]).nullable(),
  items: z.object({
    judged: z.number().int(),
    labelled_scores: z.number().int(),
    labelled_pass: z.number().int(),
    skipped_judge_errors: z.number().int(),
  }),
  agreement: z.record(z.string(), z.unknown()).nullable(),
  baseline: z.record(z.string(), z.unknown()).nullable(),
  pass_fail: z.record(z.string(), z.unknown()).nullable(),
  pass_rate: z.object({
    judge: z.record(z.string(), z.unknown()).nullable(),
    human: z.record(z.string(), z.unknown()).nullable(),
    ppi: z.record(z.string(), z.unknown()).nullable(),
  }),
  options: z.record(z.string(), z.unknown()),
  verdict: z.record(z.string(), z.unknown()),
  disagreements: z.array(z.record(z.string(), z.unknown())),
  warnings: z.array(z.string()),
});

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
      200: { description: "Counts and the next result (null when done)", schema: NextToLabelSchema },
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
    body: ImportLabelsSchema,
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
    body: LabelInputSchema,
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
  const labeller = (user: Env["Variables"]["user"]) => ({ id: user.id, name: user.name });

  mountRoute(app, deps, labelApi.runLabels, async (c, { params, query }) =>
    c.json({ items: await runLabels(db, c.get("user").id, params.id, query.scale) }),
  );

  mountRoute(app, deps, labelApi.next, async (c, { params, query }) =>
    c.json(await nextToLabel(db, c.get("user").id, params.id, query.scale, query.after)),
  );

  mountRoute(app, deps, labelApi.import, async (c, { params, body }) => {
    const { content, ...options } = body;
    return c.json(
      await importLabels(db, labeller(c.get("user")), params.id, textSource(content), options),
      201,
    );
  });

  mountRoute(app, deps, labelApi.resultLabels, async (c, { params }) =>
    c.json({ items: await resultLabels(db, c.get("user").id, params.id, params.resultId) }),
  );

  mountRoute(app, deps, labelApi.put, async (c, { params, body }) =>
    c.json(
      await putLabel(db, labeller(c.get("user")), params.id, params.resultId, params.scale, body),
    ),
  );

  mountRoute(app, deps, labelApi.delete, async (c, { params }) => {
    await removeLabel(db, c.get("user").id, params.id, params.resultId, params.scale);
    return c.body(null, 204);
  });

  mountRoute(app, deps, labelApi.calibration, async (c, { params, query }) => {
    const { judge, target, kappa, disagreements } = query;
    return c.json(
      await calibrateEvaluation(db, c.get("user").id, params.id, {
        ...(judge !== undefined ? { judge } : {}),
        ...(target !== undefined ? { target } : {}),
        ...(kappa !== undefined ? { kappaMin: kappa } : {}),
        ...(disagreements !== undefined ? { disagreements } : {}),
      }),
    );
  });
}
