// Seed 001 (Story 12.9) AC 5, as a state machine:
//   question_router → retrieve → grade_documents → (low & retry_count < 2) → rewrite_query → question_router …
//                                               → (medium/high, score >= 0.5, or retry_count >= 2) → generate
// plus AC 3's third exit: total latency >= budget_ms aborts the call in flight and goes to generate.

import { type PromptLanguage, promptLanguage } from "../../judges/index.js";
import type { LlmClient } from "../../llm/index.js";
import {
  type QueryStats,
  RETRIEVAL_SOURCES,
  type RetrievalSource,
  type RetrievedHit,
  type RetrieveResult,
  type Retriever,
} from "../types.js";
import { DEFAULT_LOOPS_CONFIG, type LoopsConfig, type QualityConfig } from "./config.js";
import {
  QualityChecker,
  type QualityDimensions,
  type QualityGrade,
  type QualityIssue,
  resolvePrioritySource,
} from "./quality-checker.js";
import { QueryRewriter, type Rewrite } from "./query-rewriter.js";
import { type CodedMessage, codedMessage } from "../../text/index.js";
import { type MachineRun, type MachineSpec, type RouterEdge, runMachine } from "./state-machine.js";

/** rag/retrieval's questionRouter(query, available): the sources worth asking for this query. */
export type QuestionRouter = (
  query: string,
  available: readonly RetrievalSource[],
) => readonly RetrievalSource[] | Promise<readonly RetrievalSource[]>;

export const QUALITY_NODES = [
  "question_router",
  "retrieve",
  "grade_documents",
  "rewrite_query",
] as const;
export type QualityNode = (typeof QUALITY_NODES)[number];
/** The quality loop hands off to the answer loop's generation. */
export type QualityExitNode = "generate";

/** Seed 001's state fields (query, fused_results, quality_*, retry_count, original_queries) and the run's history. */
export interface QualityState {
  collection_id: string;
  /** The user's question, unchanged; `query` starts equal to it and changes with each rewrite. */
  question: string;
  query: string;
  language: PromptLanguage;
  /** Sources this run may use. */
  available_sources: RetrievalSource[];
  /** The source the checker measures coverage of; "auto" is resolved by question_router. */
  priority_source: RetrievalSource;
  /** Chosen by question_router for the next retrieve. */
  sources: RetrievalSource[];
  /** Asked for by the last rewrite; question_router always includes them. */
  requested_sources: RetrievalSource[];
  fused_results: RetrievedHit[];
  per_source: RetrieveResult["per_source"];
  /** The last retrieval's term statistics (specificity); null when the retriever gives none. */
  query_stats: QueryStats | null;
  quality_grade: QualityGrade | null;
  quality_score: number;
  quality_issues: QualityIssue[];
  quality_dimensions: QualityDimensions | null;
  retry_count: number;
  /** Each query a rewrite replaced, oldest first. */
  original_queries: string[];
  /** Every grading, in order. */
  grades: GradeRecord[];
  rewrites: RewriteRecord[];
}

export interface GradeRecord {
  query: string;
  sources: RetrievalSource[];
  hits: number;
  quality_grade: QualityGrade;
  quality_score: number;
  quality_issues: QualityIssue[];
  dimensions: QualityDimensions;
}

export interface RewriteRecord extends Rewrite {
  /** The query rewritten. */
  from: string;
  retry_count: number;
}

/** Why the loop went to generate. */
export type QualityExitReason = "quality" | "retry_limit" | "timeout";

export interface QualityLoopContext {
  retrieve: Retriever;
  questionRouter?: QuestionRouter;
  checker: QualityChecker;
  rewriter: QueryRewriter;
  config: QualityConfig;
}

type Ctx = Parameters<
  MachineSpec<QualityState, QualityLoopContext, QualityNode, "generate">["nodes"]["retrieve"]
>[1];

export async function questionRouter(state: Readonly<QualityState>, ctx: Ctx) {
  const available = state.available_sources;
  const routed = ctx.questionRouter ? await ctx.questionRouter(state.query, available) : available;
  const wanted = new Set<RetrievalSource>([...routed, ...state.requested_sources]);
  let sources = available.filter((source) => wanted.has(source));
  if (sources.length === 0) sources = [...available];
  // "auto" follows what retrieval can actually use: a collection without embeddings has no
  // vector source to cover, so coverage is measured on lexical instead. The router's answer, not
  // the rewrite's requests: a rewrite asks for every source, and vector without an embedder
  // returns nothing, which would grade every rewritten retrieval as a miss.
  const usable = available.filter((source) => routed.includes(source));
  const priority_source = resolvePrioritySource(
    ctx.config.priority_source,
    usable.length > 0 ? usable : sources,
  );
  return { sources, priority_source };
}

export async function retrieve(state: Readonly<QualityState>, ctx: Ctx) {
  const result = await ctx.retrieve({
    collection_id: state.collection_id,
    query: state.query,
    sources: state.sources,
    top_k: ctx.config.top_k,
    signal: ctx.signal,
  });
  return {
    fused_results: result.fused_results,
    per_source: result.per_source,
    query_stats: result.query_stats ?? null,
  };
}

export async function gradeDocuments(state: Readonly<QualityState>, ctx: Ctx) {
  const report = ctx.checker.gradeDocuments(state.fused_results, {
    priority: state.priority_source,
    ...(state.query_stats ? { query_stats: state.query_stats } : {}),
  });
  const record: GradeRecord = {
    query: state.query,
    sources: state.sources,
    hits: state.fused_results.length,
    quality_grade: report.quality_grade,
    quality_score: report.quality_score,
    quality_issues: report.quality_issues,
    dimensions: report.dimensions,
  };
  return {
    quality_grade: report.quality_grade,
    quality_score: report.quality_score,
    quality_issues: report.quality_issues,
    quality_dimensions: report.dimensions,
    // Seed 001's grade_documents_node passes retry_count through; rewrite_query increments it.
    retry_count: state.retry_count,
    grades: [...state.grades, record],
  };
}

export async function rewriteQuery(state: Readonly<QualityState>, ctx: Ctx) {
  const termStats = ctx.retrieve.termStats?.bind(ctx.retrieve);
  const rewrite = await ctx.rewriter.rewrite({
    query: state.query,
    issues: state.quality_issues,
    hits: state.fused_results,
    priority_source: state.priority_source,
    available_sources: state.available_sources,
    language: state.language,
    signal: ctx.signal,
    ...(termStats
      ? {
          termStats: (terms: readonly string[], signal?: AbortSignal) =>
            termStats(state.collection_id, terms, signal),
        }
      : {}),
  });
  const retry_count = state.retry_count + 1;
  return {
    query: rewrite.query,
    retry_count,
    original_queries: [...state.original_queries, state.query],
    requested_sources: rewrite.requested_sources,
    rewrites: [...state.rewrites, { ...rewrite, from: state.query, retry_count }],
  };
}

/** Seed 001's grade_documents_route, with AC 2's trigger: only a low grade is rewritten. */
export function gradeDocumentsRoute(
  config: Pick<QualityConfig, "early_exit_score" | "max_rewrites">,
): (state: Readonly<QualityState>) => "rewrite_query" | "generate" {
  return (state) => {
    if (state.quality_score >= config.early_exit_score || state.quality_grade !== "low") {
      return "generate";
    }
    if (state.retry_count >= config.max_rewrites) return "generate";
    return "rewrite_query";
  };
}

function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function describe(
  node: QualityNode,
  update: Partial<QualityState>,
  state: Readonly<QualityState>,
): string {
  switch (node) {
    case "question_router":
      return `sources=${state.sources.join(",")} priority=${state.priority_source}`;
    case "retrieve": {
      const counts = Object.entries(state.per_source)
        .map(([source, hits]) => `${source} ${hits?.length ?? 0}`)
        .join(", ");
      return `${state.fused_results.length} hits${counts ? ` (${counts})` : ""} for "${clip(state.query)}"`;
    }
    case "grade_documents":
      return `grade=${state.quality_grade} score=${state.quality_score.toFixed(4)} issues=${
        state.quality_issues.map((i) => i.code).join(",") || "none"
      }`;
    case "rewrite_query": {
      const rewrite = state.rewrites.at(-1);
      const sources = update.requested_sources?.length
        ? ` +sources ${update.requested_sources.join(",")}`
        : "";
      return `retry_count=${state.retry_count} by=${rewrite?.by} query="${clip(state.query)}"${sources}`;
    }
  }
}

/** The step in plain words for a person (describe's line is for developers). */
function explain(
  node: QualityNode,
  _update: Partial<QualityState>,
  state: Readonly<QualityState>,
): CodedMessage {
  switch (node) {
    case "question_router":
      return codedMessage("trace.sources", {
        sources: state.sources,
        priority: state.priority_source,
      });
    case "retrieve":
      return codedMessage("trace.retrieved", {
        hits: state.fused_results.length,
        query: clip(state.query),
        counts: Object.entries(state.per_source).map(
          ([source, hits]) => `${source} ${hits?.length ?? 0}`,
        ),
      });
    case "grade_documents":
      return codedMessage(`trace.graded_${state.quality_grade ?? "low"}`, {
        score: state.quality_score.toFixed(2),
        issues: state.quality_issues.length,
      });
    case "rewrite_query":
      return codedMessage("trace.rewrote", {
        attempt: state.retry_count,
        query: clip(state.query),
      });
  }
}

const machines = new WeakMap<
  QualityConfig,
  MachineSpec<QualityState, QualityLoopContext, QualityNode, "generate">
>();

/** The machine for a config (built once per config object). */
export function qualityMachine(
  config: QualityConfig = DEFAULT_LOOPS_CONFIG.quality,
): MachineSpec<QualityState, QualityLoopContext, QualityNode, "generate"> {
  let spec = machines.get(config);
  if (spec === undefined) {
    const route: RouterEdge<QualityState, QualityNode | "generate"> = {
      router: "grade_documents_route",
      route: gradeDocumentsRoute(config),
      targets: {
        rewrite_query: `low and retry_count < ${config.max_rewrites}`,
        generate: `medium/high (score >= ${config.early_exit_score}) or retry_count >= ${config.max_rewrites}`,
      },
    };
    spec = {
      name: "quality",
      start: "question_router",
      nodes: {
        question_router: questionRouter,
        retrieve,
        grade_documents: gradeDocuments,
        rewrite_query: rewriteQuery,
      },
      edges: {
        question_router: "retrieve",
        retrieve: "grade_documents",
        grade_documents: route,
        rewrite_query: "question_router",
      },
      exits: ["generate"],
      timeoutExit: "generate",
      describe,
      explain,
      maxSteps: 4 * (config.max_rewrites + 1) + 1,
    };
    machines.set(config, spec);
  }
  return spec;
}

export interface QualityLoopInput {
  question: string;
  collection_id: string;
  /** Sources the run may use; default all three. */
  sources?: readonly RetrievalSource[];
  signal?: AbortSignal;
}

export interface QualityLoopDeps {
  retrieve: Retriever;
  questionRouter?: QuestionRouter;
  /** The `rewriter` role's client; without it rewrites expand the query from the top documents. */
  rewriter?: LlmClient;
  config?: LoopsConfig;
}

export interface QualityLoopRun extends MachineRun<QualityState, "generate"> {
  exit_reason: QualityExitReason;
}

export function initialQualityState(
  input: QualityLoopInput,
  config: LoopsConfig = DEFAULT_LOOPS_CONFIG,
): QualityState {
  const available = [...(input.sources ?? RETRIEVAL_SOURCES)];
  return {
    collection_id: input.collection_id,
    question: input.question,
    query: input.question,
    language: promptLanguage(config.language, input.question),
    available_sources: available,
    priority_source: resolvePrioritySource(config.quality.priority_source, available),
    sources: [],
    requested_sources: [],
    fused_results: [],
    per_source: {},
    query_stats: null,
    quality_grade: null,
    quality_score: 0,
    quality_issues: [],
    quality_dimensions: null,
    retry_count: 0,
    original_queries: [],
    grades: [],
    rewrites: [],
  };
}

export function qualityExitReason(run: MachineRun<QualityState, string>): QualityExitReason {
  if (run.timed_out) return "timeout";
  return run.state.quality_grade === "low" ? "retry_limit" : "quality";
}

/** Runs seed 001's loop until it hands off to generate; never more than max_rewrites rewrites. */
export async function runQualityLoop(
  input: QualityLoopInput,
  deps: QualityLoopDeps,
): Promise<QualityLoopRun> {
  const config = deps.config ?? DEFAULT_LOOPS_CONFIG;
  const initial = initialQualityState(input, config);
  const ctx: QualityLoopContext = {
    retrieve: deps.retrieve,
    checker: new QualityChecker({ ...config.quality, priority_source: initial.priority_source }),
    rewriter: new QueryRewriter({ client: deps.rewriter, config: config.rewrite }),
    config: config.quality,
  };
  if (deps.questionRouter) ctx.questionRouter = deps.questionRouter;
  const run = await runMachine(qualityMachine(config.quality), initial, ctx, {
    signal: input.signal,
    budgetMs: config.quality.budget_ms,
  });
  return { ...run, exit_reason: qualityExitReason(run) };
}
