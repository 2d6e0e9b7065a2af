import {
  type Db,
  type EvaluationResultRow,
  type EvaluationRow,
  type EvaluationStatus,
  FINAL_RESULT_STATUSES,
  listEvaluationResults,
} from "../../store/index.js";
import { type Progress, progressOf } from "../runs/index.js";
import { type FeedMessage, FINAL_RUN_STATUSES, type RunFeeds } from "./run-feeds.js";
import { mustGetEvaluation } from "./views.js";

export type WatchEvent =
  | { event: "progress"; data: Progress & { status: EvaluationStatus } }
  | { event: "result"; data: EvaluationResultRow }
  | { event: "end"; data: { status: EvaluationStatus; deleted?: boolean } }
  | { event: "error"; data: { error: "stream_failed"; message: string } };

export interface WatchOptions {
  /** Stops the watch (the client went away). */
  signal?: AbortSignal;
}

/** What a client is told when the run's poller fails (the database went away). */
export const STREAM_FAILED_MESSAGE =
  "The server lost contact with its database, so this stream has ended. Open it again to go on following the run.";

/**
 * Follows a run through its shared poller (run-feeds.ts), so it works whichever process or
 * machine runs the workers: a `progress` event first and whenever the counters or status change,
 * a `result` event for every result that reached a final status (those already final first), and
 * `end` once the run is COMPLETED, FAILED or CANCELLED (or deleted); `error` if a poll fails. The
 * id is checked before the first event: a foreign or unknown one throws EvaluationNotFoundError.
 */
export async function* watchEvaluation(
  db: Db,
  feeds: RunFeeds,
  workspaceId: string,
  id: string,
  options: WatchOptions = {},
): AsyncGenerator<WatchEvent> {
  const { signal } = options;
  const row = await mustGetEvaluation(db, workspaceId, id);
  const finalResults = () =>
    listEvaluationResults(db, workspaceId, id, { statuses: [...FINAL_RESULT_STATUSES] });
  let lastProgress = "";
  function progressEvent(of: EvaluationRow): WatchEvent | undefined {
    const data = { ...progressOf(of), status: of.status };
    const key = `${data.status}:${data.completed}:${data.total}`;
    if (key === lastProgress) return undefined;
    lastProgress = key;
    return { event: "progress", data };
  }
  const resultEvents = (rows: readonly EvaluationResultRow[]) =>
    rows.map((result): WatchEvent => ({ event: "result", data: result }));

  if (FINAL_RUN_STATUSES.includes(row.status)) {
    // A finished run replays its results and ends: nothing to poll.
    const results = await finalResults();
    yield progressEvent(row)!;
    yield* resultEvents(results);
    yield { event: "end", data: { status: row.status } };
    return;
  }

  // Listen before reading what is already final, so nothing finished in between is missed.
  const inbox: FeedMessage[] = [];
  let wakeUp: (() => void) | undefined;
  const feed = feeds.listen(workspaceId, row, (message) => {
    inbox.push(message);
    wakeUp?.();
  });
  const onAbort = () => wakeUp?.();
  signal?.addEventListener("abort", onAbort);
  try {
    const listenedAt = feed.seq();
    const initial = await finalResults();
    feed.seen(
      initial.reduce<number | undefined>(
        (newest, r) => Math.max(newest ?? 0, r.gmt_updated.getTime()),
        undefined,
      ),
    );
    // A tick started before this read may bring some of these rows again; one started after it
    // cannot (its window covers them, and the poller sends each once), so the map can go then.
    let replayed: Map<string, number> | undefined = new Map(
      initial.map((r) => [r.id, r.gmt_updated.getTime()]),
    );
    const readAt = feed.seq();
    yield progressEvent(row)!;
    yield* resultEvents(initial);
    for (;;) {
      while (inbox.length === 0 && !signal?.aborted) {
        await new Promise<void>((resolve) => (wakeUp = resolve));
        wakeUp = undefined;
      }
      const message = inbox.shift();
      if (!message || signal?.aborted) return;
      if (message.kind === "failed") {
        yield { event: "error", data: { error: "stream_failed", message: STREAM_FAILED_MESSAGE } };
        return;
      }
      const { tick } = message;
      if (!tick.row) {
        yield { event: "end", data: { status: "CANCELLED", deleted: true } };
        return;
      }
      const final = FINAL_RUN_STATUSES.includes(tick.row.status);
      // A tick begun before this stream listened may hold an older row than the one shown.
      const progress = tick.seq > listenedAt || final ? progressEvent(tick.row) : undefined;
      if (progress) yield progress;
      const seen = replayed;
      yield* resultEvents(tick.results.filter((r) => seen?.get(r.id) !== r.gmt_updated.getTime()));
      if (tick.seq > readAt) replayed = undefined;
      if (final) {
        yield { event: "end", data: { status: tick.row.status } };
        return;
      }
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    feed.stop();
  }
}
