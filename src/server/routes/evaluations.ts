import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { actorOf } from "../auth.js";
import { z } from "zod";
import {
  compareEvaluations,
  evaluationCharts,
  evaluationDetail,
  evaluationResult,
  filteredResultsPage,
  listEvaluationsWithProgress,
  RESULT_STATUSES,
  resultsCsv,
  resultsListPage,
  STREAM_FAILED_MESSAGE,
  type WatchEvent,
  watchEvaluation,
} from "../../evals/monitor/index.js";
import { arenaOwnRuns } from "../../evals/arena/index.js";
import {
  cancelEvaluation,
  EvaluationNotFoundError,
  EvaluationRequestSchema,
  pauseEvaluation,
  resumeEvaluation,
  retryEvaluation,
  startEvaluation,
} from "../../evals/runs/index.js";
import {
  answerLoopMermaid,
  type LoopsConfig,
  qualityLoopMermaid,
  type TraceStep,
} from "../../rag/index.js";
import { deleteEvaluation, recordAudit, type ResultFilter } from "../../store/index.js";
import { errorLogSummary } from "../error-log.js";
import type { App, Env, RouteDeps } from "../http.js";
import {
  type AnyRouteSpec,
  declaredBody,
  defineRoute,
  mountRoute,
  type RouteSpec,
} from "../route.js";
import { publicEvaluation, publicResult } from "../rows.js";
import {
  ErrorSchema,
  EVALUATION_STATUSES,
  EvaluationChartsSchema,
  EvaluationComparisonSchema,
  EvaluationDetailSchema,
  FileDownloadSchema,
  EvaluationEventSchema,
  EvaluationListSchema,
  EvaluationResultSchema,
  EvaluationSchema,
  ResultsPageSchema,
  ResumeRequestSchema,
  RetryRequestSchema,
} from "../schemas/index.js";
import { IdParams, PAGE_LIMITS, pageLimit, pageOffset, ResultIdParams } from "./params.js";
import { requestSchema } from "../components.js";

const BASE = "/api/v1/evaluations";
const SSE_KEEPALIVE_MS = 15_000;
const streamFailed = { error: "stream_failed" as const, message: STREAM_FAILED_MESSAGE };

/** A comma-separated list of values from `allowed` (case-insensitive), e.g. `BOT_ERROR,SCORED`. */
function commaList<T extends string>(allowed: readonly T[], what: string, upper = true) {
  return z
    .string()
    .optional()
    .describe(`comma-separated ${what}: ${allowed.join(", ")}`)
    .transform((value, ctx) => {
      if (!value) return undefined;
      const items = value
        .split(",")
        .map((s) => (upper ? s.trim().toUpperCase() : s.trim().toLowerCase()))
        .filter(Boolean);
      const unknown = items.filter((s) => !allowed.includes(s as T));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `unknown ${what} ${unknown.join(", ")}; expected ${allowed.join(", ")}`,
        });
        return z.NEVER;
      }
      return items as T[];
    });
}

export const ListEvaluationsQuerySchema = z.object({
  status: commaList(EVALUATION_STATUSES, "evaluation statuses"),
  limit: pageLimit(PAGE_LIMITS.evaluations),
  offset: pageOffset(1_000_000),
});

const GATE_FILTERS = ["pass", "partial", "fail", "skipped", "none"] as const;
const score = (edge: string) =>
  z.coerce.number().min(0).max(1).optional().describe(`primary score ${edge} (0-1, inclusive)`);

/** The results list's filters, shared by its pages and its export. */
export const ResultFilterQuerySchema = z.object({
  status: commaList(RESULT_STATUSES, "result statuses"),
  passed: z
    .enum(["true", "false"])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "true"))
    .describe("true: passed the gate and every judge; false: scored and failed"),
  gate: commaList(GATE_FILTERS, "gate verdicts (none: not gated)", false),
  question_type: z
    .string()
    .max(1_000)
    .optional()
    .transform((value) =>
      value
        ?.split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .describe("comma-separated question types, e.g. FACTUAL,INFERENTIAL"),
  score_min: score("at least"),
  score_max: score("at most"),
  q: z
    .string()
    .max(500)
    .optional()
    .describe("text in the question, ground truth or answer (case-insensitive)"),
});

export const ResultsQuerySchema = ResultFilterQuerySchema.extend({
  offset: pageOffset(),
  limit: pageLimit(PAGE_LIMITS.results),
});

export const ExportResultsQuerySchema = ResultFilterQuerySchema.extend({
  format: z.enum(["csv", "json"]).default("csv").describe("the file format (default csv)"),
});

export const CompareQuerySchema = z.object({
  base: z.string().describe("the baseline run's id"),
  head: z.string().describe("the run compared with it"),
});

type ResultFilterQuery = z.output<typeof ResultFilterQuerySchema>;

function resultFilter(query: ResultFilterQuery): ResultFilter {
  return {
    ...(query.status ? { statuses: query.status } : {}),
    ...(query.passed !== undefined ? { passed: query.passed } : {}),
    ...(query.gate ? { gate: query.gate } : {}),
    ...(query.question_type?.length ? { questionTypes: query.question_type } : {}),
    ...(query.score_min !== undefined ? { scoreMin: query.score_min } : {}),
    ...(query.score_max !== undefined ? { scoreMax: query.score_max } : {}),
    ...(query.q?.trim() ? { text: query.q } : {}),
  };
}

const error = (description: string) => ({ description, schema: ErrorSchema });
const noEvaluation = error("No such evaluation for this user (another user's id too)");
const noJobs = error("The server runs without a job queue");

const movedAnswers = {
  200: { description: "The evaluation", schema: EvaluationSchema },
  404: noEvaluation,
  409: error("The evaluation's status does not allow this; the message says the status"),
};
const queuedAnswers = { ...movedAnswers, 400: error("Invalid body"), 503: noJobs };

/**
 * A route that moves one evaluation and answers with it. Pause and cancel are rows in the
 * database: they need no queue. Resume and retry send jobs, and take an optional body.
 */
function controlRoute(
  operation: "pause" | "cancel",
  summary: string,
): RouteSpec<typeof IdParams, undefined, undefined, typeof movedAnswers>;
function controlRoute<B extends z.ZodType>(
  operation: "resume" | "retry",
  summary: string,
  body: B,
): RouteSpec<typeof IdParams, undefined, B, typeof queuedAnswers>;
function controlRoute(operation: string, summary: string, body?: z.ZodType): AnyRouteSpec {
  const route = {
    method: "post",
    path: `${BASE}/:id/${operation}`,
    tags: ["evaluations"],
    summary,
    params: IdParams,
    resource: "evaluation",
  } as const;
  return body
    ? { ...route, body, bodyOptional: true, needsJobs: true, responses: queuedAnswers }
    : { ...route, needsJobs: false, responses: movedAnswers };
}

export const evaluationApi = {
  // Before `/:id`: "compare" is not an id.
  compare: defineRoute({
    method: "get",
    path: `${BASE}/compare`,
    tags: ["evaluations"],
    summary:
      "Compare two runs question by question: score and pass deltas, regressions first, both radars",
    description:
      "Runs on the same question set match by question id; runs on different sets compare on the questions they share (by normalized text).",
    query: CompareQuerySchema,
    responses: {
      200: { description: "The comparison", schema: EvaluationComparisonSchema },
      400: error("base or head missing"),
      404: noEvaluation,
    },
  }),
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
    body: requestSchema("EvaluationRequest", EvaluationRequestSchema),
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
    summary: "A page of an evaluation's results list matching the filters, in question order",
    params: IdParams,
    resource: "evaluation",
    query: ResultsQuerySchema,
    responses: {
      200: {
        description:
          "{items, offset, limit, total}: each item is what a collapsed row shows (no sources, trace, checks or judge outputs); total counts every match",
        schema: ResultsPageSchema,
      },
      400: error("Bad query"),
      404: noEvaluation,
    },
  }),
  result: defineRoute({
    method: "get",
    path: `${BASE}/:id/results/:resultId`,
    tags: ["evaluations"],
    summary:
      "One result in full: the answer with its sources and citations, the gate's checks, every judge's output, the bot's trace",
    params: ResultIdParams,
    resource: "result",
    responses: {
      200: { description: "The result", schema: EvaluationResultSchema },
      404: error("No such evaluation or result for this user (another user's ids too)"),
    },
  }),
  export: defineRoute({
    method: "get",
    path: `${BASE}/:id/export`,
    tags: ["evaluations"],
    summary: "Download the results matching the filters as CSV or JSON",
    params: IdParams,
    resource: "evaluation",
    query: ExportResultsQuerySchema,
    responses: {
      200: {
        description:
          "The file (content-disposition: attachment): CSV with one row per question and a score column per judge, or a JSON array of EvaluationResult",
        content: { type: "text/csv", schema: FileDownloadSchema },
      },
      400: error("Bad query"),
      404: noEvaluation,
    },
  }),
  charts: defineRoute({
    method: "get",
    path: `${BASE}/:id/charts`,
    tags: ["evaluations"],
    summary:
      "A run's chart data: rubric dimension averages (radar), a score histogram, per question type",
    params: IdParams,
    resource: "evaluation",
    responses: {
      200: { description: "The chart data", schema: EvaluationChartsSchema },
      404: noEvaluation,
    },
  }),
  pause: controlRoute("pause", "Pause a PENDING or RUNNING evaluation"),
  resume: controlRoute(
    "resume",
    "Resume a PAUSED evaluation, optionally under a new cost limit",
    requestSchema("ResumeRequest", ResumeRequestSchema),
  ),
  cancel: controlRoute("cancel", "Cancel a live evaluation"),
  retry: controlRoute(
    "retry",
    "Run a finished evaluation's failed items (or all) again",
    requestSchema("RetryRequest", RetryRequestSchema),
  ),
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
      429: error(
        "The caller has as many live streams open as one user may (RAGJUDGE_STREAMS_PER_USER); close one first",
      ),
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
/** A built-in bot's stored trace as the Ask page draws it; nothing for another bot's tool calls. */
function loopDiagrams(
  calls: readonly unknown[] | null,
  loops: LoopsConfig,
): { quality_loop: string; answer_loop: string } | undefined {
  if (!calls || calls.length === 0) return undefined;
  const isStep = (call: unknown): call is TraceStep =>
    typeof call === "object" &&
    call !== null &&
    typeof (call as TraceStep).machine === "string" &&
    typeof (call as TraceStep).node === "string" &&
    typeof (call as TraceStep).next === "string";
  if (!calls.every(isStep)) return undefined;
  return {
    quality_loop: qualityLoopMermaid(calls, loops),
    answer_loop: answerLoopMermaid(calls, loops),
  };
}

export function evaluationRoutes(app: App, deps: RouteDeps) {
  const { db } = deps;
  const { feeds, cap } = deps.streams;
  const api = evaluationApi;
  const runConfig = { ...deps.config, llm: deps.llm };
  /** Routes marked needsJobs only run with a queue; pause and cancel need none. */
  const queue = () => deps.jobs ?? { send: async () => {} };

  mountRoute(app, deps, api.compare, async (c, { query }) => {
    const comparison = await compareEvaluations(db, c.get("workspace").id, query.base, query.head);
    const run = ({ evaluation, ...rest }: (typeof comparison)["base"]) => ({
      evaluation: publicEvaluation(evaluation),
      ...rest,
    });
    return c.json({ ...comparison, base: run(comparison.base), head: run(comparison.head) }, 200);
  });

  mountRoute(app, deps, api.list, async (c, { query }) => {
    const [items, arenaRuns] = await Promise.all([
      listEvaluationsWithProgress(db, c.get("workspace").id, {
        limit: query.limit ?? PAGE_LIMITS.evaluations.default,
        ...(query.offset !== undefined ? { offset: query.offset } : {}),
        ...(query.status ? { statuses: query.status } : {}),
      }),
      arenaOwnRuns(db, c.get("workspace").id),
    ]);
    return c.json(
      {
        items: items.map(({ evaluation, progress, pass_rate }) => ({
          ...publicEvaluation(evaluation),
          progress,
          pass_rate,
          arena: arenaRuns.get(evaluation.id) ?? null,
        })),
      },
      200,
    );
  });

  /** Who did what to which run, for its page's history (issue 28). */
  const audit = (c: Context<Env>, action: string, id: string, detail?: Record<string, unknown>) =>
    recordAudit(db, {
      ...actorOf(c),
      action,
      subjectType: "evaluation",
      subjectId: id,
      ...(detail ? { detail } : {}),
    });

  mountRoute(app, deps, api.start, async (c, { body }) => {
    const started = await startEvaluation({ db, jobs: queue() }, actorOf(c), body, runConfig, {
      via: "api",
    });
    await audit(c, "evaluation.start", started.id, { name: started.name });
    return c.json(publicEvaluation(started), 201);
  });

  mountRoute(app, deps, api.get, async (c, { params }) => {
    const detail = await evaluationDetail(db, c.get("workspace").id, params.id);
    return c.json(
      {
        ...publicEvaluation(detail.evaluation),
        progress: detail.progress,
        summary: detail.summary,
        results: detail.results,
      },
      200,
    );
  });

  mountRoute(app, deps, api.results, async (c, { params, query }) => {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? PAGE_LIMITS.results.default;
    const page = await resultsListPage(db, c.get("workspace").id, params.id, resultFilter(query), {
      offset,
      limit,
    });
    return c.json({ items: page.rows, offset, limit, total: page.total }, 200);
  });

  mountRoute(app, deps, api.result, async (c, { params }) => {
    const result = publicResult(
      await evaluationResult(db, c.get("workspace").id, params.id, params.resultId),
    );
    const diagrams = loopDiagrams(result.rag_tool_calls, deps.config.rag.loops);
    return c.json(diagrams ? { ...result, diagrams } : result, 200);
  });

  mountRoute(app, deps, api.export, async (c, { params, query }) => {
    const { rows } = await filteredResultsPage(
      db,
      c.get("workspace").id,
      params.id,
      resultFilter(query),
    );
    const csv = query.format === "csv";
    return c.body(csv ? resultsCsv(rows) : JSON.stringify(rows.map(publicResult)), 200, {
      "content-type": csv ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="evaluation-${params.id.slice(0, 8)}-results.${query.format}"`,
    });
  });

  mountRoute(app, deps, api.charts, async (c, { params }) =>
    c.json(await evaluationCharts(db, c.get("workspace").id, params.id), 200),
  );

  mountRoute(app, deps, api.delete, async (c, { params }) => {
    if (!(await deleteEvaluation(db, c.get("workspace").id, params.id))) {
      throw new EvaluationNotFoundError("evaluation", params.id);
    }
    await audit(c, "evaluation.delete", params.id);
    return c.body(null, 204);
  });

  const moves = { pause: pauseEvaluation, cancel: cancelEvaluation };
  const move =
    (operation: keyof typeof moves) =>
    async (c: Context<Env>, { params }: { params: { id: string } }) => {
      const moved = await moves[operation]({ db, jobs: queue() }, c.get("workspace").id, params.id);
      await audit(c, `evaluation.${operation}`, moved.id);
      // Streams on the run hear of it now, not at their poller's next (slow, if paused) read.
      feeds.poke(c.get("workspace").id, moved.id);
      return c.json(publicEvaluation(moved), 200);
    };
  // One by one, so each handler is checked against its own route's answers.
  mountRoute(app, deps, api.pause, move("pause"));
  mountRoute(app, deps, api.cancel, move("cancel"));

  mountRoute(app, deps, api.resume, async (c, { params, body }) => {
    const workspaceId = c.get("workspace").id;
    const limit = body.max_cost_usd;
    const moved = await resumeEvaluation(
      { db, jobs: queue() },
      workspaceId,
      params.id,
      limit !== undefined ? { maxCostUsd: limit } : {},
    );
    // A changed limit is part of what was done: the history says who raised or removed it.
    await audit(
      c,
      "evaluation.resume",
      moved.id,
      limit !== undefined ? { max_cost_usd: limit } : undefined,
    );
    feeds.poke(workspaceId, moved.id);
    return c.json(publicEvaluation(moved), 200);
  });

  mountRoute(app, deps, api.retry, async (c, { params, body }) => {
    const workspaceId = c.get("workspace").id;
    const moved = await retryEvaluation({ db, jobs: queue() }, workspaceId, params.id, body.scope);
    await audit(c, "evaluation.retry", moved.id, { scope: body.scope });
    feeds.poke(workspaceId, moved.id);
    return c.json(publicEvaluation(moved), 200);
  });

  mountRoute(app, deps, api.events, async (c, { params }) => {
    const workspaceId = c.get("workspace").id;
    // Refused before any query: a client over its cap costs the database nothing.
    const release = cap.acquire(c.get("user").id);
    if (!release) {
      return c.json(
        {
          error: "too_many_streams",
          message: `You already have ${cap.perUser} live progress streams open, the most one user may. Close a page or client following a run, then try again.`,
        },
        429,
      );
    }
    const controller = new AbortController();
    const events = watchEvaluation(db, feeds, workspaceId, params.id, {
      signal: controller.signal,
    });
    let first: IteratorResult<WatchEvent>;
    try {
      // The first step checks the id, so an unknown one is a plain 404 (app.onError), not an
      // empty stream.
      first = await events.next();
    } catch (error) {
      release();
      throw error;
    }
    // Hono's own error hook would send the error's message (a failed query's SQL and
    // parameters) to the client: failures are caught here instead.
    const stream = streamSSE(c, async (stream) => {
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
      } catch (error) {
        if (stream.aborted) return;
        // A read failed mid-stream (the database went away): logged by SQLSTATE, never the
        // query and its parameters, and the client is told in an `error` event.
        console.error(`[ragjudge] a progress stream failed: ${errorLogSummary(error)}`);
        await stream
          .writeSSE(sseMessage({ event: "error", data: streamFailed }))
          .catch(() => undefined);
      } finally {
        clearInterval(keepAlive);
        controller.abort();
        release();
      }
    });
    return declaredBody(stream, 200);
  });
}
