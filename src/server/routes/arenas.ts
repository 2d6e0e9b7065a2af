import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import {
  ArenaContestantError,
  ArenaNotFoundError,
  ArenaRequestSchema,
  listArenaRows,
  refreshArena,
  startArena,
} from "../../evals/arena/index.js";
import { QuestionImportError } from "../../evals/questions/index.js";
import { EvaluationNotFoundError, EvaluationRequestError } from "../../evals/runs/index.js";
import { isUuid } from "../../store/index.js";
import {
  type App,
  errorJson,
  jobsUnavailable,
  limitBody,
  type RouteDeps,
  readBody,
} from "../http.js";
import { publicArena } from "../rows.js";

// Seed 002 section 3.2's Auto-Arena over HTTP. Thin: parse, call one evals/arena function, answer.

const BASE = "/api/v1/arenas";

export const ListArenasQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
});

function knownError(c: Context, error: unknown): Response | undefined {
  if (error instanceof ArenaNotFoundError)
    return errorJson(c, 404, "not_found", `No such arena: ${error.id}.`);
  if (error instanceof EvaluationNotFoundError) {
    return errorJson(c, 404, "not_found", `No such ${error.what}: ${error.id}.`);
  }
  if (error instanceof ArenaContestantError) {
    const reason = error.reason;
    return c.json(
      {
        error: "invalid_contestant",
        message: error.message,
        contestant: error.contestant,
        ...(QuestionImportError.isInstance(reason) ? { rows: reason.rows } : {}),
        ...(reason instanceof EvaluationRequestError
          ? {
              issues: [
                { path: reason.field, message: reason.message.slice(reason.field.length + 2) },
              ],
            }
          : {}),
      },
      400,
    );
  }
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

export function arenaRoutes(app: App, deps: RouteDeps) {
  const { db, maxBodyBytes } = deps;
  const runConfig = { ...deps.config, llm: deps.llm };

  app.use(
    `${BASE}/:id`,
    createMiddleware(async (c, next) => {
      const id = c.req.param("id");
      if (id !== undefined && !isUuid(id))
        return errorJson(c, 404, "not_found", `No such arena: ${id}.`);
      await next();
    }),
  );

  app.get(BASE, async (c) => {
    const query = ListArenasQuerySchema.safeParse(c.req.query());
    if (!query.success)
      return errorJson(c, 400, "invalid_query", query.error.issues[0]?.message ?? "");
    const rows = await listArenaRows(db, c.get("user").id, query.data);
    return c.json({ items: rows.map(publicArena) });
  });

  app.post(BASE, limitBody(maxBodyBytes), async (c) => {
    const { jobs } = deps;
    if (!jobs) return jobsUnavailable(c);
    const body = await readBody(c, ArenaRequestSchema);
    if (!body.ok) return body.response;
    return answer(c, async () =>
      c.json(
        publicArena(
          await startArena({ db, jobs }, c.get("user").id, body.value, runConfig, undefined, {
            via: "api",
          }),
        ),
        201,
      ),
    );
  });

  app.get(`${BASE}/:id`, (c) =>
    answer(c, async () => {
      const userId = c.get("user").id;
      const judgeClient = deps.clients(userId).judge;
      const row = await refreshArena(
        { db },
        userId,
        c.req.param("id"),
        judgeClient ? { judgeClient } : {},
      );
      return c.json(publicArena(row));
    }),
  );
}
