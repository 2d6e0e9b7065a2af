// A monitor's judges on one production answer: the answer's question, hits and answer become a
// judge line, as an evaluation item's do (judges/judge-line.ts). No ground truth: the monitor's
// judges need none.

import {
  type JudgeKind,
  type JudgeOutcome,
  judgeErrorDetailOf,
  judgeFailure,
  judgeLine,
  type JudgesConfig,
} from "../../judges/index.js";
import type { LlmClient } from "../../llm/index.js";
import type { JudgeScore } from "../../store/index.js";

/** What a judgment keeps of each judge: its score, verdict (with its reasoning) or its error. */
export interface StoredJudgeResult {
  outcome: "ok" | "judge_error";
  score: number | null;
  passed: boolean | null;
  model: string;
  verdict: unknown;
  error: string | null;
}

/** What judging reads of a stored answer. */
export interface JudgedAnswer {
  query: string | null;
  answer: string;
  input: { retrieval_hits?: { node_id: string; content: string; source?: string }[] };
}

export interface AnswerJudgment {
  results: Partial<Record<JudgeKind, StoredJudgeResult>>;
  /** The judges that scored, for the rollups. */
  scores: JudgeScore[];
  /** No judge scored. */
  failed: boolean;
}

function stored(outcome: JudgeOutcome): StoredJudgeResult {
  return {
    outcome: outcome.outcome,
    score: outcome.score,
    passed: outcome.passed,
    model: outcome.model,
    verdict: outcome.outcome === "ok" ? outcome.verdict : null,
    error: outcome.outcome === "judge_error" ? outcome.error.message : null,
  };
}

export async function judgeAnswer(
  answer: JudgedAnswer,
  kinds: readonly JudgeKind[],
  options: { client?: LlmClient; config: JudgesConfig; signal?: AbortSignal },
): Promise<AnswerJudgment> {
  const line = {
    question: answer.query?.trim() || "(no question was recorded)",
    answer: answer.answer,
    contexts: (answer.input.retrieval_hits ?? []).map((hit) => ({
      node_id: hit.node_id,
      content: hit.content,
      ...(hit.source ? { source: hit.source } : {}),
    })),
  };
  const results: Partial<Record<JudgeKind, StoredJudgeResult>> = {};
  const scores: JudgeScore[] = [];
  await Promise.all(
    kinds.map(async (kind) => {
      let outcome: JudgeOutcome | undefined;
      try {
        outcome = (
          await judgeLine(line, [kind], {
            ...(options.client ? { client: options.client } : {}),
            config: options.config,
            ...(options.signal ? { signal: options.signal } : {}),
          })
        )[kind];
      } catch (error) {
        // A stop aborts the job: it is retried, not stored as a failure.
        if (options.signal?.aborted) throw error;
        outcome = judgeFailure(
          { name: kind, language: "en", model: options.client?.model ?? "none", calls: [] },
          judgeErrorDetailOf(error),
        );
      }
      if (!outcome) return;
      results[kind] = stored(outcome);
      if (outcome.outcome === "ok") {
        scores.push({ judge: kind, score: outcome.score, passed: outcome.passed });
      }
    }),
  );
  return { results, scores, failed: scores.length === 0 };
}
