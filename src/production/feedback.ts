// Feedback on a production answer, however it arrives (the API, the client, a trace's
// gen_ai.evaluation.result event): stored and summed into its minute's rollups in one statement,
// then offered to the monitors that wait for feedback.

import { type AnswerFeedbackRow, type Db, insertAnswerFeedback } from "../store/index.js";
import {
  type MonitorDispatch,
  type StoredForMonitors,
  takeUpOnFeedback,
} from "./monitors/take-up.js";

export interface FeedbackInput {
  thumb?: "up" | "down" | undefined;
  score?: number | undefined;
  comment?: string | undefined;
}

export interface FeedbackDeps {
  db: Db;
  breakdownKeys?: readonly string[];
  monitors?: MonitorDispatch;
  /** The monitors could not take the answer up; the feedback is stored all the same. */
  onMonitorError?(error: unknown): void;
}

export async function addAnswerFeedback(
  deps: FeedbackDeps,
  workspaceId: string,
  answer: StoredForMonitors,
  feedback: FeedbackInput,
): Promise<AnswerFeedbackRow> {
  const row = await insertAnswerFeedback(
    deps.db,
    {
      workspace_id: workspaceId,
      answer_id: answer.id,
      answer_received_at: answer.received_at,
      thumb: feedback.thumb ?? null,
      score: feedback.score ?? null,
      comment: feedback.comment ?? null,
    },
    deps.breakdownKeys ? { breakdownKeys: deps.breakdownKeys } : {},
  );
  if (deps.monitors) {
    await takeUpOnFeedback(deps.monitors, workspaceId, answer, row.thumb).catch((error: unknown) =>
      deps.onMonitorError?.(error),
    );
  }
  return row;
}
