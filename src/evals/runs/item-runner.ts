// The `evaluation-item` job, one question of a run: claimed (when fetched, a batch in one
// statement), held to the run's cost limit, run (bot → gate → judges), finished (its result written
// and the run's counts recounted in one statement), and released back to PENDING if it cannot end.
// The store's side of each step is store/evaluation-items.ts.

import type { Jobs } from "../../jobs/index.js";
import { formatUsd, sleep } from "../../llm/index.js";
import {
  claimResults,
  finishResults,
  getEvaluationForWorker,
  groupCommit,
  releaseResult,
  reserveItemCost,
  type ResultClaim,
  type ResultFinish,
  settleItemCost,
  transitionEvaluation,
} from "../../store/index.js";
import { suppliedAnswerBot } from "../bots/index.js";
import type { ItemJob } from "./launch.js";
import type { RunContexts } from "./run-contexts.js";
import { ItemAbortedError, runItem } from "./run-item.js";
import type { InFlightItems } from "./watchers.js";

export interface ItemRunnerOptions {
  jobs: Jobs;
  contexts: RunContexts;
  inFlight: InFlightItems;
  /** How long an item waits for the budget held by others in flight before it asks again (ms). */
  waitMs: number;
  /** Consecutive unreachable-bot errors, with nothing scored yet, that fail a run. */
  failFastAfter: number;
  /** True once the worker stops: an item aborted then is failed, so another worker retries it. */
  stopping(): boolean;
}

export interface ItemRunner {
  /** Claims the fetched jobs' items at once, so a slot that frees starts its next item at once. */
  preclaim(fetched: { id: string; data: ItemJob }[]): void;
  /** Runs one item; `release` frees its slot as soon as the bot and the judges are done. */
  run(jobId: string, job: ItemJob, release: () => void): Promise<void>;
  stop(): void;
}

export function itemRunner(options: ItemRunnerOptions): ItemRunner {
  const { jobs, contexts, inFlight } = options;
  const db = jobs.store.db;
  // Claims and result writes of items that end together go in one statement each (on PGlite
  // every statement costs the whole process CPU; on a server, a round trip).
  const lanes = jobs.store.kind === "pglite" ? 1 : 2;
  const claim = groupCommit((claims: ResultClaim[]) => claimResults(db, claims), { lanes });
  const finish = groupCommit((finishes: ResultFinish[]) => finishResults(db, finishes), { lanes });

  async function claimItem(jobId: string, job: ItemJob) {
    // The claim itself checks that the run is RUNNING: a paused run's items stay PENDING (resume
    // enqueues them again) and a final run's are done, so the cached row may be stale.
    const cached = contexts.cached(job.evaluation_id);
    const row = cached ? (await cached).row : await getEvaluationForWorker(db, job.evaluation_id);
    if (!row || (!cached && row.status !== "RUNNING")) return null;
    const item = { evaluationId: job.evaluation_id, questionId: job.question_id, jobId };
    const claimed = await claim(item);
    return claimed ? { row, item, claimed } : null;
  }

  /**
   * Items are claimed when fetched, a batch in one statement, so a slot that frees starts its next
   * item at once: claimed when the slot freed, an item waited behind the result writes in the
   * database (on PGlite about 7 ms of a 160 ms item). A claim holds the row for this job id only;
   * a fetched job that never starts (this worker stops) is retried under the same id.
   */
  const preclaims = new Map<string, ReturnType<typeof claimItem>>();
  function preclaim(fetched: { id: string; data: ItemJob }[]): void {
    for (const job of fetched) {
      const claimed = claimItem(job.id, job.data);
      claimed.catch(() => {}); // run awaits it and reports the error
      preclaims.set(job.id, claimed);
    }
  }

  async function run(jobId: string, job: ItemJob, release: () => void): Promise<void> {
    const preclaimed = preclaims.get(jobId);
    preclaims.delete(jobId);
    const claimedItem = await (preclaimed ?? claimItem(jobId, job));
    if (!claimedItem) return;
    const { row, item, claimed } = claimedItem;
    // Claimed a moment ago at most; the run may have been paused or cancelled since (the watcher
    // then dropped its context). Its item goes back to PENDING, as in-flight ones do.
    if (preclaimed && !contexts.cached(row.id)) {
      const now = await getEvaluationForWorker(db, row.id);
      if (now?.status !== "RUNNING") {
        await releaseResult(db, job.evaluation_id, job.question_id, jobId);
        return;
      }
    }
    const context = await contexts.contextFor(row);
    const { controller, end } = inFlight.start(row.id);
    const limit = context.snapshot.max_cost_usd;
    let reservedUsd = 0;
    let settled = false;
    try {
      if (limit !== null) {
        const reserved = await reserveWithin(row.id, controller.signal);
        if (reserved === null) {
          // The run left RUNNING: a resume may bring a new limit, so its snapshot is read again.
          contexts.drop(row.id);
          await releaseResult(db, job.evaluation_id, job.question_id, jobId);
          return;
        }
        reservedUsd = reserved;
      }
      const { write, botError, cost } = await runItem({
        question: claimed,
        bot:
          context.snapshot.bot.kind === "answers"
            ? suppliedAnswerBot(claimed.supplied_answer)
            : context.bot,
        snapshot: context.snapshot,
        ...(context.clients.judge ? { judgeClient: context.clients.judge } : {}),
        signal: controller.signal,
      });
      // The bot and the judges are done: the next item may start while this one's result is
      // written (group-committed with others'), which keeps the write off the items' critical path.
      release();
      const outcome = await finish({ ...item, write });
      if (limit !== null) {
        settled = true;
        await settleItemCost(db, row.id, reservedUsd, outcome.written ? (cost?.cost_usd ?? 0) : 0);
        if (outcome.written && cost && cost.unpriced_models.length > 0) {
          // Tokens without a price cannot be held to a limit: say so rather than run on blind.
          await transitionEvaluation(db, row.id, ["RUNNING"], "PAUSED", {
            status_reason: `cost limit ${formatUsd(limit)} cannot be kept: no price for ${cost.unpriced_models.join(", ")} (add it under "prices" in the config)`,
          });
        }
      }
      const counts = outcome.evaluation;
      if (
        counts &&
        botError === "unreachable" &&
        counts.scored_questions === 0 &&
        counts.bot_error_count >= options.failFastAfter &&
        counts.bot_error_count === counts.completed_questions
      ) {
        await transitionEvaluation(db, row.id, ["RUNNING"], "FAILED", {
          status_reason: `the bot is unreachable: ${write.error}`,
        });
      }
      if (counts && counts.status !== "RUNNING") contexts.drop(row.id);
    } catch (error) {
      if (limit !== null && !settled) await settleItemCost(db, row.id, reservedUsd, null);
      await releaseResult(db, job.evaluation_id, job.question_id, jobId);
      // Aborted by pause or cancel: the item waits, PENDING, for resume. Aborted because this
      // worker stops: fail the job so pg-boss hands it to another worker.
      if (error instanceof ItemAbortedError && !options.stopping()) return;
      throw error;
    } finally {
      end();
    }
  }

  /**
   * Holds a conservative estimate of the item's cost against the run's limit before it starts
   * (store/evaluation-budget.ts), the limit as the run's row holds it now, not as this item's
   * snapshot read it. While items in flight hold the budget this one waits for them;
   * when nothing is in flight and the estimate still passes the limit, the run is paused, saying
   * so. Returns the USD reserved, or null when the item must not start.
   */
  async function reserveWithin(evaluationId: string, signal: AbortSignal): Promise<number | null> {
    const reason = (limitUsd: number) =>
      `cost limit ${formatUsd(limitUsd)} reached: the next question could pass it`;
    for (;;) {
      if (signal.aborted) throw new ItemAbortedError("the run was paused or cancelled");
      const reservation = await reserveItemCost(db, evaluationId, reason);
      if (reservation.admitted) return reservation.reservedUsd;
      if (reservation.outcome !== "wait") return null;
      await sleep(options.waitMs, signal).catch(() => {});
    }
  }

  return { preclaim, run, stop: () => preclaims.clear() };
}
