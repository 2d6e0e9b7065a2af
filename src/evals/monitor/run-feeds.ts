import { setTimeout as sleep } from "node:timers/promises";
import {
  type Db,
  type EvaluationResultRow,
  type EvaluationRow,
  type EvaluationStatus,
  FINAL_RESULT_STATUSES,
  getEvaluation,
  listEvaluationResults,
} from "../../store/index.js";

// One poller per followed run, shared by every live stream on it (issue 22 §3: each stream used
// to read the database every 500 ms on its own, so 1,500 streams from one user slowed every API
// read from 28 ms to seconds). The poller starts with the run's first listener and stops with
// its last; a paused run is read rarely, a finished one not at all.

export const FINAL_RUN_STATUSES: readonly EvaluationStatus[] = ["COMPLETED", "FAILED", "CANCELLED"];

/**
 * A row's update time is the start of its writer's transaction, which may commit after a later
 * writer's: each poll reads again this far behind the newest time seen, and skips rows it sent.
 */
const COMMIT_LAG_MS = 2_000;

export const RUN_FEED_DEFAULTS = {
  intervalMs: 500,
  /** Only a person resumes a paused run, and this server's own resume reads it at once (poke). */
  pausedIntervalMs: 10_000,
} as const;

export interface RunFeedOptions {
  /** How often a pending or running run is read (ms, default 500). */
  intervalMs?: number;
  /** How often a paused run is read (ms, default 10,000). */
  pausedIntervalMs?: number;
  /** A poll failed (the database went away): told once per poller, which then ends. */
  onError?: (error: unknown) => void;
}

/** One poll of a run: its row (undefined once deleted) and the results newly final since. */
export interface FeedTick {
  /** Polls are numbered from 1 when they start, per poller. */
  seq: number;
  row: EvaluationRow | undefined;
  results: EvaluationResultRow[];
}

export type FeedMessage = { kind: "tick"; tick: FeedTick } | { kind: "failed" };

export interface FeedListener {
  /** The number of the last poll started: a tick numbered above it started after this call. */
  seq(): number;
  /** The newest result update time the listener read itself: the poller's first read starts there. */
  seen(newest: number | undefined): void;
  /** Stops listening; the run's last listener stops its poller. */
  stop(): void;
}

export interface RunFeeds {
  /** Listens to the run's poller, starting one if none runs (`row` is the run as just read). */
  listen(
    workspaceId: string,
    row: EvaluationRow,
    listener: (message: FeedMessage) => void,
  ): FeedListener;
  /** Reads the run now: its status was just changed through this server (pause, resume...). */
  poke(workspaceId: string, id: string): void;
  /** Pollers running, their listeners, and polls started since creation. */
  stats(): { pollers: number; listeners: number; polls: number };
}

interface Poller {
  listeners: Set<(message: FeedMessage) => void>;
  seq: number;
  /** The newest result update time read. */
  newest: number | undefined;
  /** Result id -> the update time sent, so a result retried later is sent again. */
  sent: Map<string, number>;
  wake: AbortController;
}

/** Above this many, sent times too old to be read again are dropped. */
const SENT_PRUNE_AT = 1_000;

export function createRunFeeds(db: Db, options: RunFeedOptions = {}): RunFeeds {
  const intervalMs = options.intervalMs ?? RUN_FEED_DEFAULTS.intervalMs;
  const pausedIntervalMs = options.pausedIntervalMs ?? RUN_FEED_DEFAULTS.pausedIntervalMs;
  const pollers = new Map<string, Poller>();
  let polls = 0;
  const keyOf = (workspaceId: string, id: string) => `${workspaceId}:${id}`;

  function broadcast(poller: Poller, message: FeedMessage) {
    for (const listener of poller.listeners) listener(message);
  }

  function forget(key: string, poller: Poller) {
    if (pollers.get(key) === poller) pollers.delete(key);
  }

  async function poll(poller: Poller, workspaceId: string, id: string): Promise<FeedTick> {
    const seq = ++poller.seq;
    polls += 1;
    // The row first: once it is final, the results read after it are all there.
    const row = await getEvaluation(db, workspaceId, id);
    if (!row) return { seq, row, results: [] };
    const rows = await listEvaluationResults(db, workspaceId, id, {
      statuses: [...FINAL_RESULT_STATUSES],
      ...(poller.newest === undefined
        ? {}
        : { updatedAfter: new Date(poller.newest - COMMIT_LAG_MS) }),
    });
    const results: EvaluationResultRow[] = [];
    for (const result of rows) {
      const updated = result.gmt_updated.getTime();
      poller.newest = Math.max(poller.newest ?? updated, updated);
      if (poller.sent.get(result.id) === updated) continue;
      poller.sent.set(result.id, updated);
      results.push(result);
    }
    if (poller.sent.size > SENT_PRUNE_AT) {
      // The next reads start after this horizon: what is older cannot come back.
      const horizon = (poller.newest ?? 0) - COMMIT_LAG_MS;
      for (const [resultId, at] of poller.sent) if (at <= horizon) poller.sent.delete(resultId);
    }
    return { seq, row, results };
  }

  async function run(key: string, poller: Poller, workspaceId: string, id: string, status: string) {
    for (;;) {
      const wait = status === "PAUSED" ? pausedIntervalMs : intervalMs;
      // A poke or the last listener leaving ends the wait early.
      await sleep(wait, undefined, { signal: poller.wake.signal }).catch(() => undefined);
      if (poller.listeners.size === 0) return forget(key, poller);
      poller.wake = new AbortController();
      let tick: FeedTick;
      try {
        tick = await poll(poller, workspaceId, id);
      } catch (error) {
        forget(key, poller);
        options.onError?.(error);
        return broadcast(poller, { kind: "failed" });
      }
      const ended = !tick.row || FINAL_RUN_STATUSES.includes(tick.row.status);
      if (ended) forget(key, poller);
      broadcast(poller, { kind: "tick", tick });
      if (ended) return;
      status = tick.row?.status ?? status;
    }
  }

  return {
    listen(workspaceId, row, listener) {
      const key = keyOf(workspaceId, row.id);
      let poller = pollers.get(key);
      if (!poller) {
        poller = {
          listeners: new Set(),
          seq: 0,
          newest: undefined,
          sent: new Map(),
          wake: new AbortController(),
        };
        pollers.set(key, poller);
        void run(key, poller, workspaceId, row.id, row.status);
      }
      const own = poller;
      own.listeners.add(listener);
      return {
        seq: () => own.seq,
        seen(newest) {
          if (own.seq === 0 && own.newest === undefined) own.newest = newest;
        },
        stop() {
          if (!own.listeners.delete(listener) || own.listeners.size > 0) return;
          forget(key, own);
          own.wake.abort();
        },
      };
    },
    poke(workspaceId, id) {
      pollers.get(keyOf(workspaceId, id))?.wake.abort();
    },
    stats() {
      let listeners = 0;
      for (const poller of pollers.values()) listeners += poller.listeners.size;
      return { pollers: pollers.size, listeners, polls };
    },
  };
}
