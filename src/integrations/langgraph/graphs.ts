// The two loops as ready-made LangGraph graphs, drawn as the seeds draw them:
//   seed 001: START → question_router → retrieve → grade_documents → (low?) rewrite_query → question_router …
//                                                                 → (medium/high?) generate → END
//   seed 000: START → generate_answer → eval_answer → (failed, epoch < GENER_EPOCH) generate_answer
//                                                   → END (or gate_answer → END)
// Each returns the StateGraph uncompiled: compile it with your checkpointer, stream it, draw it.

import type { RunnableConfig } from "@langchain/core/runnables";
import { END, START, StateGraph } from "@langchain/langgraph";
import type { GateConfig } from "../../gate/index.js";
import type { JudgesConfig } from "../../judges/index.js";
import {
  answerLoopContext,
  initialAnswerState,
  type LoopLogger,
  LoopsConfigError,
  type QuestionRouter,
  type RetrievalSource,
} from "../../rag/loops/index.js";
import {
  evaluateAnswer,
  gateAnswer,
  type GateAnswerNodeOptions,
  generateAnswer,
  routeAfterEvaluation,
} from "./answer-nodes.js";
import { type ChatModelLike, chatModelClient } from "../chat-model-client.js";
import {
  DEFAULT_COLLECTION,
  gradeDocuments,
  type LoopOptions,
  loopsConfigOf,
  questionRouter,
  retrieve,
  rewriteQuery,
  routeAfterGrading,
} from "./quality-nodes.js";
import { hitsFromPassages, type RetrieveInput } from "./retriever.js";
import {
  AnswerLoopAnnotation,
  type QualityLoopGraphState,
  QualityLoopAnnotation,
  type QualityLoopUpdate,
} from "./state.js";

/** Your own generation step: the state in, the answer (or the fields it changes) out. */
export type GenerateFunction = (
  state: QualityLoopGraphState,
  config: RunnableConfig,
) => string | QualityLoopUpdate | Promise<string | QualityLoopUpdate>;

export interface QualityLoopGraphOptions extends LoopOptions {
  /** A LangChain retriever, or a function given the request ({ query, signal, top_k, sources }). */
  retrieve: RetrieveInput;
  /**
   * What `generate` does once retrieval is good enough (or the loop gave up): a chat model answers
   * once from `fused_results` with ragjudge's generation prompt, or your function runs (it may
   * invoke `buildAnswerLoopGraph`'s graph).
   */
  generate: ChatModelLike | GenerateFunction;
  /** Picks the sources worth asking for a query; default all the run may use. */
  questionRouter?: QuestionRouter;
  /** The rewriter model; without it the query is expanded from the top passages. */
  rewriter?: ChatModelLike;
  /** The source a passage counts as when its metadata names none; default "vector". */
  source?: RetrievalSource;
}

function isChatModel(value: ChatModelLike | GenerateFunction): value is ChatModelLike {
  return typeof (value as Partial<ChatModelLike>).invoke === "function";
}

/** The `generate` node of the quality loop graph. */
function generateNode(options: QualityLoopGraphOptions) {
  const config = loopsConfigOf(options);
  const generate = options.generate;
  return async (state: QualityLoopGraphState, runConfig: RunnableConfig) => {
    if (!isChatModel(generate)) {
      const out = await generate(state, runConfig);
      return typeof out === "string" ? { answer: out } : out;
    }
    const initial = initialAnswerState(
      {
        question: state.question,
        collection_id: state.collection_id ?? DEFAULT_COLLECTION,
        hits: hitsFromPassages(state.fused_results ?? []),
        retrieval_query: state.query ?? state.question,
      },
      config,
    );
    const { generator } = answerLoopContext(
      { generator: chatModelClient(generate, runConfig) },
      config,
    );
    const out = await generator.generate({
      messages: initial.messages,
      question: state.question,
      hits: initial.hits,
      last_answer: "",
      last_evaluation: null,
      language: initial.language,
      signal: runConfig.signal ?? new AbortController().signal,
    });
    return { answer: out.content };
  };
}

/**
 * Seed 001's quality loop over your retriever and model. Invoke the compiled graph with
 * `{ question }` (and `collection_id`, passed to your retriever).
 */
export function buildQualityLoopGraph(options: QualityLoopGraphOptions) {
  const config = options.config !== undefined ? { config: options.config } : {};
  return new StateGraph(QualityLoopAnnotation)
    .addNode(
      "question_router",
      questionRouter({
        ...config,
        ...(options.questionRouter ? { questionRouter: options.questionRouter } : {}),
      }),
    )
    .addNode(
      "retrieve",
      retrieve({
        ...config,
        retrieve: options.retrieve,
        ...(options.source ? { source: options.source } : {}),
      }),
    )
    .addNode("grade_documents", gradeDocuments(config))
    .addNode(
      "rewrite_query",
      rewriteQuery({
        ...config,
        retrieve: options.retrieve,
        ...(options.rewriter ? { model: options.rewriter } : {}),
      }),
    )
    .addNode("generate", generateNode(options))
    .addEdge(START, "question_router")
    .addEdge("question_router", "retrieve")
    .addEdge("retrieve", "grade_documents")
    .addConditionalEdges("grade_documents", routeAfterGrading(config), [
      "rewrite_query",
      "generate",
    ])
    .addEdge("rewrite_query", "question_router")
    .addEdge("generate", END);
}

export interface AnswerLoopGraphOptions extends LoopOptions {
  /** The generator: any chat model; without it the answer is extractive. */
  generate?: ChatModelLike;
  /** The review judge: a chat model instance of its own (seed 000); without it the evidence gate reviews offline. */
  judge?: ChatModelLike;
  judges?: JudgesConfig;
  /** Seed 004's gate on the final answer, as a `gate_answer` node before END; default off. */
  gate?: boolean | GateAnswerNodeOptions;
  /** The gate settings the offline review uses. */
  reviewGate?: GateConfig;
  /** Where the warning goes when GENER_EPOCH is reached unpassed; default process warnings. */
  logger?: LoopLogger;
}

/**
 * Seed 000's answer loop over your models. Invoke the compiled graph with `{ question, hits }`
 * (hits: LangChain Documents or `{ id, content, score }`).
 */
export function buildAnswerLoopGraph(options: AnswerLoopGraphOptions = {}) {
  if (options.judge !== undefined && options.judge === options.generate) {
    throw new LoopsConfigError(
      "judge",
      "a model instance separate from the generator's (the review never shares its instance)",
    );
  }
  const config = options.config !== undefined ? { config: options.config } : {};
  const graph = new StateGraph(AnswerLoopAnnotation)
    .addNode(
      "generate_answer",
      generateAnswer({ ...config, ...(options.generate ? { model: options.generate } : {}) }),
    )
    .addNode(
      "eval_answer",
      evaluateAnswer({
        ...config,
        ...(options.judge ? { judge: options.judge } : {}),
        ...(options.judges ? { judges: options.judges } : {}),
        ...(options.reviewGate ? { gate: options.reviewGate } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      }),
    )
    .addEdge(START, "generate_answer")
    .addEdge("generate_answer", "eval_answer");
  if (!options.gate) {
    return graph.addConditionalEdges("eval_answer", routeAfterEvaluation(config), [
      "generate_answer",
      END,
    ]);
  }
  // The gate's node goes where the seed's loop ends; typed as the graph without it, since a
  // caller compiles, streams and draws both the same way.
  const route = routeAfterEvaluation(config);
  return graph
    .addNode("gate_answer", gateAnswer(typeof options.gate === "object" ? options.gate : {}))
    .addConditionalEdges(
      "eval_answer",
      (state) => (route(state) === END ? "gate_answer" : "generate_answer"),
      ["generate_answer", "gate_answer"],
    )
    .addEdge("gate_answer", END) as unknown as typeof graph;
}
