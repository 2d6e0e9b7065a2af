import { z } from "zod";
import {
  type EvaluationCheck,
  EvaluatorInputSchema,
  guard,
  runEvaluatorPipeline,
} from "../../gate/index.js";
import {
  type EvaluationRecordRow,
  evaluationRecordRepo,
  getEvaluationRecord,
  listEvaluationRecords,
} from "../../store/index.js";
import { type App, errorJson, type RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import {
  ErrorSchema,
  EvaluationRecordListSchema,
  EvaluationRecordSchema,
  GateResponseSchema,
  GuardResponseSchema,
} from "../schemas/index.js";
import { IdParams, PAGE_LIMITS, pageLimit } from "./params.js";
import { requestSchema } from "../components.js";

/** What the API returns for a stored record: everything but the owner and bookkeeping. */
function recordJson(row: EvaluationRecordRow) {
  const { workspace_id: _owner, seq: _seq, check_count: _count, ...record } = row;
  // Stored by the gate from its verdict (gate/schema.ts EvaluationCheck).
  return { ...record, checks: record.checks as EvaluationCheck[] };
}

const error = (description: string) => ({ description, schema: ErrorSchema });

const flag = (description: string) =>
  z
    .enum(["true", "false"])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "true"))
    .describe(description);

export const gateApi = {
  gate: defineRoute({
    method: "post",
    path: "/api/v1/gate",
    tags: ["gate"],
    summary: "Gate one answer on its evidence and store the record",
    body: requestSchema("EvaluatorInput", EvaluatorInputSchema),
    responses: {
      201: { description: "The verdict and the stored record's id", schema: GateResponseSchema },
      400: error("Invalid JSON, or a field that fails validation (named in issues[].path)"),
      413: error("Body too large"),
    },
  }),
  guard: defineRoute({
    method: "post",
    path: "/api/v1/guard",
    tags: ["gate"],
    summary: "Guard one answer before a user sees it: allow, block or repair, with the reasons",
    body: requestSchema("EvaluatorInput", EvaluatorInputSchema),
    query: z.object({
      repair: flag("false: block or allow only, never change the answer (default true)"),
      record: flag("true: also store the gate's record of the answer as given (default false)"),
      lang: z.enum(["en", "zh"]).optional().describe("the language of the reasons (default en)"),
    }),
    responses: {
      200: { description: "The decision, the answer to show and why", schema: GuardResponseSchema },
      400: error("Invalid JSON, or a field that fails validation (named in issues[].path)"),
      413: error("Body too large"),
    },
  }),
  listRecords: defineRoute({
    method: "get",
    path: "/api/v1/evaluation-records",
    tags: ["gate"],
    summary: "List your evaluation records, newest first",
    query: z.object({
      limit: pageLimit(PAGE_LIMITS.records),
      before_seq: z.coerce.number().int().min(0).optional().describe("the page after this seq"),
    }),
    responses: {
      200: { description: "A page of records", schema: EvaluationRecordListSchema },
      400: error("A query parameter out of range"),
    },
  }),
  getRecord: defineRoute({
    method: "get",
    path: "/api/v1/evaluation-records/:id",
    tags: ["gate"],
    summary: "Read one stored evaluation record (another user's id is 404)",
    params: IdParams,
    resource: "evaluation record",
    responses: {
      200: { description: "The record, with its input for replay", schema: EvaluationRecordSchema },
      404: error("No such record for this user"),
    },
  }),
};

export function gateRoutes(app: App, deps: RouteDeps) {
  const { db, config } = deps;
  mountRoute(app, deps, gateApi.gate, async (c, { body }) => {
    const traceId = c.req.header("x-trace-id");
    const result = await runEvaluatorPipeline({
      evaluator_repo: evaluationRecordRepo(db),
      input: body,
      ctx: {
        workspace_id: c.get("workspace").id,
        config: config.gate,
        ...(traceId ? { trace_id: traceId } : {}),
      },
    });
    return c.json({ record_id: result.id, ...result }, 201);
  });

  mountRoute(app, deps, gateApi.guard, async (c, { body, query }) => {
    const result = guard(body, {
      ...(config.gate ? { config: config.gate } : {}),
      repair: query.repair ?? true,
      lang: query.lang ?? "en",
    });
    if (!query.record) return c.json(result, 200);
    // The record is of the answer as given: the audit trail keeps what the system produced.
    const stored = await runEvaluatorPipeline({
      evaluator_repo: evaluationRecordRepo(db),
      input: body,
      ctx: { workspace_id: c.get("workspace").id, ...(config.gate ? { config: config.gate } : {}) },
    });
    return c.json({ ...result, record_id: stored.id }, 200);
  });

  mountRoute(app, deps, gateApi.listRecords, async (c, { query }) => {
    const limit = query.limit ?? PAGE_LIMITS.records.default;
    const rows = await listEvaluationRecords(db, c.get("workspace").id, {
      limit,
      ...(query.before_seq !== undefined ? { beforeSeq: query.before_seq } : {}),
    });
    const last = rows.at(-1);
    return c.json(
      {
        items: rows.map(recordJson),
        next_before_seq: rows.length === limit && last ? last.seq : null,
      },
      200,
    );
  });

  mountRoute(app, deps, gateApi.getRecord, async (c, { params }) => {
    const row = await getEvaluationRecord(db, c.get("workspace").id, params.id);
    if (!row) return errorJson(c, 404, "not_found", "No such evaluation record.");
    return c.json(recordJson(row), 200);
  });
}
