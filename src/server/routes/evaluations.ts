import { streamSSE } from "hono/streaming";
import { z } from "zod";
import {
  evaluationDetail,
  evaluationResultsPage,
  listEvaluationsWithProgress,
  RESULT_STATUSES,
  type WatchEvent,
  watchEvaluation,
} from "../../evals/monitor/index.js";
import {
  cancelEvaluation,
  EvaluationNotFoundError,
  EvaluationRequestSchema,
  pauseEvaluation,
  resumeEvaluation,
  retryEvaluation,
  startEvaluation,
} from "../../evals/runs/index.js";
import { deleteEvaluation, type ResultStatus } from "../../store/index.js";
import type { App, RouteDeps } from "../http.js";
import { defineRoute, mountRoute, type ResponseSpec } from "../route.js";
import { publicEvaluation, publicResult } from "../rows.js";
import {
  ErrorSchema,
  EvaluationDetailSchema,
  EvaluationEventSchema,
  EvaluationListSchema,
  EvaluationSchema,
  ResultsPageSchema,
} from "../schemas.js";
import { IdParams, PAGE_LIMITS, pageLimit, pageOffset } from "./params.js";

const BASE = "/api/v1/evaluations";
const SSE_KEEPALIVE_MS = 15_000;

export const RetryRequestSchema = z.object({
  scope: z.enum(["failed", "all"]).default("failed"),
});

export const ListEvaluationsQuerySchema = z.object({
  limit: pageLimit(PAGE_LIMITS.evaluations),
  offset: pageOffset(1_000_000),
});

/** Comma-separated result statuses, e.g. `BOT_ERROR,JUDGE_ERROR`. */
export const ResultStatusListSchema = z
  .string()
  .optional()
  .describe(`comma-separated result statuses: ${RESULT_STATUSES.join(", ")}`)
  .transform((value, ctx) => {
    if (!value) return undefined;
    const statuses = value.split(",").map((s) => s.trim().toUpperCase());
    const unknown = statuses.filter((s) => !RESULT_STATUSES.includes(s as ResultStatus));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `unknown status ${unknown.join(", ")}; expected ${RESULT_STATUSES.join(", ")}`,
      });
      return z.NEVER;
    }
    return statuses as ResultStatus[];
  });

export const ResultsQuerySchema = z.object({
  status: ResultStatusListSchema,
  offset: pageOffset(),
  limit: pageLimit(PAGE_LIMITS.results),
});

const error = (description: string) => ({ description, schema: ErrorSchema });
const noEvaluation = error("No such evaluation for this user (another user's id too)");
const noJobs = error("The server runs without a job queue");

function controlRoute(operation: "pause" | "resume" | "cancel", summary: string) {
  const responses: Record<number, ResponseSpec> = {
    200: { description: "The evaluation", schema: EvaluationSchema },
    404: noEvaluation,
    409: error("The evaluation's status does not allow this; the message says the status"),
  };
  if (operation === "resume") responses[503] = noJobs;
  return defineRoute({
    method: "post",
    path: `${BASE}/:id/${operation}`,
    tags: ["evaluations"],
    summary,
    params: IdParams,
    resource: "evaluation",
    // Pause and cancel are rows in the database: they need no queue. Resume sends jobs.
    needsJobs: operation === "resume",
    responses,
  });
}

export const evaluationApi = {
  list: defineRoute({
    method: "get",
    path: BASE,
    tags: ["evaluations"],
    summary: "List your evaluations with their progress, newest first",
    query: ListEvaluationsQuerySchema,
    responses: {
      200: { description: "Your evaluations", schema: EvaluationListSchema },
      400: error("A query parameter out of range"),
    },
  }),
  start: defineRoute({
    method: "post",
    path: BASE,
    tags: ["evaluations"],
    summary: "Create and start an evaluation (it runs on the workers)",
    body: EvaluationRequestSchema,
    needsJobs: true,
    responses: {
      201: { description: "The evaluation, PENDING", schema: EvaluationSchema },
      400: error("Invalid body (issues name the field)"),
      404: error("No such question set or collection for this user"),
      503: noJobs,
    },
  }),
  get: defineRoute({
    method: "get",
    path: `${BASE}/:id`,
    tags: ["evaluations"],
    summary: "An evaluation with its progress, summary and first page of results",
    params: IdParams,
    resource: "evaluation",
    responses: {
      200: { description: "The evaluation", schema: EvaluationDetailSchema },
      404: noEvaluation,
    },
  }),
  delete: defineRoute({
    method: "delete",
    path: `${BASE}/:id`,
    tags: ["evaluations"],
    summary: "Delete an evaluation (a live one is cancelled)",
    params: IdParams,
    resource: "evaluation",
    responses: { 204: { description: "Deleted" }, 404: noEvaluation },
  }),
  results: defineRoute({
    method: "get",
    path: `${BASE}/:id/results`,
    tags: ["evaluations"],
    summary: "A page of an evaluation's results, in question order",
    params: IdParams,
    resource: "evaluation",
    query: ResultsQuerySchema,
    responses: {
      200: { description: "{items, offset, limit}", schema: ResultsPageSchema },
      400: error("Bad query"),
      404: noEvaluation,
    },
  }),
  pause: controlRoute("pause", "Pause a PENDING or RUNNING evaluation"),
  resume: controlRoute("resume", "Resume a PAUSED evaluation"),
  cancel: controlRoute("cancel", "Cancel a live evaluation"),
  retry: defineRoute({
    method: "post",
    path: `${BASE}/:id/retry`,
    tags: ["evaluations"],
    summary: "Run a finished evaluation's failed items (or all) again",
    params: IdParams,
    resource: "evaluation",
    body: RetryRequestSchema,
    bodyOptional: true,
    needsJobs: true,
    responses: {
      200: { description: "The evaluation", schema: EvaluationSchema },
      400: error("Invalid body"),
      404: noEvaluation,
      409: error("The evaluation's status does not allow this; the message says the status"),
      503: noJobs,
    },
  }),
  events: defineRoute({
    method: "get",
    path: `${BASE}/:id/events`,
    tags: ["evaluations"],
    summary:
      "Server-Sent Events: progress, one result per finished item, end (works with the session cookie; read it with fetch)",
    params: IdParams,
    resource: "evaluation",
    responses: {
      200: {
        description: "The stream",
        content: { type: "text/event-stream", schema: EvaluationEventSchema },
      },
      404: noEvaluation,
    },
  }),
};

function sseMessage(event: WatchEvent) {
  const data = event.event === "result" ? publicResult(event.data) : event.data;
  return {
    event: event.event,
    data: JSON.stringify(data),
    ...(event.event === "result"
      ? { id: `${event.data.id}:${event.data.gmt_updated.getTime()}` }
      : {}),
  };
}

/** Seed 003 section 4.1, evaluations, plus retry, result pages and a live event stream. */
export function evaluationRoutes(app: App, deps: RouteDeps) {
  const { db } = deps;
  const api = evaluationApi;
  const runConfig = { ...deps.config, llm: deps.llm };
  /** Routes marked needsJobs only run with a queue; pause and cancel need none. */
  const queue = () => deps.jobs ?? { send: async () => {} };

  mountRoute(app, deps, api.list, async (c, { query }) => {
    const items = await listEvaluationsWithProgress(db, c.get("user").id, query);
    return c.json({
      items: items.map(({ evaluation, progress }) => ({
        ...publicEvaluation(evaluation),
        progress,
      })),
    });
  });

  mountRoute(app, deps, api.start, async (c, { body }) => {
    const started = await startEvaluation({ db, jobs: queue() }, c.get("user").id, body, runConfig);
    return c.json(publicEvaluation(started), 201);
  });

  mountRoute(app, deps, api.get, async (c, { params }) => {
    const detail = await evaluationDetail(db, c.get("user").id, params.id);
    return c.json({
      ...publicEvaluation(detail.evaluation),
      progress: detail.progress,
      summary: detail.summary,
      results: detail.results.map(publicResult),
    });
  });

  mountRoute(app, deps, api.results, async (c, { params, query }) => {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? PAGE_LIMITS.results.default;
    const items = await evaluationResultsPage(db, c.get("user").id, params.id, {
      ...(query.status ? { statuses: query.status } : {}),
      offset,
      limit,
    });
    return c.json({ items: items.map(publicResult), offset, limit });
  });

  mountRoute(app, deps, api.delete, async (c, { params }) => {
    if (!(await deleteEvaluation(db, c.get("user").id, params.id))) {
      throw new EvaluationNotFoundError("evaluation", params.id);
    }
    return c.body(null, 204);
  });

  const moves = { pause: pauseEvaluation, resume: resumeEvaluation, cancel: cancelEvaluation };
  for (const operation of ["pause", "resume", "cancel"] as const) {
    mountRoute(app, deps, api[operation], async (c, { params }) =>
      c.json(
        publicEvaluation(
          await moves[operation]({ db, jobs: queue() }, c.get("user").id, params.id),
        ),
      ),
    );
  }

  mountRoute(app, deps, api.retry, async (c, { params, body }) =>
    c.json(
      publicEvaluation(
        await retryEvaluation({ db, jobs: queue() }, c.get("user").id, params.id, body.scope),
      ),
    ),
  );

  mountRoute(app, deps, api.events, async (c, { params }) => {
    const controller = new AbortController();
    const events = watchEvaluation(db, c.get("user").id, params.id, {
      signal: controller.signal,
    });
    // The first step checks the id, so an unknown one is a plain 404 (app.onError), not an
    // empty stream.
    const first = await events.next();
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => controller.abort());
      // A comment now and then keeps proxies from closing a quiet stream (a long item).
      const keepAlive = setInterval(() => {
        stream.write(": keep-alive\n\n").catch(() => controller.abort());
      }, SSE_KEEPALIVE_MS);
      try {
        if (!first.done) await stream.writeSSE(sseMessage(first.value));
        for await (const event of events) {
          if (stream.aborted) break;
          await stream.writeSSE(sseMessage(event));
        }
      } finally {
        clearInterval(keepAlive);
        controller.abort();
      }
    });
  });
}
