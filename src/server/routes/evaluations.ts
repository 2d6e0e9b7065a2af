import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import {
  evaluationDetail,
  evaluationResultsPage,
  listEvaluationsWithProgress,
  RESULT_STATUSES,
  RESULTS_PAGE,
  type WatchEvent,
  watchEvaluation,
} from "../../evals/monitor/index.js";
import {
  cancelEvaluation,
  EvaluationNotFoundError,
  EvaluationRequestError,
  EvaluationRequestSchema,
  EvaluationStateError,
  pauseEvaluation,
  resumeEvaluation,
  retryEvaluation,
  startEvaluation,
} from "../../evals/runs/index.js";
import {
  deleteEvaluation,
  type EvaluationRow,
  isUuid,
  type ResultStatus,
} from "../../store/index.js";
import {
  type App,
  errorJson,
  jobsUnavailable,
  limitBody,
  type RouteDeps,
  readBody,
  readOptionalBody,
} from "../http.js";
import { publicEvaluation, publicResult } from "../rows.js";

const BASE = "/api/v1/evaluations";
const SSE_KEEPALIVE_MS = 15_000;

export const RetryRequestSchema = z.object({
  scope: z.enum(["failed", "all"]).default("failed"),
});

const pageNumber = (max: number) => z.coerce.number().int().min(0).max(max).optional();

export const ListEvaluationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: pageNumber(1_000_000),
});

export const ResultsQuerySchema = z.object({
  /** Comma-separated result statuses. */
  status: z
    .string()
    .optional()
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
    }),
  offset: pageNumber(10_000_000),
  limit: z.coerce.number().int().min(1).max(RESULTS_PAGE.max).optional(),
});

function knownError(c: Context, error: unknown): Response | undefined {
  if (error instanceof EvaluationNotFoundError)
    return errorJson(c, 404, "not_found", `No such ${error.what}: ${error.id}.`);
  if (error instanceof EvaluationStateError)
    return errorJson(
      c,
      409,
      "invalid_state",
      `Cannot ${error.operation}: the evaluation is ${error.status}.`,
    );
  if (error instanceof EvaluationRequestError) {
    return c.json(
      {
        error: "invalid_request",
        message: error.message,
        issues: [{ path: error.field, message: error.message.slice(error.field.length + 2) }],
      },
      400,
    );
  }
  return undefined;
}

async function answer(c: Context, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    const response = knownError(c, error);
    if (response) return response;
    throw error;
  }
}

function queryOf<S extends z.ZodType>(c: Context, schema: S) {
  return schema.safeParse(c.req.query());
}

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
  const { db, maxBodyBytes } = deps;
  const runConfig = { ...deps.config, llm: deps.llm };
  const row = (evaluation: EvaluationRow) => publicEvaluation(evaluation);

  // The control functions take ids as they come: a malformed one is simply not found.
  const checkId = createMiddleware(async (c, next) => {
    const id = c.req.param("id");
    if (id !== undefined && !isUuid(id)) {
      return errorJson(c, 404, "not_found", `No such evaluation: ${id}.`);
    }
    await next();
  });
  app.use(`${BASE}/:id`, checkId);
  app.use(`${BASE}/:id/*`, checkId);

  app.get(BASE, async (c) => {
    const query = queryOf(c, ListEvaluationsQuerySchema);
    if (!query.success)
      return errorJson(c, 400, "invalid_query", query.error.issues[0]?.message ?? "");
    const items = await listEvaluationsWithProgress(db, c.get("user").id, query.data);
    return c.json({
      items: items.map(({ evaluation, progress }) => ({ ...row(evaluation), progress })),
    });
  });

  app.post(BASE, limitBody(maxBodyBytes), async (c) => {
    const { jobs } = deps;
    if (!jobs) return jobsUnavailable(c);
    const body = await readBody(c, EvaluationRequestSchema);
    if (!body.ok) return body.response;
    return answer(c, async () =>
      c.json(
        row(
          await startEvaluation({ db, jobs }, c.get("user").id, body.value, runConfig, {
            via: "api",
          }),
        ),
        201,
      ),
    );
  });

  app.get(`${BASE}/:id`, (c) =>
    answer(c, async () => {
      const detail = await evaluationDetail(db, c.get("user").id, c.req.param("id"));
      return c.json({
        ...row(detail.evaluation),
        progress: detail.progress,
        summary: detail.summary,
        results: detail.results.map(publicResult),
      });
    }),
  );

  app.get(`${BASE}/:id/results`, async (c) => {
    const query = queryOf(c, ResultsQuerySchema);
    if (!query.success) {
      const issue = query.error.issues[0];
      return errorJson(c, 400, "invalid_query", `${issue?.path.join(".")}: ${issue?.message}`);
    }
    const { status, offset, limit } = query.data;
    return answer(c, async () => {
      const items = await evaluationResultsPage(db, c.get("user").id, c.req.param("id"), {
        ...(status ? { statuses: status } : {}),
        offset: offset ?? 0,
        limit: limit ?? RESULTS_PAGE.default,
      });
      return c.json({
        items: items.map(publicResult),
        offset: offset ?? 0,
        limit: limit ?? RESULTS_PAGE.default,
      });
    });
  });

  app.delete(`${BASE}/:id`, async (c) => {
    const id = c.req.param("id");
    if (!isUuid(id) || !(await deleteEvaluation(db, c.get("user").id, id))) {
      return errorJson(c, 404, "not_found", `No such evaluation: ${id}.`);
    }
    return c.body(null, 204);
  });

  // Pause and cancel are rows in the database: they need no queue. Resume and retry send jobs.
  const control = {
    pause: pauseEvaluation,
    cancel: cancelEvaluation,
    resume: resumeEvaluation,
  } as const;
  for (const [operation, move] of Object.entries(control)) {
    app.post(`${BASE}/:id/${operation}`, (c) => {
      const jobs = deps.jobs ?? (operation === "resume" ? undefined : { send: async () => {} });
      if (!jobs) return jobsUnavailable(c);
      return answer(c, async () =>
        c.json(row(await move({ db, jobs }, c.get("user").id, c.req.param("id")))),
      );
    });
  }

  app.post(`${BASE}/:id/retry`, limitBody(maxBodyBytes), async (c) => {
    const { jobs } = deps;
    if (!jobs) return jobsUnavailable(c);
    const body = await readOptionalBody(c, RetryRequestSchema);
    if (!body.ok) return body.response;
    return answer(c, async () =>
      c.json(
        row(
          await retryEvaluation(
            { db, jobs },
            c.get("user").id,
            c.req.param("id"),
            body.value.scope,
          ),
        ),
      ),
    );
  });

  app.get(`${BASE}/:id/events`, async (c) => {
    const userId = c.get("user").id;
    const id = c.req.param("id");
    const controller = new AbortController();
    const events = watchEvaluation(db, userId, id, { signal: controller.signal });
    // The first step checks the id, so an unknown one is a plain 404, not an empty stream.
    let first: IteratorResult<WatchEvent>;
    try {
      first = await events.next();
    } catch (error) {
      const response = knownError(c, error);
      if (response) return response;
      throw error;
    }
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
