// The `evaluation-launch` job: a PENDING run's bot is probed (the run fails fast when it cannot be
// reached), the run goes RUNNING, and one `evaluation-item` job is sent per unfinished question.

import { type Jobs, QUEUES } from "../../jobs/index.js";
import { errorText } from "../../llm/index.js";
import {
  getEvaluationForWorker,
  recountEvaluation,
  transitionEvaluation,
  unfinishedQuestionIds,
} from "../../store/index.js";
import type { RunContexts } from "./run-contexts.js";

export interface LaunchJob {
  evaluation_id: string;
}
export interface ItemJob {
  evaluation_id: string;
  question_id: string;
}

/** Launches (or launches again: it is idempotent) the run `evaluationId`. */
export async function launchRun(
  jobs: Jobs,
  contexts: RunContexts,
  evaluationId: string,
): Promise<void> {
  const db = jobs.store.db;
  let row = await getEvaluationForWorker(db, evaluationId);
  if (!row) return;
  if (row.status === "PENDING") {
    const { bot } = await contexts.contextFor(row);
    try {
      await bot.probe?.(AbortSignal.timeout(10_000));
    } catch (error) {
      const reason = errorText(error);
      await transitionEvaluation(db, row.id, ["PENDING"], "FAILED", {
        status_reason: `the bot cannot be reached: ${reason}`,
      });
      return;
    }
    row = (await transitionEvaluation(db, row.id, ["PENDING"], "RUNNING")) ?? row;
  }
  if (row.status !== "RUNNING") return;
  const ids = await unfinishedQuestionIds(db, row.id);
  if (ids.length === 0) {
    await recountEvaluation(db, row.id);
    return;
  }
  await jobs.send(
    QUEUES.evaluationItem,
    ids.map((question_id) => ({ evaluation_id: row.id, question_id }) satisfies ItemJob),
  );
}
