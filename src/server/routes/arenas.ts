import { z } from "zod";
import { recordAudit } from "../../store/index.js";
import { actorOf } from "../auth.js";
import {
  ArenaRequestSchema,
  arenaQuestions,
  deleteArenaWithRuns,
  getArenaRow,
  listArenaRows,
  renderArena,
  startArena,
} from "../../evals/arena/index.js";
import type { App, RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import { publicArena } from "../rows.js";
import {
  ArenaListSchema,
  ArenaQuestionsSchema,
  ArenaSchema,
  ErrorSchema,
  FileDownloadSchema,
} from "../schemas/index.js";
import { IdParams, pageLimit, pageOffset } from "./params.js";
import { requestSchema } from "../components.js";

// Seed 002 section 3.2's Auto-Arena over HTTP. Thin: parse, call one evals/arena function, answer;
// typed errors (no such arena, a contestant that does not fit) are mapped in errors.ts.

const BASE = "/api/v1/arenas";
const error = (description: string) => ({ description, schema: ErrorSchema });

export const ListArenasQuerySchema = z.object({
  limit: pageLimit({ default: 100, max: 500 }),
  offset: pageOffset(1_000_000),
});

export const ArenaQuestionsQuerySchema = z.object({
  limit: pageLimit({ default: 100, max: 500 }),
  offset: pageOffset(1_000_000),
});

export const arenaApi = {
  list: defineRoute({
    method: "get",
    path: BASE,
    tags: ["arenas"],
    summary: "List your arenas, newest first",
    query: ListArenasQuerySchema,
    responses: {
      200: { description: "Your arenas", schema: ArenaListSchema },
      400: error("A query parameter out of range"),
    },
  }),
  start: defineRoute({
    method: "post",
    path: BASE,
    tags: ["arenas"],
    summary:
      "Start an arena: contestants (runs reused, answers or bots run now) on one question set",
    body: requestSchema("ArenaRequest", ArenaRequestSchema),
    needsJobs: true,
    responses: {
      201: {
        description:
          "The arena, PENDING until its contestants' runs finish, RUNNING while a worker compares them",
        schema: ArenaSchema,
      },
      400: error("Invalid body, or a contestant that does not fit the set (named with its rows)"),
      404: error("No such question set or evaluation for this user"),
      415: error("The body is not application/json"),
      503: error("The server runs without a job queue"),
    },
  }),
  get: defineRoute({
    method: "get",
    path: `${BASE}/:id`,
    tags: ["arenas"],
    summary:
      "An arena as stored: its results (ratings, intervals, matrix) once COMPLETED; reading never computes",
    params: IdParams,
    resource: "arena",
    responses: {
      200: { description: "The arena with its config snapshot and results", schema: ArenaSchema },
      404: error("No such arena for this user (another user's id too)"),
    },
  }),
  questions: defineRoute({
    method: "get",
    path: `${BASE}/:id/questions`,
    tags: ["arenas"],
    summary:
      "The arena question by question: each contestant's answer, who won each pair, the judge's stored reasoning and position flips",
    params: IdParams,
    query: ArenaQuestionsQuerySchema,
    resource: "arena",
    responses: {
      200: { description: "A page of the set's questions, in order", schema: ArenaQuestionsSchema },
      400: error("A query parameter out of range"),
      404: error("No such arena for this user (another user's id too)"),
    },
  }),
  delete: defineRoute({
    method: "delete",
    path: `${BASE}/:id`,
    tags: ["arenas"],
    summary: "Delete an arena and the runs it started for its contestants (reused runs stay)",
    params: IdParams,
    resource: "arena",
    responses: {
      204: { description: "Deleted" },
      404: error("No such arena for this user (another user's id too)"),
    },
  }),
  report: defineRoute({
    method: "get",
    path: `${BASE}/:id/report.html`,
    tags: ["arenas"],
    summary: "A completed arena's self-contained HTML report (inline SVG charts, no script)",
    params: IdParams,
    resource: "arena",
    responses: {
      200: {
        description: "The report (content-disposition: attachment), one file to share",
        content: { type: "text/html", schema: FileDownloadSchema },
      },
      404: error("No such arena for this user (another user's id too)"),
      409: error("The arena is not COMPLETED: it has no results to report yet"),
    },
  }),
};

export function arenaRoutes(app: App, deps: RouteDeps) {
  const { db } = deps;
  const runConfig = { ...deps.config, llm: deps.llm };

  mountRoute(app, deps, arenaApi.list, async (c, { query }) => {
    const rows = await listArenaRows(db, c.get("workspace").id, query);
    return c.json({ items: rows.map(publicArena) }, 200);
  });

  mountRoute(app, deps, arenaApi.start, async (c, { body }) => {
    // needsJobs has answered 503 already when there is no queue.
    const jobs = deps.jobs ?? { send: async () => {} };
    const row = await startArena({ db, jobs }, actorOf(c), body, runConfig, undefined, {
      via: "api",
    });
    await recordAudit(db, {
      ...actorOf(c),
      action: "arena.start",
      subjectType: "arena",
      subjectId: row.id,
      detail: { name: row.name },
    });
    return c.json(publicArena(row), 201);
  });

  mountRoute(app, deps, arenaApi.get, async (c, { params }) => {
    return c.json(publicArena(await getArenaRow(db, c.get("workspace").id, params.id)), 200);
  });

  mountRoute(app, deps, arenaApi.questions, async (c, { params, query }) => {
    return c.json(
      await arenaQuestions({ db }, c.get("workspace").id, params.id, {
        offset: query.offset ?? 0,
        limit: query.limit ?? 100,
      }),
      200,
    );
  });

  mountRoute(app, deps, arenaApi.delete, async (c, { params }) => {
    await deleteArenaWithRuns(db, c.get("workspace").id, params.id);
    await recordAudit(db, {
      ...actorOf(c),
      action: "arena.delete",
      subjectType: "arena",
      subjectId: params.id,
    });
    return c.body(null, 204);
  });

  mountRoute(app, deps, arenaApi.report, async (c, { params }) => {
    const row = await getArenaRow(db, c.get("workspace").id, params.id);
    if (row.status !== "COMPLETED" || !row.results) {
      return c.json(
        { error: "not_completed", message: `The arena is ${row.status}: no report yet.` },
        409,
      );
    }
    return c.body(renderArena(row, "html"), 200, {
      "content-type": "text/html; charset=utf-8",
      "content-disposition": `attachment; filename="arena-${row.id.slice(0, 8)}.html"`,
    });
  });
}
