import { listEvaluationResults, listQuestions } from "../../store/index.js";
import type { ControlDeps } from "../runs/index.js";
import { collectContestant, type ContestantData } from "./collect.js";
import { LOSS, MISSING, scoreOutcomes, WIN } from "./outcomes.js";
import type { PairwiseVerdict } from "./pairwise-run.js";
import { type ArenaSnapshot, ArenaSnapshotSchema } from "./request.js";
import { type ArenaResults, getArenaRow } from "./service.js";

// An arena question by question (issue 23 §3): who won each pair on each question, every
// contestant's answer and the judge's stored reasoning, and the pairwise judge's position flips.
// Read from the arena's stored verdicts (pairwise) or its runs' stored scores (score judges);
// reading never judges again.

export type QuestionOutcome = "a" | "b" | "tie" | "not_compared" | "judge_error" | "not_stored";

export interface ArenaQuestionPair {
  a: string;
  b: string;
  /** Who won: a, b, a tie; not compared (an answer or a score missing); the judge failed; or the
   * arena was compared before per-question verdicts were kept. */
  outcome: QuestionOutcome;
  /** Pairwise judge: the two orders disagreed (counted as a tie). */
  flipped: boolean | null;
  /** Pairwise judge: its reasoning with a's answer first, then with b's first. */
  reasoning: string[];
  /** The judge's error when it failed on this pair. */
  error: string | null;
}

export interface ArenaQuestionAnswer {
  contestant: string;
  answer: string | null;
  /** The arena's score judge's score (0-1); null for the pairwise judge or without a score. */
  score: number | null;
  /** The score judge's reasoning for this answer, as stored in its run. */
  reasoning: string | null;
}

export interface ArenaQuestionItem {
  question_id: string;
  position: number;
  question_text: string;
  answers: ArenaQuestionAnswer[];
  pairs: ArenaQuestionPair[];
}

export interface ArenaQuestions {
  judge: ArenaSnapshot["judge"];
  contestants: { name: string; source: ArenaSnapshot["contestants"][number]["source"] }[];
  total: number;
  items: ArenaQuestionItem[];
}

const REASONING_KEYS = ["reasoning", "reason", "analysis", "explanation"] as const;

/** A stored judge result's reasoning, whatever the judge's own field is called. */
function reasoningOf(judges: unknown, judge: string): string | null {
  if (typeof judges !== "object" || judges === null) return null;
  const stored = (judges as Record<string, { outcome?: string; verdict?: unknown }>)[judge];
  if (stored?.outcome !== "ok" || typeof stored.verdict !== "object" || stored.verdict === null)
    return null;
  const verdict = stored.verdict as Record<string, unknown>;
  for (const key of REASONING_KEYS) {
    const value = verdict[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return null;
}

const outcomeName = (o: number): QuestionOutcome =>
  o === WIN ? "a" : o === LOSS ? "b" : o === MISSING ? "not_compared" : "tie";

/**
 * A page of the arena's questions in the set's order. Another user's arena is not found; an
 * arena not yet compared has no pairs to show (outcome "not_stored").
 */
export async function arenaQuestions(
  deps: Pick<ControlDeps, "db">,
  workspaceId: string,
  id: string,
  page: { offset: number; limit: number },
): Promise<ArenaQuestions> {
  const row = await getArenaRow(deps.db, workspaceId, id);
  const snapshot = ArenaSnapshotSchema.parse(row.config);
  const results = row.status === "COMPLETED" ? (row.results as unknown as ArenaResults) : null;
  const questions = await listQuestions(deps.db, workspaceId, snapshot.question_set_id);
  const ids = questions.map((q) => q.id);
  const scoreJudge = snapshot.judge === "pairwise" ? null : snapshot.judge;
  const runRows = await Promise.all(
    snapshot.contestants.map((c) => listEvaluationResults(deps.db, workspaceId, c.evaluation_id)),
  );
  const data: ContestantData[] = runRows.map((rows) => collectContestant(ids, rows, scoreJudge));
  const judgesOf = runRows.map((rows) => new Map(rows.map((r) => [r.question_id, r.judges])));
  const names = snapshot.contestants.map((c) => c.name);

  const verdicts = new Map<string, PairwiseVerdict>();
  for (const v of results?.verdicts ?? []) verdicts.set(`${v.a}\n${v.b}\n${v.question_id}`, v);
  const errors = new Map<string, string>();
  for (const e of results?.judge_errors ?? [])
    errors.set(`${e.a}\n${e.b}\n${e.question_id}`, e.message);
  const scoreOutcomesOf = new Map<string, Int8Array>();
  if (scoreJudge) {
    for (let a = 0; a < names.length; a++)
      for (let b = a + 1; b < names.length; b++)
        scoreOutcomesOf.set(
          `${a}:${b}`,
          scoreOutcomes(data[a]!.scores, data[b]!.scores, snapshot.tolerance),
        );
  }

  const pairsOf = (q: number, questionId: string): ArenaQuestionPair[] => {
    const pairs: ArenaQuestionPair[] = [];
    for (let a = 0; a < names.length; a++) {
      for (let b = a + 1; b < names.length; b++) {
        const pair = { a: names[a]!, b: names[b]! };
        if (!results) {
          pairs.push({ ...pair, outcome: "not_stored", flipped: null, reasoning: [], error: null });
        } else if (scoreJudge) {
          const o = scoreOutcomesOf.get(`${a}:${b}`)![q]!;
          pairs.push({
            ...pair,
            outcome: outcomeName(o),
            flipped: null,
            reasoning: [],
            error: null,
          });
        } else {
          const key = `${pair.a}\n${pair.b}\n${questionId}`;
          const verdict = verdicts.get(key);
          const error = errors.get(key) ?? null;
          const bothAnswered = data[a]!.answers[q] !== null && data[b]!.answers[q] !== null;
          pairs.push({
            ...pair,
            outcome: verdict
              ? outcomeName(verdict.outcome)
              : error !== null
                ? "judge_error"
                : !bothAnswered
                  ? "not_compared"
                  : results.verdicts
                    ? "not_compared"
                    : "not_stored",
            flipped: verdict ? verdict.flipped : null,
            reasoning: verdict ? verdict.reasoning.filter((r) => r !== "") : [],
            error,
          });
        }
      }
    }
    return pairs;
  };

  const end = Math.min(questions.length, page.offset + page.limit);
  const items: ArenaQuestionItem[] = [];
  for (let q = page.offset; q < end; q++) {
    const question = questions[q]!;
    items.push({
      question_id: question.id,
      position: q,
      question_text: question.question_text,
      answers: names.map((name, c) => ({
        contestant: name,
        answer: data[c]!.answers[q] ?? null,
        score: Number.isNaN(data[c]!.scores[q]!) ? null : data[c]!.scores[q]!,
        reasoning: scoreJudge ? reasoningOf(judgesOf[c]!.get(question.id), scoreJudge) : null,
      })),
      pairs: pairsOf(q, question.id),
    });
  }
  return {
    judge: snapshot.judge,
    contestants: snapshot.contestants.map((c) => ({ name: c.name, source: c.source })),
    total: questions.length,
    items,
  };
}
