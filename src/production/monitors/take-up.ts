// Answers taken up by the user's monitors as they arrive (or as feedback on them arrives): each
// monitor's filter and sample, then its budget for the minute of arrival, decided at once. What
// the budget cannot cover is skipped and counted, never judged later.

import { type Db, listEnabledMonitors, type MonitorRow, takeUpAnswers } from "../../store/index.js";
import { callsPerAnswer, MonitorFilterSchema } from "./definition.js";
import { type FeedbackSeen, type FilterableAnswer, matchesFilter, sampledIn } from "./filter.js";

export interface MonitorDispatch {
  db: Db;
  /**
   * Hands queued judgments to the workers (a job each). Without it, or when it fails, the
   * workers' sweep finds them within a minute.
   */
  send?(judgmentIds: string[]): Promise<void>;
  /** The judges' `repeat` (config.judges.repeat): each LLM judge makes that many calls. */
  repeat?: number;
}

export interface TakeUpResult {
  queued: number;
  skipped: number;
}

/** An answer as stored, with when it arrived (its partition) for the judgment to find it. */
export type StoredForMonitors = FilterableAnswer & { received_at: Date };

function minuteOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000);
}

async function takeUp(
  dispatch: MonitorDispatch,
  monitors: readonly MonitorRow[],
  answers: readonly StoredForMonitors[],
  feedback: (answer: StoredForMonitors) => FeedbackSeen,
  arrivedAt: (answer: StoredForMonitors) => Date,
): Promise<TakeUpResult> {
  const result = { queued: 0, skipped: 0 };
  const queued: string[] = [];
  for (const monitor of monitors) {
    const filter = MonitorFilterSchema.safeParse(monitor.filter);
    if (!filter.success) continue;
    const byMinute = new Map<
      number,
      { matched: number; sampledOut: number; answers: StoredForMonitors[] }
    >();
    for (const answer of answers) {
      if (!matchesFilter(filter.data, answer, feedback(answer))) continue;
      const minute = minuteOf(arrivedAt(answer)).getTime();
      const entry = byMinute.get(minute) ?? { matched: 0, sampledOut: 0, answers: [] };
      byMinute.set(minute, entry);
      entry.matched += 1;
      if (sampledIn(monitor.id, answer.id, monitor.sample_rate)) entry.answers.push(answer);
      else entry.sampledOut += 1;
    }
    for (const [minute, entry] of byMinute) {
      const taken = await takeUpAnswers(dispatch.db, {
        monitor,
        minute: new Date(minute),
        callsPerAnswer: callsPerAnswer(monitor.judges, dispatch.repeat),
        matched: entry.matched,
        sampledOut: entry.sampledOut,
        answers: entry.answers.map((a) => ({ id: a.id, received_at: a.received_at })),
      });
      queued.push(...taken.queued);
      result.queued += taken.queued.length;
      result.skipped += taken.skipped;
    }
  }
  if (queued.length > 0 && dispatch.send) await dispatch.send(queued);
  return result;
}

/**
 * New answers, just stored: monitors without a feedback filter take them up (monitors with one
 * wait for the feedback).
 */
export async function takeUpNewAnswers(
  dispatch: MonitorDispatch,
  workspaceId: string,
  answers: readonly StoredForMonitors[],
): Promise<TakeUpResult> {
  if (answers.length === 0) return { queued: 0, skipped: 0 };
  const monitors = (await listEnabledMonitors(dispatch.db, workspaceId)).filter(
    (monitor) => (monitor.filter as { feedback?: unknown }).feedback === undefined,
  );
  if (monitors.length === 0) return { queued: 0, skipped: 0 };
  return takeUp(
    dispatch,
    monitors,
    answers,
    () => undefined,
    (answer) => answer.received_at,
  );
}

/**
 * Feedback just stored on an answer: monitors with a feedback filter take the answer up, under
 * the budget of the minute the feedback arrived in. An answer a monitor took up before (an
 * earlier feedback) stays as it was.
 */
export async function takeUpOnFeedback(
  dispatch: MonitorDispatch,
  workspaceId: string,
  answer: StoredForMonitors,
  thumb: "up" | "down" | null,
  now = new Date(),
): Promise<TakeUpResult> {
  const monitors = (await listEnabledMonitors(dispatch.db, workspaceId)).filter(
    (monitor) => (monitor.filter as { feedback?: unknown }).feedback !== undefined,
  );
  if (monitors.length === 0) return { queued: 0, skipped: 0 };
  return takeUp(
    dispatch,
    monitors,
    [answer],
    () => ({ thumb }),
    () => now,
  );
}
