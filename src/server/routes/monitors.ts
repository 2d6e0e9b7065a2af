import { z } from "zod";
import {
  BUCKETS,
  MAX_BUCKETS,
  MONITOR_JUDGES,
  MonitorFilterSchema,
  MonitorInputSchema,
  readMonitorSeries,
  seriesRange,
} from "../../production/index.js";
import {
  deleteMonitor,
  getMonitor,
  insertMonitor,
  listMonitors,
  listRollupScopes,
  monitorCounts,
  type MonitorCounts,
  type MonitorRow,
  updateMonitor,
} from "../../store/index.js";
import { type App, errorJson, type RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import {
  ErrorSchema,
  MonitorDeletedSchema,
  MonitorListSchema,
  MonitorSchema,
  MonitorSeriesSchema,
  ProductionScopesSchema,
} from "../schemas/index.js";
import { IdParams } from "./params.js";

// Monitors (issue 24 §2) and the monitor's charts (§3): which production answers to judge after
// the gate, and a service's or collection's answers over time, read from per-minute rollups.

const error = (description: string) => ({ description, schema: ErrorSchema });

export const monitorApi = {
  list: defineRoute({
    method: "get",
    path: "/api/v1/monitors",
    tags: ["production"],
    summary: "Your monitors, with what each did in the last 24 hours",
    responses: {
      200: { description: "The monitors", schema: MonitorListSchema },
    },
  }),
  create: defineRoute({
    method: "post",
    path: "/api/v1/monitors",
    tags: ["production"],
    summary: "Create a monitor: a filter, a sample rate, judges and a budget of LLM calls",
    body: MonitorInputSchema,
    responses: {
      201: { description: "The monitor", schema: MonitorSchema },
      400: error("A field that fails validation (named in issues[].path)"),
    },
  }),
  get: defineRoute({
    method: "get",
    path: "/api/v1/monitors/:id",
    tags: ["production"],
    summary: "One monitor",
    params: IdParams,
    resource: "monitor",
    responses: {
      200: { description: "The monitor", schema: MonitorSchema },
      404: error("No such monitor for this user"),
    },
  }),
  update: defineRoute({
    method: "put",
    path: "/api/v1/monitors/:id",
    tags: ["production"],
    summary: "Change a monitor; answers it took up before stay as they were",
    params: IdParams,
    resource: "monitor",
    body: MonitorInputSchema,
    responses: {
      200: { description: "The monitor", schema: MonitorSchema },
      400: error("A field that fails validation (named in issues[].path)"),
      404: error("No such monitor for this user"),
    },
  }),
  remove: defineRoute({
    method: "delete",
    path: "/api/v1/monitors/:id",
    tags: ["production"],
    summary: "Delete a monitor and its judgments",
    params: IdParams,
    resource: "monitor",
    responses: {
      200: { description: "Deleted", schema: MonitorDeletedSchema },
      404: error("No such monitor for this user"),
    },
  }),
  series: defineRoute({
    method: "get",
    path: "/api/v1/production/series",
    tags: ["production"],
    summary:
      "A service's or collection's answers over time, each bucket beside the period before, from per-minute rollups",
    query: z.object({
      service: z.string().max(256).optional().describe("only this service"),
      collection: z.string().max(256).optional().describe("only this collection"),
      bucket: z.enum(["minute", "hour", "day"]).default("hour"),
      from: z.iso
        .datetime({ offset: true })
        .optional()
        .describe("start (ISO time); default a day of hours, an hour of minutes or 30 days"),
      to: z.iso
        .datetime({ offset: true })
        .optional()
        .describe("end (ISO time, exclusive); default now"),
      breakdown: z
        .string()
        .max(140)
        .regex(
          /^(model|collection|service|metadata\.[^\s]+)$/,
          "model, collection, service or metadata.KEY",
        )
        .default("model")
        .describe("what the breakdown table groups by: model, collection, service or metadata.KEY"),
    }),
    responses: {
      200: { description: "The series", schema: MonitorSeriesSchema },
      400: error("A query parameter out of range"),
    },
  }),
  scopes: defineRoute({
    method: "get",
    path: "/api/v1/production/scopes",
    tags: ["production"],
    summary: "The services and collections your answers of the last 30 days came from",
    responses: { 200: { description: "The choices", schema: ProductionScopesSchema } },
  }),
};

const DAY_MS = 86_400_000;
const NO_COUNTS: MonitorCounts = {
  matched: 0,
  sampled_out: 0,
  skipped: 0,
  llm_calls: 0,
  queued: 0,
  running: 0,
  done: 0,
  failed: 0,
};

function monitorJson(row: MonitorRow, counts: MonitorCounts | undefined) {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    filter: MonitorFilterSchema.parse(row.filter),
    sample_rate: row.sample_rate,
    judges: row.judges as (typeof MONITOR_JUDGES)[number][],
    max_calls_per_minute: row.max_calls_per_minute,
    max_calls_per_day: row.max_calls_per_day,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    last_24h: counts ?? NO_COUNTS,
  };
}

export function monitorRoutes(app: App, deps: RouteDeps) {
  const { db } = deps;
  const since = () => new Date(Date.now() - DAY_MS);
  const withCounts = async (row: MonitorRow) =>
    monitorJson(row, (await monitorCounts(db, [row.id], since())).get(row.id));

  mountRoute(app, deps, monitorApi.list, async (c) => {
    const rows = await listMonitors(db, c.get("workspace").id);
    const counts = await monitorCounts(
      db,
      rows.map((row) => row.id),
      since(),
    );
    return c.json({ items: rows.map((row) => monitorJson(row, counts.get(row.id))) }, 200);
  });
  mountRoute(app, deps, monitorApi.create, async (c, { body }) => {
    const row = await insertMonitor(db, c.get("workspace").id, body);
    return c.json(monitorJson(row, undefined), 201);
  });
  mountRoute(app, deps, monitorApi.get, async (c, { params }) => {
    const row = await getMonitor(db, c.get("workspace").id, params.id);
    if (!row) return errorJson(c, 404, "not_found", "No such monitor.");
    return c.json(await withCounts(row), 200);
  });
  mountRoute(app, deps, monitorApi.update, async (c, { params, body }) => {
    const row = await updateMonitor(db, c.get("workspace").id, params.id, body);
    if (!row) return errorJson(c, 404, "not_found", "No such monitor.");
    return c.json(await withCounts(row), 200);
  });
  mountRoute(app, deps, monitorApi.remove, async (c, { params }) => {
    const deleted = await deleteMonitor(db, c.get("workspace").id, params.id);
    if (!deleted) return errorJson(c, 404, "not_found", "No such monitor.");
    return c.json({ deleted: true as const }, 200);
  });
  mountRoute(app, deps, monitorApi.series, async (c, { query }) => {
    const range = seriesRange({
      bucket: query.bucket,
      ...(query.from ? { from: new Date(query.from) } : {}),
      ...(query.to ? { to: new Date(query.to) } : {}),
    });
    if (range.from >= range.to) {
      return errorJson(c, 400, "validation_failed", "from: must be before to.");
    }
    if (range.count > MAX_BUCKETS) {
      return errorJson(
        c,
        400,
        "validation_failed",
        `from: at most ${MAX_BUCKETS} buckets of a ${query.bucket} (${Math.round((MAX_BUCKETS * BUCKETS[query.bucket]) / 3600)} hours) in one read.`,
      );
    }
    const breakdown = query.breakdown.startsWith("metadata.")
      ? { meta: query.breakdown.slice("metadata.".length) }
      : (query.breakdown as "model" | "collection" | "service");
    const series = await readMonitorSeries(db, c.get("workspace").id, {
      scope: {
        ...(query.service !== undefined ? { service: query.service } : {}),
        ...(query.collection !== undefined ? { collection: query.collection } : {}),
      },
      bucket: query.bucket,
      from: range.from,
      to: range.to,
      breakdown,
    });
    return c.json(series, 200);
  });
  mountRoute(app, deps, monitorApi.scopes, async (c) => {
    const scopes = await listRollupScopes(
      db,
      c.get("workspace").id,
      new Date(Date.now() - 30 * DAY_MS),
    );
    return c.json({ ...scopes, breakdown_keys: [...deps.production.breakdownKeys] }, 200);
  });
}
