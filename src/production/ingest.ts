// Every production answer is gated as it arrives (deterministic and cheap), then stored with its
// verdict: one statement per batch, each answer once however often it is sent.

import { evaluateGate, type GateAction, type GateConfig, type GateStatus } from "../gate/index.js";
import { type Db, insertAnswerRecords, type NewAnswerRecordRow } from "../store/index.js";
import type { AnswerInput } from "./answer-input.js";
import { type MonitorDispatch, takeUpNewAnswers } from "./monitors/take-up.js";

export type AnswerSource = NewAnswerRecordRow["source"];

export interface IngestedAnswer {
  id: string;
  /** Stored before under the same (conversation_id, message_id): nothing new was written. */
  duplicate: boolean;
  gate: { status: GateStatus; action: GateAction };
}

export interface IngestOptions {
  db: Db;
  workspaceId: string;
  source: AnswerSource;
  /** The gate's base configuration (the config file's `gate` section). */
  gate?: GateConfig;
  /** When the answers were received; the server's clock. */
  now?: Date;
  /** Metadata keys the rollups break down by (config production.breakdown_keys). */
  breakdownKeys?: readonly string[];
  /** The user's monitors take up the new answers through this. */
  monitors?: MonitorDispatch;
  /**
   * Taking answers up for monitors failed: they are stored and gated, but no monitor judges them.
   * Reported here rather than failing the request, whose retry would find them stored.
   */
  onMonitorError?(error: unknown): void;
  /** Each answer's spans in short, by position (OpenTelemetry traces only). */
  spans?: readonly (unknown[] | undefined)[];
}

function rowOf(answer: AnswerInput, options: IngestOptions, receivedAt: Date): NewAnswerRecordRow {
  const verdict = evaluateGate(answer, options.gate);
  const {
    session_id,
    trace_id,
    service,
    collection,
    latency_ms,
    usage,
    metadata,
    config: _override,
    ...input
  } = answer;
  return {
    received_at: receivedAt,
    workspace_id: options.workspaceId,
    source: options.source,
    conversation_id: answer.conversation_id,
    message_id: answer.message_id,
    session_id: session_id ?? null,
    trace_id: trace_id ?? null,
    service: service ?? null,
    collection: collection ?? null,
    model: answer.generation_record.model ?? null,
    query: answer.retrieval_record.query ?? null,
    answer: answer.generation_output.answer,
    input,
    latency_ms: latency_ms ?? null,
    prompt_tokens: usage?.prompt_tokens ?? null,
    completion_tokens: usage?.completion_tokens ?? null,
    metadata: metadata ?? {},
    gate_status: verdict.status,
    gate_action: verdict.action,
    rule_version: verdict.rule_version,
    checks: verdict.checks,
    scores: verdict.scores,
  };
}

/** Gates and stores a batch of valid answers; the results are in the answers' order. */
export async function ingestAnswers(
  answers: readonly AnswerInput[],
  options: IngestOptions,
): Promise<IngestedAnswer[]> {
  const receivedAt = options.now ?? new Date();
  const rows = answers.map((answer, i) => ({
    ...rowOf(answer, options, receivedAt),
    spans: options.spans?.[i] ?? null,
  }));
  const stored = await insertAnswerRecords(
    options.db,
    rows,
    options.breakdownKeys ? { breakdownKeys: options.breakdownKeys } : {},
  );
  if (options.monitors) {
    const fresh = stored.flatMap((result, i) => {
      const row = rows[i];
      return !result.duplicate && row
        ? [
            {
              id: result.id,
              received_at: row.received_at,
              service: row.service ?? null,
              collection: row.collection ?? null,
              model: row.model ?? null,
              metadata: row.metadata as Record<string, unknown>,
              gate_status: row.gate_status,
            },
          ]
        : [];
    });
    await takeUpNewAnswers(options.monitors, options.workspaceId, fresh).catch((error: unknown) =>
      options.onMonitorError?.(error),
    );
  }
  return stored.map((result, i) => ({
    ...result,
    gate: { status: rows[i]?.gate_status ?? "skipped", action: rows[i]?.gate_action ?? "show" },
  }));
}
