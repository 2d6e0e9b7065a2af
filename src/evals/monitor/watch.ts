import { setTimeout } from "node:timers/promises";
import {
  type Db,
  type EvaluationResultRow,
  type EvaluationStatus,
  FINAL_RESULT_STATUSES,
  getEvaluation,
  listEvaluationResults,
} from "../../store/index.js";
import { type Progress, progressOf } from "../runs/index.js";
import { mustGetEvaluation } from "./views.js";

export type WatchEvent =
  | { event: "progress"; data: Progress & { status: EvaluationStatus } }
  | { event: "result"; data: EvaluationResultRow }
  | { event: "end"; data: { status: EvaluationStatus; deleted?: boolean } };

export interface WatchOptions {
  /** How often the database is read (ms, default 500). */
  intervalMs?: number;
  /** Stops the watch (the client went away). */
  signal?: AbortSignal;
}

const FINAL_RUN_STATUSES: readonly EvaluationStatus[] = ["COMPLETED", "FAILED", "CANCELLED"];

/**
 * A row's update time is the start of its writer's transaction, which may commit after a later
 * writer's: each poll reads again this far behind the newest time seen, and skips rows it sent.
 */
const COMMIT_LAG_MS = 2_000;

/**
 * Follows a run by polling the database, so it works whichever process or machine runs the
 * workers: a `progress` event first and whenever the counters or status change, a `result` event
 * for every result that reached a final status (those already final first, in update order), and
 * `end` once the run is COMPLETED, FAILED or CANCELLED (or deleted). The id is checked before the
 * first event: a foreign or unknown one throws EvaluationNotFoundError.
 */
export async function* watchEvaluation(
  db: Db,
  userId: string,
  id: string,
  options: WatchOptions = {},
): AsyncGenerator<WatchEvent> {
  const intervalMs = options.intervalMs ?? 500;
  const { signal } = options;
  let row = await mustGetEvaluation(db, userId, id);
  /** Result id -> the update time sent, so a result retried later is sent again. */
  const sent = new Map<string, number>();
  let newest: number | undefined;
  let lastProgress = "";

  async function* newResults(): AsyncGenerator<WatchEvent> {
    const rows = await listEvaluationResults(db, userId, id, {
      statuses: [...FINAL_RESULT_STATUSES],
      ...(newest === undefined ? {} : { updatedAfter: new Date(newest - COMMIT_LAG_MS) }),
    });
    for (const result of rows) {
      const updated = result.gmt_updated.getTime();
      newest = Math.max(newest ?? updated, updated);
      if (sent.get(result.id) === updated) continue;
      sent.set(result.id, updated);
      yield { event: "result", data: result };
    }
  }

  function progressEvent(): WatchEvent | undefined {
    const data = { ...progressOf(row), status: row.status };
    const key = `${data.status}:${data.completed}:${data.total}`;
    if (key === lastProgress) return undefined;
    lastProgress = key;
    return { event: "progress", data };
  }

  for (;;) {
    const progress = progressEvent();
    if (progress) yield progress;
    yield* newResults();
    if (FINAL_RUN_STATUSES.includes(row.status)) {
      yield { event: "end", data: { status: row.status } };
      return;
    }
    // An abort ends the wait early; the loop then sees the signal and stops.
    await setTimeout(intervalMs, undefined, { signal }).catch(() => undefined);
    if (signal?.aborted) return;
    const next = await getEvaluation(db, userId, id);
    if (!next) {
      yield { event: "end", data: { status: "CANCELLED", deleted: true } };
      return;
    }
    row = next;
  }
}
