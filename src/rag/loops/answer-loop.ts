// Seed 000 (answer-evaluation-loop), as a state machine:
//   run: messages = [system(generation prompt), user(question)], epoch = 0, last_answer = "",
//        last_evaluation = null
//   generate_answer → eval_answer → (passed) END
//                                 → (failed & epoch < GENER_EPOCH) generate_answer
//                                 → (failed & epoch >= GENER_EPOCH) END, with a warning
// On a pass, run parses retrieved_nodes_score into observational data and appends it.

import type { GateConfig } from "../../gate/index.js";
import {
  fillTemplate,
  type JudgesConfig,
  type PromptLanguage,
  promptLanguage,
  type ReviewVerdict,
} from "../../judges/index.js";
import type { CallRecord, ChatMessage, LlmClient } from "../../llm/index.js";
import { type CodedMessage, codedMessage } from "../../text/index.js";
import type { RetrievedHit } from "../types.js";
import {
  GENERATION_SYSTEM,
  NO_CONTEXT,
  NO_SUGGESTIONS,
  REVISION_REQUEST,
} from "./answer-loop.prompts.js";
import { citedNodeIds, formatChunks } from "./citations.js";
import { DEFAULT_LOOPS_CONFIG, type LoopsConfig, LoopsConfigError } from "./config.js";
import { type AnswerGenerator, extractiveGenerator, llmGenerator } from "./generators.js";
import {
  type AppendObservations,
  type ObservationOutcome,
  parseObservation,
  type RetrievedNodeScore,
  recordObservation,
} from "./observations.js";
import {
  type AnswerReview,
  type AnswerReviewer,
  llmReviewer,
  offlineReviewer,
} from "./reviewers.js";
import { END, type End, type MachineRun, type MachineSpec, runMachine } from "./state-machine.js";

export const ANSWER_NODES = ["generate_answer", "eval_answer"] as const;
/** Seed 000's `_generate_answer_node` and `_eval_answer_node`. */
export type AnswerNode = (typeof ANSWER_NODES)[number];
export type AnswerConfig = LoopsConfig["answer"];

export interface GenerationRecord {
  /** The epoch this generation completed (1 for the first). */
  epoch: number;
  /** Written against a failed evaluation's suggestions. */
  revision: boolean;
  answer: string;
  citations: string[];
  by: "llm" | "extractive";
  model: string;
  call?: CallRecord;
  fallback_reason?: string;
  /** The generator model that failed, when this answer is a fallback. */
  fallback_from?: string;
}

export interface AnswerEvaluation extends AnswerReview {
  /** The epoch of the answer evaluated. */
  epoch: number;
}

/** Seed 000's MultiAgentState fields (messages, epoch, last_answer, last_evaluation, final_answer, retrieved_nodes_score) and the run's history. */
export interface AnswerState {
  collection_id: string;
  /** The user's question: the HumanMessage. */
  query: string;
  /** The query retrieval last ran with (after rewrites); recorded with observations. */
  retrieval_query: string;
  language: PromptLanguage;
  /** The retrieved content the answer is written from (top max_context_items). */
  hits: RetrievedHit[];
  /** system, user, then assistant answers and user revision requests, in order. */
  messages: ChatMessage[];
  epoch: number;
  last_answer: string;
  last_evaluation: ReviewVerdict | null;
  /** Set when the loop ends: the last answer, passed or not. */
  final_answer: string;
  /** node_ids the last answer cites. */
  citations: string[];
  retrieved_nodes_score: RetrievedNodeScore[];
  generations: GenerationRecord[];
  evaluations: AnswerEvaluation[];
}

export interface AnswerLoopContext {
  generator: AnswerGenerator;
  reviewer: AnswerReviewer;
  config: AnswerConfig;
}

type Ctx = Parameters<
  MachineSpec<AnswerState, AnswerLoopContext, AnswerNode, End>["nodes"]["eval_answer"]
>[1];

/** Seed 000's `_generate_answer_node`: generates from `messages`; adds 1 to epoch when done. */
export async function generateAnswer(state: Readonly<AnswerState>, ctx: Ctx) {
  // Seed 000: read last_answer and last_evaluation and tell whether suggestions exist; when they
  // do, eval_answer has put the revision request (query, content, last_answer, suggestions) last
  // in `messages`, so this node still builds no prompt.
  const revision = state.last_evaluation !== null && !state.last_evaluation.passed;
  const out = await ctx.generator.generate({
    messages: state.messages,
    question: state.query,
    hits: state.hits,
    last_answer: state.last_answer,
    last_evaluation: state.last_evaluation,
    language: state.language,
    signal: ctx.signal,
  });
  const epoch = state.epoch + 1;
  const citations = citedNodeIds(out.content, state.hits);
  const record: GenerationRecord = {
    epoch,
    revision,
    answer: out.content,
    citations,
    by: out.by,
    model: out.model,
  };
  if (out.call) record.call = out.call;
  if (out.fallback_reason) record.fallback_reason = out.fallback_reason;
  if (out.fallback_from) record.fallback_from = out.fallback_from;
  const answer: ChatMessage = { role: "assistant", content: out.content };
  return {
    messages: [...state.messages, answer],
    last_answer: out.content,
    citations,
    epoch,
    generations: [...state.generations, record],
  };
}

/** Whether a verdict sends the loop back to generate_answer (seed 000: epoch < GENER_EPOCH). */
export function shouldRegenerate(
  verdict: ReviewVerdict,
  epoch: number,
  generEpoch: number,
): boolean {
  return !verdict.passed && epoch < generEpoch;
}

/** The message that carries a failed review back to the generator. */
export function revisionRequest(
  state: Pick<AnswerState, "query" | "hits" | "language">,
  answer: string,
  suggestions: readonly string[],
  config: AnswerConfig,
): ChatMessage {
  const language = state.language;
  return {
    role: "user",
    content: fillTemplate(REVISION_REQUEST[language], {
      question: state.query,
      context: formatChunks(state.hits, config.max_context_chars, NO_CONTEXT[language]),
      answer,
      suggestions:
        suggestions.length > 0
          ? suggestions.map((s) => `- ${s}`).join("\n")
          : NO_SUGGESTIONS[language],
    }),
  };
}

/** Seed 000's `_eval_answer_node`: reviews messages[-1]; updates last_evaluation only. */
export async function evalAnswer(state: Readonly<AnswerState>, ctx: Ctx) {
  const last = state.messages.at(-1);
  if (last?.role !== "assistant") {
    throw new Error(
      `messages[-1] is ${last ? `a ${last.role} message` : "missing"}; expected the generated answer`,
    );
  }
  const evaluation = await ctx.reviewer.review({
    question: state.query,
    answer: last.content,
    hits: state.hits,
    retrieval_query: state.retrieval_query,
    language: state.language,
    signal: ctx.signal,
  });
  const verdict: ReviewVerdict = { passed: evaluation.passed, suggestions: evaluation.suggestions };
  const update: Partial<AnswerState> = {
    last_evaluation: verdict,
    evaluations: [...state.evaluations, { ...evaluation, epoch: state.epoch }],
  };
  if (shouldRegenerate(verdict, state.epoch, ctx.config.gener_epoch)) {
    update.messages = [
      ...state.messages,
      revisionRequest(state, last.content, verdict.suggestions, ctx.config),
    ];
  }
  return update;
}

/** Routes after eval_answer: pass → END; fail below the cap → generate_answer; fail at the cap → END. */
export function evalAnswerRoute(
  config: Pick<AnswerConfig, "gener_epoch">,
): (state: Readonly<AnswerState>) => AnswerNode | End {
  return (state) =>
    state.last_evaluation !== null &&
    shouldRegenerate(state.last_evaluation, state.epoch, config.gener_epoch)
      ? "generate_answer"
      : END;
}

function describe(
  node: AnswerNode,
  _update: Partial<AnswerState>,
  state: Readonly<AnswerState>,
): string {
  if (node === "generate_answer") {
    const g = state.generations.at(-1);
    return `epoch=${state.epoch} ${g?.revision ? "revision" : "first answer"} by=${g?.by} chars=${
      state.last_answer.length
    } citations=${state.citations.length}${g?.fallback_reason ? " (fallback)" : ""}`;
  }
  const e = state.evaluations.at(-1);
  return `passed=${e?.passed} by=${e?.by} suggestions=${e?.suggestions.length ?? 0}${
    e?.outcome === "judge_error" ? " (judge_error)" : ""
  }`;
}

/** The step in plain words for a person (describe's line is for developers). */
function explain(
  node: AnswerNode,
  _update: Partial<AnswerState>,
  state: Readonly<AnswerState>,
): CodedMessage {
  if (node === "generate_answer") {
    const g = state.generations.at(-1);
    const size = { chars: state.last_answer.length, citations: state.citations.length };
    if (g?.fallback_reason) return codedMessage("trace.answer_fallback", size);
    return g?.revision
      ? codedMessage("trace.revised_answer", { epoch: state.epoch, ...size })
      : codedMessage("trace.first_answer", size);
  }
  const e = state.evaluations.at(-1);
  if (e?.outcome === "judge_error") return codedMessage("trace.check_error");
  return e?.passed
    ? codedMessage("trace.check_passed")
    : codedMessage("trace.check_failed", { suggestions: e?.suggestions.length ?? 0 });
}

const machines = new WeakMap<
  AnswerConfig,
  MachineSpec<AnswerState, AnswerLoopContext, AnswerNode, End>
>();

export function answerMachine(
  config: AnswerConfig = DEFAULT_LOOPS_CONFIG.answer,
): MachineSpec<AnswerState, AnswerLoopContext, AnswerNode, End> {
  let spec = machines.get(config);
  if (spec === undefined) {
    spec = {
      name: "answer",
      start: "generate_answer",
      nodes: { generate_answer: generateAnswer, eval_answer: evalAnswer },
      edges: {
        generate_answer: "eval_answer",
        eval_answer: {
          router: "eval_answer_route",
          route: evalAnswerRoute(config),
          targets: {
            generate_answer: `failed and epoch < GENER_EPOCH (${config.gener_epoch})`,
            [END]: "passed, or epoch >= GENER_EPOCH",
          },
        },
      },
      exits: [END],
      timeoutExit: END,
      describe,
      explain,
      maxSteps: 2 * config.gener_epoch + 1,
    };
    machines.set(config, spec);
  }
  return spec;
}

export interface AnswerLoopInput {
  question: string;
  collection_id: string;
  /** Retrieved hits, best first; the top answer.max_context_items are used. */
  hits: readonly RetrievedHit[];
  /** The query retrieval ran with; default the question. */
  retrieval_query?: string;
  signal?: AbortSignal;
}

export interface LoopLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** process.emitWarning: asynchronous, and silenced by --no-warnings like any Node warning. */
export const processWarningLogger: LoopLogger = {
  warn(message) {
    process.emitWarning(message, { code: "RAGJUDGE_LOOP" });
  },
};

export interface AnswerLoopDeps {
  /** The `generator` role's client; without it the extractive generator answers. */
  generator?: LlmClient;
  /** The `judge` role's client, a separate instance; without it the offline review decides. */
  judge?: LlmClient;
  appendObservations?: AppendObservations;
  config?: LoopsConfig;
  judges?: JudgesConfig;
  /** The gate config the offline review uses. */
  gate?: GateConfig;
  logger?: LoopLogger;
  now?: () => Date;
}

export type AnswerExitReason = "passed" | "epoch_limit" | "timeout";

export interface AnswerLoopRun extends MachineRun<AnswerState, End> {
  exit_reason: AnswerExitReason;
  /** Written only when the answer passed. */
  observations: ObservationOutcome | null;
  warnings: string[];
}

/** Seed 000's `run` start: the two messages, epoch 0, no answer, no evaluation. */
export function initialAnswerState(
  input: AnswerLoopInput,
  config: LoopsConfig = DEFAULT_LOOPS_CONFIG,
): AnswerState {
  const language = promptLanguage(config.language, input.question);
  const hits = input.hits.slice(0, config.answer.max_context_items);
  const system = fillTemplate(GENERATION_SYSTEM[language], {
    context: formatChunks(hits, config.answer.max_context_chars, NO_CONTEXT[language]),
    top_k: String(hits.length),
    max_chars: String(config.answer.max_context_chars),
  });
  return {
    collection_id: input.collection_id,
    query: input.question,
    retrieval_query: input.retrieval_query ?? input.question,
    language,
    hits,
    messages: [
      { role: "system", content: system },
      { role: "user", content: input.question },
    ],
    epoch: 0,
    last_answer: "",
    last_evaluation: null,
    final_answer: "",
    citations: [],
    retrieved_nodes_score: hits.map((hit, i) => ({
      node_id: hit.node_id,
      document_id: hit.document_id,
      rank: i + 1,
      score: hit.score,
      source: hit.source,
      sources: hit.sources,
      scores: hit.scores,
      cited: false,
    })),
    generations: [],
    evaluations: [],
  };
}

/** Seed 000's judge must not share the generator's instance. */
function assertSeparateJudge(deps: AnswerLoopDeps): void {
  if (deps.judge !== undefined && deps.judge === deps.generator) {
    throw new LoopsConfigError(
      "llm.judge",
      "a client separate from the generator's (the review never shares its instance)",
    );
  }
}

export function answerLoopContext(deps: AnswerLoopDeps, config: LoopsConfig): AnswerLoopContext {
  assertSeparateJudge(deps);
  const extractive = extractiveGenerator({ maxSentences: config.answer.extractive_sentences });
  const offline = offlineReviewer(deps.gate);
  return {
    // A failing model falls back only when the user asked for it (answer.llm_fallback).
    generator: deps.generator
      ? llmGenerator(deps.generator, config.answer.llm_fallback ? extractive : undefined)
      : extractive,
    reviewer: deps.judge
      ? llmReviewer(deps.judge, config.answer.llm_fallback ? offline : undefined, deps.judges)
      : offline,
    config: config.answer,
  };
}

/** Seed 000's `run`: the loop, then observations on a pass. Never more than GENER_EPOCH generations. */
export async function runAnswerLoop(
  input: AnswerLoopInput,
  deps: AnswerLoopDeps = {},
): Promise<AnswerLoopRun> {
  const config = deps.config ?? DEFAULT_LOOPS_CONFIG;
  const ctx = answerLoopContext(deps, config);
  const run = await runMachine(
    answerMachine(config.answer),
    initialAnswerState(input, config),
    ctx,
    {
      signal: input.signal,
      budgetMs: config.answer.budget_ms,
    },
  );
  const state: AnswerState = { ...run.state, final_answer: run.state.last_answer };
  const passed = state.last_evaluation?.passed === true && !run.timed_out;
  const exit_reason: AnswerExitReason = run.timed_out
    ? "timeout"
    : passed
      ? "passed"
      : "epoch_limit";
  const warnings: string[] = [];
  if (exit_reason === "epoch_limit") {
    warnings.push(
      `answer loop: GENER_EPOCH (${config.answer.gener_epoch}) reached without passing review; ending with the last answer`,
    );
  } else if (exit_reason === "timeout") {
    warnings.push(
      `answer loop: budget of ${config.answer.budget_ms} ms exhausted at epoch ${state.epoch}; ending with the last answer`,
    );
  }
  const logger = deps.logger ?? processWarningLogger;
  for (const warning of warnings)
    logger.warn(warning, { epoch: state.epoch, question: state.query });
  let observations: ObservationOutcome | null = null;
  if (passed) {
    const record = parseObservation(
      {
        collection_id: state.collection_id,
        question: state.query,
        retrieval_query: state.retrieval_query,
        answer: state.final_answer,
        citations: state.citations,
        epoch: state.epoch,
        reviewer: state.evaluations.at(-1)?.by ?? "offline",
        retrieved_nodes_score: state.retrieved_nodes_score,
      },
      deps.now?.() ?? new Date(),
    );
    state.retrieved_nodes_score = record.nodes;
    const { path, max_bytes, max_files } = config.observations;
    const targets: Parameters<typeof recordObservation>[1] = {
      path,
      limits: { maxBytes: max_bytes, maxFiles: max_files },
    };
    if (deps.appendObservations) targets.appendObservations = deps.appendObservations;
    observations = await recordObservation(record, targets);
  }
  return { ...run, state, exit_reason, observations, warnings };
}
