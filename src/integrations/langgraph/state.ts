// The graphs' state, with the seeds' field names: seed 001's CanvasRAGState (query, fused_results,
// quality_grade, quality_score, quality_issues, retry_count, original_queries) and seed 000's
// MultiAgentState (messages, epoch, last_answer, last_evaluation, final_answer,
// retrieved_nodes_score). Every channel keeps the last value written: the nodes return whole
// lists, as ragjudge's own loops do, so a checkpoint holds exactly the loop's state.
//
// A user's own StateGraph spreads these into its annotation:
//   Annotation.Root({ ...QualityLoopAnnotation.spec, myField: Annotation<string>() })
// Fields a node needs and finds missing are filled in as ragjudge's loops start them.

import { Annotation } from "@langchain/langgraph";
import type { ReviewVerdict } from "../../judges/index.js";
import type { GuardDecision, GuardReason } from "../../gate/index.js";
import type {
  AnswerEvaluation,
  AnswerState,
  GenerationRecord,
  QualityState,
  RetrievedHit,
} from "../../rag/loops/index.js";
import type { PassageLike } from "./retriever.js";

const last = <T>() => Annotation<T>();

/** Seed 001's quality loop, plus the budget's start and the generated answer. */
export const QualityLoopAnnotation = Annotation.Root({
  /** The user's question; `query` starts equal to it and changes with each rewrite. */
  question: last<string>(),
  /** Passed to the retriever; a name for the corpus (default "langgraph"). */
  collection_id: last<string>(),
  query: last<string>(),
  language: last<QualityState["language"]>(),
  available_sources: last<QualityState["available_sources"]>(),
  priority_source: last<QualityState["priority_source"]>(),
  sources: last<QualityState["sources"]>(),
  requested_sources: last<QualityState["requested_sources"]>(),
  /** The retrieved passages: ragjudge hits, or LangChain Documents written by a node of yours. */
  fused_results: last<Array<RetrievedHit | PassageLike>>(),
  per_source: last<QualityState["per_source"]>(),
  query_stats: last<QualityState["query_stats"]>(),
  quality_grade: last<QualityState["quality_grade"]>(),
  quality_score: last<number>(),
  quality_issues: last<QualityState["quality_issues"]>(),
  quality_dimensions: last<QualityState["quality_dimensions"]>(),
  retry_count: last<number>(),
  original_queries: last<string[]>(),
  grades: last<QualityState["grades"]>(),
  rewrites: last<QualityState["rewrites"]>(),
  /** When the loop's time budget started (Date.now()); set by the first loop node that runs. */
  started_at: last<number>(),
  /** The budget ran out: the loop's nodes stop working and the router goes to generate. */
  timed_out: last<boolean>(),
  /** What the `generate` node wrote. */
  answer: last<string>(),
});

/** The gate's verdict on the final answer, as `gateAnswer` writes it. */
export interface GateOutcome {
  decision: GuardDecision;
  status: string;
  action: string;
  rule_version: string;
  reasons: GuardReason[];
}

/** Seed 000's answer loop, plus the gate's verdict (seed 004). */
export const AnswerLoopAnnotation = Annotation.Root({
  /** The user's question (seed 000's HumanMessage). */
  question: last<string>(),
  collection_id: last<string>(),
  language: last<AnswerState["language"]>(),
  /** The query retrieval last ran with; default `query` (the quality loop's) or the question. */
  retrieval_query: last<string>(),
  /** The passages the answer is written from; default the quality loop's `fused_results`. */
  hits: last<Array<RetrievedHit | PassageLike>>(),
  /** system, user, then answers and revision requests, as `{role, content}`. */
  messages: last<AnswerState["messages"]>(),
  epoch: last<number>(),
  last_answer: last<string>(),
  /** The review judge's `{passed, suggestions}`. */
  last_evaluation: last<ReviewVerdict | null>(),
  final_answer: last<string>(),
  citations: last<string[]>(),
  retrieved_nodes_score: last<AnswerState["retrieved_nodes_score"]>(),
  generations: last<GenerationRecord[]>(),
  evaluations: last<AnswerEvaluation[]>(),
  gate: last<GateOutcome>(),
  /** When the answer loop's budget (`answer.budget_ms`) started; set by its first node. */
  answer_started_at: last<number>(),
  /** The answer budget ran out: the loop ends with the last answer. */
  answer_timed_out: last<boolean>(),
});

/** Both loops in one graph: the answer loop reads the quality loop's query and fused_results. */
export const RagLoopsAnnotation = Annotation.Root({
  ...QualityLoopAnnotation.spec,
  ...AnswerLoopAnnotation.spec,
});

export type QualityLoopGraphState = typeof QualityLoopAnnotation.State;
export type QualityLoopUpdate = typeof QualityLoopAnnotation.Update;
export type AnswerLoopGraphState = typeof AnswerLoopAnnotation.State;
export type AnswerLoopUpdate = typeof AnswerLoopAnnotation.Update;

/** What a quality node reads: the question, and whatever of the loop's state is already there. */
export type QualityNodeState = { question: string } & Partial<
  Omit<QualityLoopGraphState, "question">
>;
/** What an answer node reads: the question and the passages (or the quality loop's). */
export type AnswerNodeState = { question: string } & Partial<
  Omit<AnswerLoopGraphState, "question">
> & { query?: string; fused_results?: Array<RetrievedHit | PassageLike> };
