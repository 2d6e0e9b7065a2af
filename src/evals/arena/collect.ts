import type { ContextItem } from "../../judges/index.js";

// A contestant's run, question by question in the set's order: what the comparisons read.

/** The result columns the arena reads (an evaluation_results row). */
export interface ArenaResultRow {
  question_id: string;
  status: string;
  rag_answer: string | null;
  rag_answer_sources: unknown;
  judges: unknown;
}

export const RADAR_DIMENSIONS = ["accuracy", "completeness", "clarity"] as const;
export type RadarDimension = (typeof RADAR_DIMENSIONS)[number];

export interface ContestantData {
  /** The answer per question; null when the run has none (a bot error, a missing question). */
  answers: (string | null)[];
  contexts: ContextItem[][];
  /** Answer length in characters (code points); NaN without an answer. */
  lengths: Float64Array;
  /** The chosen judge's [0, 1] score; NaN when it has none (an error, a defaulted verdict). */
  scores: Float64Array;
  /** Seed 002's rubric dimensions (1-10), averaged: the rubric judge's, else the offline heuristic's. */
  radar: Record<RadarDimension, number | null>;
  /** Questions with a usable answer / with a usable score. */
  answered: number;
  scored: number;
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]/g;

/** Characters as a person counts them: a surrogate pair (an emoji, a rare CJK character) is one. */
function codePoints(text: string): number {
  return text.length - (text.match(HIGH_SURROGATE)?.length ?? 0);
}

interface StoredJudge {
  outcome?: string;
  defaulted?: boolean;
  score?: number;
  verdict?: Record<string, unknown>;
}

function judgeOf(judges: unknown, kind: string): StoredJudge | undefined {
  if (typeof judges !== "object" || judges === null) return undefined;
  const judge = (judges as Record<string, unknown>)[kind];
  return typeof judge === "object" && judge !== null ? (judge as StoredJudge) : undefined;
}

function dimensionOf(judge: StoredJudge | undefined, key: RadarDimension): number | undefined {
  if (!judge || judge.outcome !== "ok" || judge.defaulted) return undefined;
  const verdict = judge.verdict ?? {};
  const direct = verdict[key];
  if (typeof direct === "number") return direct;
  const nested = (verdict.metrics as Record<string, unknown> | undefined)?.[key];
  return typeof nested === "number" ? nested : undefined;
}

function contextsOf(sources: unknown): ContextItem[] {
  if (!Array.isArray(sources)) return [];
  return sources.flatMap((s): ContextItem[] => {
    if (typeof s === "string") return [s];
    if (
      typeof s === "object" &&
      s !== null &&
      typeof (s as { content?: unknown }).content === "string"
    ) {
      const { node_id, content } = s as { node_id?: string; content: string };
      return [{ content, ...(typeof node_id === "string" ? { node_id } : {}) }];
    }
    return [];
  });
}

/**
 * Lines a run's results up with the set's questions. `judge` names the judge whose score is read
 * (score-based comparisons); a pairwise arena reads answers only.
 */
export function collectContestant(
  questionIds: readonly string[],
  rows: readonly ArenaResultRow[],
  judge: string | null,
): ContestantData {
  const byQuestion = new Map(rows.map((row) => [row.question_id, row]));
  const n = questionIds.length;
  const answers: (string | null)[] = new Array<string | null>(n).fill(null);
  const contexts: ContextItem[][] = Array.from({ length: n }, () => []);
  const lengths = new Float64Array(n).fill(Number.NaN);
  const scores = new Float64Array(n).fill(Number.NaN);
  const sums: Record<RadarDimension, { sum: number; n: number }> = {
    accuracy: { sum: 0, n: 0 },
    completeness: { sum: 0, n: 0 },
    clarity: { sum: 0, n: 0 },
  };
  let answered = 0;
  let scored = 0;
  questionIds.forEach((id, q) => {
    const row = byQuestion.get(id);
    if (!row || row.status === "BOT_ERROR" || row.rag_answer === null) return;
    answers[q] = row.rag_answer;
    contexts[q] = contextsOf(row.rag_answer_sources);
    lengths[q] = codePoints(row.rag_answer);
    answered++;
    if (judge !== null && row.status === "SCORED") {
      const stored = judgeOf(row.judges, judge);
      if (stored?.outcome === "ok" && !stored.defaulted && typeof stored.score === "number") {
        scores[q] = stored.score;
        scored++;
      }
    }
    const rubric = judgeOf(row.judges, "rubric");
    const source = rubric?.outcome === "ok" ? rubric : judgeOf(row.judges, "offline");
    for (const key of RADAR_DIMENSIONS) {
      const value = dimensionOf(source, key);
      if (value !== undefined) {
        sums[key].sum += value;
        sums[key].n++;
      }
    }
  });
  const radar = Object.fromEntries(
    RADAR_DIMENSIONS.map((key) => [key, sums[key].n === 0 ? null : sums[key].sum / sums[key].n]),
  ) as Record<RadarDimension, number | null>;
  return { answers, contexts, lengths, scores, radar, answered, scored };
}
