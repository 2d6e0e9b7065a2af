import { DEFAULT_JUDGES_CONFIG } from "../../src/judges/index.js";
import {
  claimResults,
  createEvaluation,
  type Db,
  type EvaluationRow,
  finishResults,
  NO_OUTPUTS,
  transitionEvaluation,
} from "../../src/store/index.js";

/** One answered question of a stored run and what its judge said (or that it errored). */
export interface StoredItem {
  question: string;
  answer: string;
  /** The judge's raw score and verdict, or "error" for a judge_error. */
  judge: { raw: number; passed: boolean } | "error";
  sources?: { node_id: string; content: string }[];
}

/**
 * A COMPLETED run written through the same store calls the evaluation worker makes (create,
 * claim, finish), with one judge's results in the stored JudgeResult shape.
 */
export async function storeFinishedRun(
  db: Db,
  workspaceId: string,
  items: readonly StoredItem[],
  judge: "rubric" | "reference" | "offline" = "rubric",
  /** Who made the run; by default the user whose personal workspace it is. */
  userId = workspaceId,
): Promise<EvaluationRow> {
  const range = judge === "reference" ? { min: 1, max: 5 } : { min: 1, max: 10 };
  const evaluation = await createEvaluation(db, workspaceId, {
    user_id: userId,
    name: "calibration test run",
    bot_id: "builtin",
    judge_llm_model_id: judge === "offline" ? "offline" : "test-judge",
    config: { judges: [judge], judges_config: DEFAULT_JUDGES_CONFIG },
    questions: items.map((item, i) => ({
      question_id: `q${i}`,
      question_type: "FACTUAL",
      question_text: item.question,
      ground_truth: "",
    })),
  });
  await transitionEvaluation(db, evaluation.id, ["PENDING"], "RUNNING");
  const claims = items.map((_, i) => ({
    evaluationId: evaluation.id,
    questionId: `q${i}`,
    jobId: `job-${i}`,
  }));
  await claimResults(db, claims);
  await finishResults(
    db,
    items.map((item, i) => {
      const result =
        item.judge === "error"
          ? {
              name: judge,
              // judges/result.ts JudgeFailure: no score at all, so nothing can average it.
              outcome: "judge_error",
              score: null,
              raw_score: null,
              passed: null,
              verdict: null,
              error: { message: "unusable reply", cause: "invalid_reply", retryable: true },
              language: "en",
              model: "test-judge",
              calls: [],
            }
          : {
              name: judge,
              outcome: "ok",
              score: (item.judge.raw - range.min) / (range.max - range.min),
              raw_score: item.judge.raw,
              passed: item.judge.passed,
              defaulted: false,
              verdict: {},
              language: "en",
              model: "test-judge",
              calls: [],
            };
      return {
        ...(claims[i] as (typeof claims)[number]),
        write: {
          ...NO_OUTPUTS,
          status: item.judge === "error" ? ("JUDGE_ERROR" as const) : ("SCORED" as const),
          latency_ms: 1,
          rag_answer: item.answer,
          rag_answer_sources: item.sources ?? [],
          judges: { [judge]: result },
          score: item.judge === "error" ? null : (result.score as number),
          passed: item.judge === "error" ? null : item.judge.passed,
          error: item.judge === "error" ? "rubric: unusable reply" : null,
        },
      };
    }),
  );
  return evaluation;
}
