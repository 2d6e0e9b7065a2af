// Seed 000's answer loop as LangGraph nodes and a router, and seed 004's gate as a last node. The
// nodes call the functions ragjudge's own loop runs (rag/loops/answer-loop.ts): the generator
// answers from `messages`, the review judge (its own model, never the generator's instance)
// returns {passed, suggestions} into `last_evaluation`, and a failed review puts the revision
// request last in `messages` for the next generation.

import type { RunnableConfig } from "@langchain/core/runnables";
import { END } from "@langchain/langgraph";
import { type GateConfig, guard, type GuardResult } from "../../gate/index.js";
import type { JudgesConfig } from "../../judges/index.js";
import {
  type AnswerLoopContext,
  type AnswerState,
  answerLoopContext,
  citedNodeIds,
  evalAnswer,
  evalAnswerRoute,
  gateInputFrom,
  generateAnswer as generateAnswerStep,
  initialAnswerState,
  type LoopLogger,
  type LoopsConfig,
  processWarningLogger,
  type RunContext,
  shouldRegenerate,
} from "../../rag/loops/index.js";
import { withinBudget } from "./budget.js";
import { type ChatModelLike, chatModelClient } from "../chat-model-client.js";
import { DEFAULT_COLLECTION, type LoopOptions, loopsConfigOf } from "./quality-nodes.js";
import { hitsFromPassages } from "./retriever.js";
import type { AnswerLoopUpdate, AnswerNodeState, GateOutcome } from "./state.js";

/** A LangGraph node of the answer loop. */
export type AnswerGraphNode = (
  state: AnswerNodeState,
  config?: RunnableConfig,
) => Promise<AnswerLoopUpdate>;

/**
 * The answer loop's state as ragjudge's nodes read it. Before the first generation, `messages`
 * and the passages are set up as seed 000's `run` does (system prompt with the context, then the
 * question); the passages are `hits`, or the quality loop's `fused_results`.
 */
function answerStateOf(state: AnswerNodeState, config: LoopsConfig) {
  if (typeof state.question !== "string") {
    throw new TypeError(
      'state.question: expected the user\'s question as a string; invoke the graph with { question: "...", hits: [...] }',
    );
  }
  const started = state.messages !== undefined && state.messages.length > 0;
  const init: AnswerLoopUpdate = {};
  let full: AnswerState;
  if (started) {
    full = {
      ...initialAnswerState({ question: state.question, collection_id: "", hits: [] }, config),
      ...(Object.fromEntries(
        Object.entries(state).filter(([, v]) => v !== undefined),
      ) as Partial<AnswerState>),
      query: state.question,
      hits: hitsFromPassages(state.hits ?? []),
    };
  } else {
    const first = initialAnswerState(
      {
        question: state.question,
        collection_id: state.collection_id ?? DEFAULT_COLLECTION,
        hits: hitsFromPassages(state.hits ?? state.fused_results ?? []),
        retrieval_query: state.retrieval_query ?? state.query ?? state.question,
      },
      config,
    );
    const { query: _question, ...fields } = first;
    Object.assign(init, fields);
    full = first;
  }
  if (state.answer_started_at === undefined) init.answer_started_at = Date.now();
  const started_at = state.answer_started_at ?? init.answer_started_at ?? Date.now();
  return {
    full,
    init,
    leftMs: config.answer.budget_ms - (Date.now() - started_at),
    timed_out: state.answer_timed_out === true,
  };
}

/** ragjudge's context for one answer node: the user's models bound to this node's config. */
function answerContext(
  deps: {
    generator?: ChatModelLike;
    judge?: ChatModelLike;
    gate?: GateConfig;
    judges?: JudgesConfig;
  },
  config: LoopsConfig,
  runConfig: RunnableConfig,
): RunContext<AnswerLoopContext> {
  const ctx = answerLoopContext(
    {
      ...(deps.generator ? { generator: chatModelClient(deps.generator, runConfig) } : {}),
      ...(deps.judge ? { judge: chatModelClient(deps.judge, runConfig) } : {}),
      ...(deps.gate ? { gate: deps.gate } : {}),
      ...(deps.judges ? { judges: deps.judges } : {}),
    },
    config,
  );
  return { ...ctx, signal: runConfig.signal ?? new AbortController().signal };
}

export interface GenerateAnswerNodeOptions extends LoopOptions {
  /** The generator: any chat model; without it the answer is extractive (sentences of the passages). */
  model?: ChatModelLike;
}

/** `generate_answer` (seed 000's `_generate_answer_node`): answers from `messages`; epoch + 1. */
export function generateAnswer(options: GenerateAnswerNodeOptions = {}): AnswerGraphNode {
  const config = loopsConfigOf(options);
  return async (state, runConfig = {}) => {
    const { full, init, leftMs, timed_out } = answerStateOf(state, config);
    if (timed_out) return init;
    const ctx = answerContext(options.model ? { generator: options.model } : {}, config, runConfig);
    const update = await withinBudget(leftMs, runConfig.signal, (signal) =>
      generateAnswerStep(full, { ...ctx, signal }),
    );
    return update === undefined ? { ...init, answer_timed_out: true } : { ...init, ...update };
  };
}

export interface EvaluateAnswerNodeOptions extends LoopOptions {
  /** The review judge's model, a separate instance from the generator's; without it the evidence gate reviews offline. */
  judge?: ChatModelLike;
  /** The judges' settings (prompt language, context truncation, ...). */
  judges?: JudgesConfig;
  /** The gate settings the offline review uses. */
  gate?: GateConfig;
  /** Where the warning goes when GENER_EPOCH is reached unpassed; default process warnings. */
  logger?: LoopLogger;
}

/**
 * `eval_answer` (seed 000's `_eval_answer_node`): reviews `messages[-1]` and writes
 * `last_evaluation` = {passed, suggestions}; a failed review below the epoch cap adds the
 * revision request to `messages`. When the loop ends here, `final_answer` is the last answer.
 */
export function evaluateAnswer(options: EvaluateAnswerNodeOptions = {}): AnswerGraphNode {
  const config = loopsConfigOf(options);
  const logger = options.logger ?? processWarningLogger;
  return async (state, runConfig = {}) => {
    const { full, init, leftMs, timed_out } = answerStateOf(state, config);
    const timedOut = (): AnswerLoopUpdate => {
      logger.warn(
        `answer loop: budget of ${config.answer.budget_ms} ms exhausted at epoch ${full.epoch}; ending with the last answer`,
        { epoch: full.epoch, question: full.query },
      );
      return { ...init, answer_timed_out: true, final_answer: full.last_answer };
    };
    if (timed_out) return timedOut();
    const ctx = answerContext(
      {
        ...(options.judge ? { judge: options.judge } : {}),
        ...(options.gate ? { gate: options.gate } : {}),
        ...(options.judges ? { judges: options.judges } : {}),
      },
      config,
      runConfig,
    );
    const reviewed = await withinBudget(leftMs, runConfig.signal, (signal) =>
      evalAnswer(full, { ...ctx, signal }),
    );
    if (reviewed === undefined) return timedOut();
    const update: AnswerLoopUpdate = { ...init, ...reviewed };
    const verdict = update.last_evaluation;
    if (verdict && !shouldRegenerate(verdict, full.epoch, config.answer.gener_epoch)) {
      update.final_answer = full.last_answer;
      if (!verdict.passed) {
        logger.warn(
          `answer loop: GENER_EPOCH (${config.answer.gener_epoch}) reached without passing review; ending with the last answer`,
          { epoch: full.epoch, question: full.query },
        );
      }
    }
    return update;
  };
}

/**
 * The conditional edge after `eval_answer`: back to `generate_answer` when the review failed and
 * `epoch < GENER_EPOCH` (3 by default), else END; END too once the answer budget is spent.
 */
export function routeAfterEvaluation(
  options: LoopOptions = {},
): (
  state: Pick<AnswerNodeState, "last_evaluation" | "epoch" | "answer_timed_out">,
) => "generate_answer" | typeof END {
  const config = loopsConfigOf(options);
  const route = evalAnswerRoute(config.answer);
  return (state) =>
    state.answer_timed_out !== true &&
    route({
      last_evaluation: state.last_evaluation ?? null,
      epoch: state.epoch ?? 0,
    } as AnswerState) === "generate_answer"
      ? "generate_answer"
      : END;
}

export interface GateAnswerNodeOptions {
  /** The gate's configuration (checks, thresholds, actions). */
  config?: GateConfig;
  /** The language of the reasons: "en" (default) or "zh". */
  lang?: "en" | "zh";
  /** Replace a repairable answer by its repair (default true). */
  repair?: boolean;
}

let gated = 0;

function outcomeOf(result: GuardResult): GateOutcome {
  return {
    decision: result.decision,
    status: result.verdict.status,
    action: result.verdict.action,
    rule_version: result.verdict.rule_version,
    reasons: result.reasons,
  };
}

/**
 * `gate_answer` (seed 004): the evidence gate on the final answer. Writes `gate` (decision,
 * status, action, reasons) and sets `final_answer` to what may be shown: the answer as written
 * (allow), its repair (repair), or "" (block).
 */
export function gateAnswer(options: GateAnswerNodeOptions = {}): AnswerGraphNode {
  return (state) => {
    const hits = hitsFromPassages(state.hits ?? state.fused_results ?? []);
    const answer = state.final_answer || state.last_answer || "";
    const id = `langgraph-${Date.now().toString(36)}-${(gated++).toString(36)}`;
    const result = guard(
      gateInputFrom({
        conversation_id: id,
        message_id: id,
        retrieval_query: state.retrieval_query ?? state.query ?? state.question,
        hits,
        answer,
        citations: citedNodeIds(answer, hits),
        model: state.generations?.at(-1)?.model ?? "langgraph",
      }),
      {
        ...(options.config ? { config: options.config } : {}),
        ...(options.lang ? { lang: options.lang } : {}),
        ...(options.repair !== undefined ? { repair: options.repair } : {}),
      },
    );
    return Promise.resolve({ gate: outcomeOf(result), final_answer: result.answer });
  };
}
