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
  CalibrationReportSchema,
  ErrorSchema,
  HumanLabelSchema,
  ImportLabelsSchema,
  LabelImportResultSchema,
  LabelItemSchema,
  NextToLabelSchema,
  ResultLabelListSchema,
  RunLabelListSchema,
} from "../schemas/index.js";
import { IdParams, ResultIdParams as ResultParams, uuid } from "./params.js";
import { requestSchema } from "../components.js";

// Human labels of evaluation results and a run's calibration report (seed 002 sections 4 and 5.3).
// Thin: the route table validates, one function of evals/calibration answers, and its typed
// errors become HTTP answers in errors.ts.

const BASE = "/api/v1/evaluations/:id";
const error = (description: string) => ({ description, schema: ErrorSchema });
const notFound = error("No such evaluation or result for this user (another user's id too)");

/** A scale that is not one of the three reads as not found, like a malformed id. */
const LabelParams = z.object({ id: uuid, resultId: uuid, scale: LabelScaleSchema });

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
