// Spans waiting for the rest of their trace (issue 24 §1.1), kept so that an export answered 2xx
// survives a restart: production/otlp/pending.ts writes a request's spans of unfinished traces
// before answering, deletes a trace's rows once it is stored, and reads them all back at start.

import { sql } from "drizzle-orm";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";
import { columnNames, recordFields, recordset } from "./recordset.js";
import { type JsonObject, pending_spans } from "./schema.js";

export interface PendingSpanRow {
  workspaceId: string;
  traceId: string;
  spanId: string;
  span: JsonObject;
}

const COLUMNS = {
  workspace_id: pending_spans.workspace_id,
  trace_id: pending_spans.trace_id,
  span_id: pending_spans.span_id,
  span: pending_spans.span,
};

/** Stores the spans in one statement; a span already stored (a re-sent export) is kept as it was. */
export async function insertPendingSpans(db: Db, rows: readonly PendingSpanRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => ({
    workspace_id: row.workspaceId,
    trace_id: row.traceId,
    span_id: row.spanId,
    span: row.span,
  }));
  await db.execute(
    sql`insert into ${pending_spans} (${columnNames(COLUMNS)})
      select ${recordFields("r", COLUMNS)} from ${recordset("r", COLUMNS, values)}
      on conflict do nothing`,
  );
}

/** Deletes every stored span of the traces, in one statement. */
export async function deletePendingTraces(
  db: Db,
  traces: readonly { workspaceId: string; traceId: string }[],
): Promise<void> {
  if (traces.length === 0) return;
  const keys = traces.map((t) => ({ workspace_id: t.workspaceId, trace_id: t.traceId }));
  const columns = { workspace_id: pending_spans.workspace_id, trace_id: pending_spans.trace_id };
  await db.execute(
    sql`delete from ${pending_spans} p using ${recordset("k", columns, keys)}
      where p.workspace_id = k.workspace_id and p.trace_id = k.trace_id`,
  );
}

/** Every stored span, oldest trace first: what a starting server resumes. */
export async function listPendingSpans(db: Db): Promise<PendingSpanRow[]> {
  const rows = await queryRows<{
    workspace_id: string;
    trace_id: string;
    span_id: string;
    span: JsonObject | string;
  }>(
    db,
    sql`select workspace_id, trace_id, span_id, span from ${pending_spans} order by received_at, trace_id`,
  );
  return rows.map((row) => ({
    workspaceId: row.workspace_id,
    traceId: row.trace_id,
    spanId: row.span_id,
    span: typeof row.span === "string" ? (JSON.parse(row.span) as JsonObject) : row.span,
  }));
}
