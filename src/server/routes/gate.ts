import { EvaluatorInputSchema, runEvaluatorPipeline } from "../../gate/index.js";
import {
  type EvaluationRecordRow,
  evaluationRecordRepo,
  getEvaluationRecord,
  listEvaluationRecords,
} from "../../store/index.js";
import { type App, errorJson, limitBody, type RouteDeps, readBody } from "../http.js";

/** What the API returns for a stored record: everything but the owner and bookkeeping. */
function recordJson(row: EvaluationRecordRow) {
  const { user_id: _owner, seq: _seq, check_count: _count, ...record } = row;
  return record;
}

export function gateRoutes(app: App, { db, config, maxBodyBytes }: RouteDeps) {
  app.post("/api/v1/gate", limitBody(maxBodyBytes), async (c) => {
    const body = await readBody(c, EvaluatorInputSchema);
    if (!body.ok) return body.response;
    const traceId = c.req.header("x-trace-id");
    const result = await runEvaluatorPipeline({
      evaluator_repo: evaluationRecordRepo(db),
      input: body.value,
      ctx: {
        user_id: c.get("user").id,
        config: config.gate,
        ...(traceId ? { trace_id: traceId } : {}),
      },
    });
    return c.json({ record_id: result.id, ...result }, 201);
  });

  app.get("/api/v1/evaluation-records", async (c) => {
    const limit = Number(c.req.query("limit") ?? 50);
    const before = c.req.query("before_seq");
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      return errorJson(c, 400, "invalid_query", "limit must be an integer from 1 to 500");
    }
    if (before !== undefined && !/^\d+$/.test(before)) {
      return errorJson(c, 400, "invalid_query", "before_seq must be a positive integer");
    }
    const rows = await listEvaluationRecords(db, c.get("user").id, {
      limit,
      ...(before !== undefined ? { beforeSeq: Number(before) } : {}),
    });
    const last = rows.at(-1);
    return c.json({
      items: rows.map(recordJson),
      next_before_seq: rows.length === limit && last ? last.seq : null,
    });
  });

  app.get("/api/v1/evaluation-records/:id", async (c) => {
    const row = await getEvaluationRecord(db, c.get("user").id, c.req.param("id"));
    if (!row) return errorJson(c, 404, "not_found", "No such evaluation record.");
    return c.json(recordJson(row));
  });
}
