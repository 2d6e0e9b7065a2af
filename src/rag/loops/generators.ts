// What the generate_answer node calls. The LLM generator sends `messages` as they are (seed 000:
// the node builds no prompt); the extractive generator, used without an LLM, reads the hits and
// the last evaluation instead.

import type { PromptLanguage, ReviewVerdict } from "../../judges/index.js";
import { type CallRecord, type ChatMessage, type LlmClient, LlmError } from "../../llm/index.js";
import type { RetrievedHit } from "../types.js";
import { extractiveAnswer } from "./extractive-generator.js";
import { ModelFailureError } from "./model-failure.js";

export interface GenerateRequest {
  messages: readonly ChatMessage[];
  question: string;
  hits: readonly RetrievedHit[];
  last_answer: string;
  last_evaluation: ReviewVerdict | null;
  language: PromptLanguage;
  signal: AbortSignal;
}

export interface GeneratedAnswer {
  content: string;
  by: "llm" | "extractive";
  model: string;
  call?: CallRecord;
  /** Why the LLM's answer was replaced by the extractive one. */
  fallback_reason?: string;
  /** The model that failed, when this answer is a fallback (only with `answer.llm_fallback`). */
  fallback_from?: string;
}

export interface AnswerGenerator {
  readonly by: "llm" | "extractive";
  readonly model: string;
  generate(request: GenerateRequest): Promise<GeneratedAnswer>;
}

export const EXTRACTIVE_MODEL = "extractive";

/** The no-LLM generator; on a revision it leaves out the sentences the suggestions quote. */
export function extractiveGenerator(options: { maxSentences: number }): AnswerGenerator {
  return {
    by: "extractive",
    model: EXTRACTIVE_MODEL,
    async generate(request) {
      const evaluation = request.last_evaluation;
      const { answer } = extractiveAnswer(request.question, request.hits, {
        maxSentences: options.maxSentences,
        language: request.language,
        suggestions: evaluation && !evaluation.passed ? evaluation.suggestions : [],
      });
      return { content: answer, by: "extractive", model: EXTRACTIVE_MODEL };
    },
  };
}

/**
 * The `generator` role's model, given `messages` and nothing else. A failed call (after the
 * client's retries) throws ModelFailureError, or, when a `fallback` is given (the user asked for
 * one), falls back to it and says why; an aborted one is rethrown so the loop can take its timeout
 * exit.
 */
export function llmGenerator(client: LlmClient, fallback?: AnswerGenerator): AnswerGenerator {
  return {
    by: "llm",
    model: client.model,
    async generate(request) {
      try {
        const result = await client.chat({ messages: request.messages, signal: request.signal });
        return {
          content: result.content.trim(),
          by: "llm",
          model: client.model,
          call: result.call,
        };
      } catch (error) {
        if (request.signal.aborted || !LlmError.isInstance(error)) throw error;
        if (!fallback) {
          throw new ModelFailureError("generator", client.model, error.message, { cause: error });
        }
        const answer = await fallback.generate(request);
        return {
          ...answer,
          fallback_reason: `${error.name}: ${error.message}`,
          fallback_from: client.model,
        };
      }
    },
  };
}
