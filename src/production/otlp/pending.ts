// Spans wait here, per trace, until the trace can be assembled: at once when its root and both a
// retrieval and an LLM span are in, else `waitMs` after its last span arrived (spans come out of
// order and in several requests). Pending spans are worked on in this process's memory, bounded
// by `maxPendingSpans` (past it, exports are refused with 429 so the exporter retries later), and
// the spans of traces left unfinished by a request are written to `pending_spans` before it is
// answered: an export's 2xx means its spans are stored, and a restarted server reads them back and
// waits for the rest. A trace complete within one request (the usual case: an SDK's batch holds
// all its spans) never touches that table.

import type { GateConfig } from "../../gate/index.js";
import {
  type Db,
  deletePendingTraces,
  insertPendingSpans,
  insertRejectedTraces,
  listPendingSpans,
  type NewRejectedTraceRow,
} from "../../store/index.js";
import { AnswerInputSchema } from "../answer-input.js";
import { addAnswerFeedback } from "../feedback.js";
import { type IngestedAnswer, ingestAnswers } from "../ingest.js";
import { type TraceFeedback, traceFeedback } from "./evaluation-events.js";
import { type SpanSummary, summarizeSpans } from "./span-summary.js";
import type { MonitorDispatch } from "../monitors/take-up.js";
import { assembleTrace, isComplete } from "./assemble.js";
import type { OtlpSpan } from "./decode.js";

export const TRACE_DEFAULTS = {
  waitMs: 10_000,
  maxPendingSpans: 200_000,
  maxSpansPerTrace: 2_000,
  /** Traces remembered as stored, so a late span does not reopen one as a trace of its own. */
  rememberStored: 50_000,
} as const;

/** Too many spans are waiting: the caller should answer 429 with Retry-After. */
export class TraceBacklogError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("too many spans are waiting to be assembled into traces");
    this.name = "TraceBacklogError";
  }
  static isInstance(error: unknown): error is TraceBacklogError {
    return error instanceof Error && error.name === "TraceBacklogError";
  }
}

export interface TraceAssemblerOptions {
  db: Db;
  gate?: GateConfig;
  /** production.trace_wait_ms: how long a trace waits for more spans after its last one. */
  waitMs?: number;
  maxPendingSpans?: number;
  maxSpansPerTrace?: number;
  /** Milliseconds now; Date.now by default. */
  clock?: () => number;
  /** A trace whose store failed in the background; it stays pending and is tried again. */
  onError?: (error: unknown) => void;
  /** Metadata keys the rollups break down by (config production.breakdown_keys). */
  breakdownKeys?: readonly string[];
  /** The user's monitors take up the new answers through this. */
  monitors?: MonitorDispatch;
}

export interface TraceCounts {
  pendingTraces: number;
  pendingSpans: number;
  /** Traces stored as answer records (or found already stored). */
  assembled: number;
  /** Traces stored as rejected, with their reason. */
  rejected: number;
}

export interface TraceAssembler {
  /**
   * Adds one request's spans and stores the traces it completes. Throws TraceBacklogError when
   * the spans would not fit, or the store's error (the spans stay pending; a retried export adds
   * nothing twice). Returns how many spans were refused and why.
   */
  add(
    workspaceId: string,
    spans: readonly OtlpSpan[],
  ): Promise<{ rejectedSpans: number; reasons: string[] }>;
  /** Stores every trace whose wait is over. The timer calls it; tests may too. */
  flushDue(): Promise<void>;
  counts(): TraceCounts;
  /** Resolves once the spans stored by an earlier process are read back (add and flushDue wait for it). */
  resumed(): Promise<void>;
  stop(): void;
}

interface PendingTrace {
  workspaceId: string;
  traceId: string;
  spans: Map<string, OtlpSpan>;
  lastSeen: number;
  /** Spans not yet in `pending_spans`. */
  unsaved: Set<string>;
  /** Some of its spans are in `pending_spans`: delete them once it is stored. */
  saved: boolean;
}

export function createTraceAssembler(options: TraceAssemblerOptions): TraceAssembler {
  const waitMs = options.waitMs ?? TRACE_DEFAULTS.waitMs;
  const maxPending = options.maxPendingSpans ?? TRACE_DEFAULTS.maxPendingSpans;
  const maxPerTrace = options.maxSpansPerTrace ?? TRACE_DEFAULTS.maxSpansPerTrace;
  const clock = options.clock ?? Date.now;
  const pending = new Map<string, PendingTrace>();
  let pendingSpans = 0;
  let assembled = 0;
  let rejected = 0;
  let timer: NodeJS.Timeout | undefined;
  let sweeping = false;
  // Insertion-ordered: the oldest is forgotten first.
  const stored = new Set<string>();
  function remember(key: string) {
    stored.add(key);
    if (stored.size > TRACE_DEFAULTS.rememberStored) {
      const oldest = stored.values().next().value;
      if (oldest !== undefined) stored.delete(oldest);
    }
  }

  const keyOf = (workspaceId: string, traceId: string) => `${workspaceId}:${traceId}`;

  // The spans an earlier process stored and did not assemble: read once, before anything else
  // touches the pending traces; a failed read is tried again by the next request.
  let resuming: Promise<void> | undefined;
  function resume(): Promise<void> {
    resuming ??= listPendingSpans(options.db).then(
      (rows) => {
        const now = clock();
        for (const row of rows) {
          const key = keyOf(row.workspaceId, row.traceId);
          if (stored.has(key)) continue;
          let trace = pending.get(key);
          if (!trace) {
            trace = {
              workspaceId: row.workspaceId,
              traceId: row.traceId,
              spans: new Map(),
              lastSeen: now,
              unsaved: new Set(),
              saved: true,
            };
            pending.set(key, trace);
          }
          trace.saved = true;
          if (trace.spans.has(row.spanId)) continue;
          trace.spans.set(row.spanId, row.span as unknown as OtlpSpan);
          pendingSpans += 1;
        }
        startTimer();
      },
      (error: unknown) => {
        resuming = undefined;
        throw error;
      },
    );
    return resuming;
  }
  resume().catch((error: unknown) => options.onError?.(error));

  function take(key: string): PendingTrace | undefined {
    const trace = pending.get(key);
    if (trace) {
      pending.delete(key);
      pendingSpans -= trace.spans.size;
    }
    if (pending.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
    return trace;
  }

  /** Puts back traces whose store failed, merging spans that arrived meanwhile. */
  function restore(traces: readonly PendingTrace[]) {
    for (const trace of traces) {
      const key = keyOf(trace.workspaceId, trace.traceId);
      const current = pending.get(key);
      if (current) {
        current.saved ||= trace.saved;
        for (const [id, span] of trace.spans) {
          if (!current.spans.has(id)) {
            current.spans.set(id, span);
            if (trace.unsaved.has(id)) current.unsaved.add(id);
            pendingSpans += 1;
          }
        }
      } else {
        pending.set(key, trace);
        pendingSpans += trace.spans.size;
      }
    }
    startTimer();
  }

  function startTimer() {
    if (timer || pending.size === 0) return;
    timer = setInterval(() => void sweep(), Math.max(20, Math.min(1_000, Math.floor(waitMs / 4))));
    timer.unref();
  }

  async function sweep() {
    if (sweeping) return;
    sweeping = true;
    try {
      await flushDue();
    } catch (error) {
      options.onError?.(error);
    } finally {
      sweeping = false;
    }
  }

  /** Stores the traces: answers in one batch per user, the rest as rejected with their reason. */
  async function store(traces: readonly PendingTrace[]) {
    const byWorkspace = new Map<string, PendingTrace[]>();
    for (const trace of traces)
      byWorkspace.set(trace.workspaceId, [...(byWorkspace.get(trace.workspaceId) ?? []), trace]);
    for (const [workspaceId, group] of byWorkspace) {
      const answers = [];
      const spanSummaries: SpanSummary[][] = [];
      const feedbacks: TraceFeedback[][] = [];
      const refused: NewRejectedTraceRow[] = [];
      for (const trace of group) {
        const spans = [...trace.spans.values()];
        const result = assembleTrace(spans);
        const reject = (reason: string, service?: string) =>
          refused.push({
            workspace_id: workspaceId,
            trace_id: trace.traceId,
            reason,
            span_count: spans.length,
            service: service ?? null,
          });
        if (!result.ok) {
          reject(result.reason, result.service);
          continue;
        }
        const parsed = AnswerInputSchema.safeParse(result.answer);
        if (parsed.success) {
          answers.push(parsed.data);
          spanSummaries.push(summarizeSpans(spans));
          feedbacks.push(traceFeedback(spans));
        } else {
          const issue = parsed.error.issues[0];
          reject(
            `The answer it describes is not valid: ${issue?.path.join(".") || "(record)"}: ${issue?.message ?? "invalid"}.`,
            result.answer.service,
          );
        }
      }
      const receivedAt = new Date();
      let stored: IngestedAnswer[] = [];
      try {
        if (answers.length > 0) {
          stored = await ingestAnswers(answers, {
            db: options.db,
            workspaceId,
            source: "otlp",
            now: receivedAt,
            spans: spanSummaries,
            ...(options.gate ? { gate: options.gate } : {}),
            ...(options.breakdownKeys ? { breakdownKeys: options.breakdownKeys } : {}),
            ...(options.monitors
              ? { monitors: options.monitors, onMonitorError: options.onError }
              : {}),
          });
        }
        await insertRejectedTraces(options.db, refused);
        await deletePendingTraces(
          options.db,
          group.filter((trace) => trace.saved),
        );
      } catch (error) {
        restore(group);
        throw error;
      }
      // Feedback sent inside the traces (gen_ai.evaluation.result events), on answers new here: a
      // re-sent trace's feedback was stored with its first copy.
      for (const [i, result] of stored.entries()) {
        const answer = answers[i];
        if (result.duplicate || !answer) continue;
        for (const feedback of feedbacks[i] ?? []) {
          await addAnswerFeedback(
            {
              db: options.db,
              ...(options.breakdownKeys ? { breakdownKeys: options.breakdownKeys } : {}),
              ...(options.monitors ? { monitors: options.monitors } : {}),
              ...(options.onError ? { onMonitorError: options.onError } : {}),
            },
            workspaceId,
            {
              id: result.id,
              received_at: receivedAt,
              service: answer.service ?? null,
              collection: answer.collection ?? null,
              model: answer.generation_record.model ?? null,
              metadata: answer.metadata ?? {},
              gate_status: result.gate.status,
            },
            feedback,
          ).catch((error: unknown) => options.onError?.(error));
        }
      }
      assembled += answers.length;
      rejected += refused.length;
      for (const trace of group) remember(keyOf(trace.workspaceId, trace.traceId));
    }
  }

  /** Writes the spans of unfinished traces not stored yet; only then may their request be answered. */
  async function save(traces: readonly PendingTrace[]) {
    const rows = traces.flatMap((trace) =>
      [...trace.unsaved].map((spanId) => ({
        workspaceId: trace.workspaceId,
        traceId: trace.traceId,
        spanId,
        span: trace.spans.get(spanId) as OtlpSpan,
      })),
    );
    if (rows.length === 0) return;
    await insertPendingSpans(options.db, rows);
    for (const trace of traces) {
      trace.unsaved.clear();
      trace.saved = true;
    }
  }

  async function flushDue() {
    await resume();
    const now = clock();
    const due: PendingTrace[] = [];
    for (const [key, trace] of pending) {
      if (now - trace.lastSeen >= waitMs) {
        const taken = take(key);
        if (taken) due.push(taken);
      }
    }
    if (due.length > 0) await store(due);
  }

  async function add(workspaceId: string, spans: readonly OtlpSpan[]) {
    await resume();
    if (pendingSpans + spans.length > maxPending) {
      throw new TraceBacklogError(Math.max(1, Math.ceil(waitMs / 1_000)));
    }
    const now = clock();
    const touched = new Set<string>();
    let refused = 0;
    for (const span of spans) {
      const key = keyOf(workspaceId, span.traceId);
      // A span of a trace stored already (a re-sent export, a straggler): the record stands.
      if (stored.has(key)) continue;
      let trace = pending.get(key);
      if (!trace) {
        trace = {
          workspaceId,
          traceId: span.traceId,
          spans: new Map(),
          lastSeen: now,
          unsaved: new Set(),
          saved: false,
        };
        pending.set(key, trace);
      }
      trace.lastSeen = now;
      touched.add(key);
      if (trace.spans.has(span.spanId)) continue;
      if (trace.spans.size >= maxPerTrace) {
        refused += 1;
        continue;
      }
      trace.spans.set(span.spanId, span);
      trace.unsaved.add(span.spanId);
      pendingSpans += 1;
    }
    const ready: PendingTrace[] = [];
    const waiting: PendingTrace[] = [];
    for (const key of touched) {
      const trace = pending.get(key);
      if (!trace) continue;
      if (isComplete([...trace.spans.values()])) {
        const taken = take(key);
        if (taken) ready.push(taken);
      } else waiting.push(trace);
    }
    startTimer();
    // A failed write leaves its spans unsaved: the exporter's retry writes them.
    await save(waiting);
    if (ready.length > 0) await store(ready);
    return {
      rejectedSpans: refused,
      reasons:
        refused > 0
          ? [`a trace may hold at most ${maxPerTrace} spans (limit maxSpansPerTrace)`]
          : [],
    };
  }

  return {
    add,
    flushDue,
    counts: () => ({ pendingTraces: pending.size, pendingSpans, assembled, rejected }),
    resumed: resume,
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
