// ragjudge's judges as LangChain runnables: `RunnableLambda`s taking `{question, answer, contexts,
// ground_truth}` and returning the judge's own result, so they pipe after a chain or run in a
// `RunnableParallel`. The offline judge needs no model; the LLM judges run on any LangChain chat
// model, through the same adapter ragjudge/langgraph uses.

import type { DocumentInterface } from "@langchain/core/documents";
import { RunnableLambda, type RunnableConfig } from "@langchain/core/runnables";
import {
  type ContextItem,
  type JudgesConfig,
  type LanguageSetting,
  offline,
  type OfflineOptions,
  type OfflineResult,
  reference,
  type ReferenceResult,
  review,
  type ReviewResult,
  rubric,
  type RubricResult,
} from "../../judges/index.js";
import { type ChatModelLike, chatModelClient } from "../chat-model-client.js";

/** What every judge runnable takes. `contexts` may be LangChain Documents, as a retriever gives. */
export interface JudgeRunnableInput {
  question: string;
  answer: string;
  contexts?: Array<ContextItem | DocumentInterface>;
  ground_truth?: string;
  ground_truths?: string[];
}

export interface LlmJudgeRunnableOptions {
  /** The judge's chat model: keep it apart from the model that answered. */
  model: ChatModelLike;
  /** The `judges` config section (rubric weights, review top_k, ...); defaults otherwise. */
  config?: JudgesConfig;
  language?: LanguageSetting;
}

function isDocument(item: ContextItem | DocumentInterface): item is DocumentInterface {
  return typeof item === "object" && item !== null && "pageContent" in item;
}

/** Documents as the judges' context items; strings and `{content}` objects pass as they are. */
export function contextsOf(contexts: JudgeRunnableInput["contexts"]): ContextItem[] {
  return (contexts ?? []).map((item, index) => {
    if (!isDocument(item)) return item;
    const id =
      item.id ??
      (typeof item.metadata?.node_id === "string" ? item.metadata.node_id : undefined) ??
      String(index + 1);
    return { content: item.pageContent, node_id: id };
  });
}

function llmOptions(options: LlmJudgeRunnableOptions, config: RunnableConfig | undefined) {
  return {
    client: chatModelClient(options.model, config ?? {}),
    ...(options.config ? { config: options.config } : {}),
    ...(options.language ? { language: options.language } : {}),
    ...(config?.signal ? { signal: config.signal } : {}),
  };
}

/** The offline judge (reference metrics, groundedness, heuristic rubric): no model call. */
export function offlineJudgeRunnable(options: OfflineOptions = {}) {
  return RunnableLambda.from((input: JudgeRunnableInput): OfflineResult =>
    offline({ ...input, contexts: contextsOf(input.contexts) }, options),
  ).withConfig({ runName: "ragjudge_offline" });
}

/** Seed 000's review judge: `verdict` is `{passed, suggestions}`. */
export function reviewJudgeRunnable(options: LlmJudgeRunnableOptions) {
  return RunnableLambda.from(
    (input: JudgeRunnableInput, config?: RunnableConfig): Promise<ReviewResult> =>
      review({
        question: input.question,
        answer: input.answer,
        contexts: contextsOf(input.contexts),
        ...llmOptions(options, config),
      }),
  ).withConfig({ runName: "ragjudge_review" });
}

/** Seed 002's rubric judge (1-10, weighted), on the contexts as the answer's documents. */
export function rubricJudgeRunnable(options: LlmJudgeRunnableOptions) {
  return RunnableLambda.from(
    (input: JudgeRunnableInput, config?: RunnableConfig): Promise<RubricResult> =>
      rubric({
        question: input.question,
        answer: input.answer,
        documents: contextsOf(input.contexts),
        ...llmOptions(options, config),
      }),
  ).withConfig({ runName: "ragjudge_rubric" });
}

/** Seed 003's reference judge (1-5 against `ground_truth`). */
export function referenceJudgeRunnable(options: LlmJudgeRunnableOptions) {
  return RunnableLambda.from(
    (input: JudgeRunnableInput, config?: RunnableConfig): Promise<ReferenceResult> =>
      reference({
        question: input.question,
        answer: input.answer,
        ...(input.ground_truth !== undefined ? { ground_truth: input.ground_truth } : {}),
        ...(input.ground_truths !== undefined ? { ground_truths: input.ground_truths } : {}),
        ...llmOptions(options, config),
      }),
  ).withConfig({ runName: "ragjudge_reference" });
}
