// Seed 001's quality loop as LangGraph nodes and a router. Each node calls the same function
// ragjudge's own loop runs (rag/loops/quality-loop.ts); what is added is only what LangGraph does
// not: filling in the state a loop starts with, and the 10 s total budget (AC 3), kept as
// `started_at` in the state so a checkpointed run carries it.

import type { RunnableConfig } from "@langchain/core/runnables";
import {
  gradeDocuments as gradeDocumentsStep,
  gradeDocumentsRoute,
  initialQualityState,
  type LoopsConfig,
  type LoopsConfigInput,
  parseLoopsConfig,
  QualityChecker,
  type QualityLoopContext,
  type QualityState,
  QueryRewriter,
  type QuestionRouter,
  questionRouter as questionRouterStep,
  RETRIEVAL_SOURCES,
  type RetrievalSource,
  type Retriever,
  resolvePrioritySource,
  retrieve as retrieveStep,
  rewriteQuery as rewriteQueryStep,
  type RunContext,
} from "../../rag/loops/index.js";
import { withinBudget } from "./budget.js";
import { type ChatModelLike, chatModelClient } from "../chat-model-client.js";
import { hitsFromPassages, type RetrieveInput, toRetriever } from "./retriever.js";
import type { QualityLoopUpdate, QualityNodeState } from "./state.js";

/** The collection_id given to the retriever when the state names none. */
export const DEFAULT_COLLECTION = "langgraph";

/** A LangGraph node of the quality loop: the state in, the fields it changes out. */
export type QualityGraphNode = (
  state: QualityNodeState,
  config?: RunnableConfig,
) => Promise<QualityLoopUpdate>;

export interface LoopOptions {
  /** ragjudge's loops settings (docs/rag.md): `quality.max_rewrites`, `quality.budget_ms`, ... */
  config?: LoopsConfigInput;
}

/** The settings as parsed once per node: an invalid field throws, naming it. */
export function loopsConfigOf(options: LoopOptions): LoopsConfig {
  return parseLoopsConfig(options.config ?? {});
}

function missingQuestion(): never {
  throw new TypeError(
    'state.question: expected the user\'s question as a string; invoke the graph with { question: "..." }',
  );
}

/**
 * The loop's state as ragjudge's nodes read it: what the graph holds, with what is missing filled
 * in as `initialQualityState` starts a run. `init` is the filled-in part, written back by the node.
 */
function qualityStateOf(state: QualityNodeState, config: LoopsConfig) {
  if (typeof state.question !== "string") missingQuestion();
  const base = initialQualityState(
    {
      question: state.question,
      collection_id: state.collection_id ?? DEFAULT_COLLECTION,
      ...(state.available_sources ? { sources: state.available_sources } : {}),
    },
    config,
  );
  const init: Record<string, unknown> = {};
  const full: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(base)) {
    const given = (state as Record<string, unknown>)[key];
    if (given === undefined || given === null) {
      if (value !== null) init[key] = value;
    } else full[key] = given;
  }
  full.fused_results = hitsFromPassages(state.fused_results ?? []);
  const started_at = state.started_at ?? Date.now();
  if (state.started_at === undefined) init.started_at = started_at;
  return {
    full: full as unknown as QualityState,
    init: init as QualityLoopUpdate,
    started_at,
    timed_out: state.timed_out === true,
  };
}

interface StepDeps {
  retrieve?: Retriever;
  questionRouter?: QuestionRouter;
  rewriter?: QueryRewriter;
}

const noRetriever: Retriever = () =>
  Promise.reject(new Error("this node was built without a retriever (option `retrieve`)"));

/** Wraps one of ragjudge's quality steps as a budgeted LangGraph node. */
function qualityNode(
  options: LoopOptions,
  deps: (runConfig: RunnableConfig) => StepDeps,
  step: (
    state: QualityState,
    ctx: RunContext<QualityLoopContext>,
  ) => Promise<Partial<QualityState>>,
): QualityGraphNode {
  const config = loopsConfigOf(options);
  const checker = new QualityChecker({
    ...config.quality,
    // Each grading passes the state's own priority source; this is only the checker's default.
    priority_source: resolvePrioritySource(config.quality.priority_source, RETRIEVAL_SOURCES),
  });
  return async (state, runConfig = {}) => {
    const { full, init, started_at, timed_out } = qualityStateOf(state, config);
    if (timed_out) return init;
    const left = config.quality.budget_ms - (Date.now() - started_at);
    const own = deps(runConfig);
    const update = await withinBudget(left, runConfig.signal, (signal) => {
      const ctx: RunContext<QualityLoopContext> = {
        retrieve: own.retrieve ?? noRetriever,
        checker,
        rewriter: own.rewriter ?? new QueryRewriter({ config: config.rewrite }),
        config: config.quality,
        signal,
        ...(own.questionRouter ? { questionRouter: own.questionRouter } : {}),
      };
      return step(full, ctx);
    });
    if (update === undefined) return { ...init, timed_out: true };
    return { ...init, ...(update as QualityLoopUpdate) };
  };
}

export interface QuestionRouterNodeOptions extends LoopOptions {
  /** Picks the sources worth asking for a query (ragjudge's `retriever.routerFor(collection)`); default all available. */
  questionRouter?: QuestionRouter;
}

/** `question_router`: the sources the next retrieval asks, and the priority source graded. */
export function questionRouter(options: QuestionRouterNodeOptions = {}): QualityGraphNode {
  return qualityNode(
    options,
    () => (options.questionRouter ? { questionRouter: options.questionRouter } : {}),
    questionRouterStep,
  );
}

export interface RetrieveNodeOptions extends LoopOptions {
  /** A LangChain retriever, or a function given the request ({ query, signal, top_k, ... }). */
  retrieve: RetrieveInput;
  /** The source a passage counts as when its metadata names none; default "vector". */
  source?: RetrievalSource;
}

/** `retrieve`: writes `fused_results` (and `per_source`, `query_stats`) for the current query. */
export function retrieve(options: RetrieveNodeOptions): QualityGraphNode {
  const hitOptions = options.source ? { source: options.source } : {};
  return qualityNode(
    options,
    (runConfig) => ({ retrieve: toRetriever(options.retrieve, hitOptions, runConfig) }),
    retrieveStep,
  );
}

/**
 * `grade_documents`: seed 001's four weighted dimensions; writes `quality_grade`,
 * `quality_score`, `quality_issues` and `retry_count` (passed through, as the seed's node does).
 */
export function gradeDocuments(options: LoopOptions = {}): QualityGraphNode {
  return qualityNode(options, () => ({}), gradeDocumentsStep);
}

export interface RewriteQueryNodeOptions extends LoopOptions {
  /** The rewriter model (seed 001: a small, cheap one); without it the query is expanded from the top passages. */
  model?: ChatModelLike;
  /** The graph's retriever: ragjudge's own one lends the rewriter its term statistics. */
  retrieve?: RetrieveInput;
}

/** `rewrite_query`: rewrites `query` for the grading's issues; adds 1 to `retry_count`. */
export function rewriteQuery(options: RewriteQueryNodeOptions = {}): QualityGraphNode {
  const config = loopsConfigOf(options);
  return qualityNode(
    options,
    (runConfig) => ({
      ...(options.retrieve ? { retrieve: toRetriever(options.retrieve, {}, runConfig) } : {}),
      rewriter: new QueryRewriter({
        config: config.rewrite,
        ...(options.model ? { client: chatModelClient(options.model, runConfig) } : {}),
      }),
    }),
    rewriteQueryStep,
  );
}

/** What `routeAfterGrading` reads. */
export type GradedState = Pick<
  QualityNodeState,
  "quality_grade" | "quality_score" | "retry_count" | "started_at" | "timed_out"
>;

/**
 * The conditional edge after `grade_documents`, by seed 001's AC 3: `generate` when the budget is
 * spent (10 s by default), when `quality_score >= 0.5` or the grade is not low, or when
 * `retry_count >= 2`; otherwise `rewrite_query`.
 */
export function routeAfterGrading(
  options: LoopOptions = {},
): (state: GradedState) => "rewrite_query" | "generate" {
  const config = loopsConfigOf(options);
  const route = gradeDocumentsRoute(config.quality);
  return (state) => {
    if (state.timed_out === true) return "generate";
    if (
      state.started_at !== undefined &&
      Date.now() - state.started_at >= config.quality.budget_ms
    ) {
      return "generate";
    }
    return route({
      quality_grade: state.quality_grade ?? null,
      quality_score: state.quality_score ?? 0,
      retry_count: state.retry_count ?? 0,
    } as QualityState);
  };
}
