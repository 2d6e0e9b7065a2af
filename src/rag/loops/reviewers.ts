// What the eval_answer node calls: the `review` judge on the judge role's own client (seed 000:
// LLM_MUTI_AGENT, never the generator's instance), or, without a judge model, the offline review
// built on the evidence gate.

import type { GateConfig, GateStatus } from "../../gate/index.js";
import {
  DEFAULT_JUDGES_CONFIG,
  type JudgesConfig,
  type PromptLanguage,
  review,
} from "../../judges/index.js";
import type { CallRecord, LlmClient } from "../../llm/index.js";
import type { RetrievedHit } from "../types.js";
import { citedNodeIds } from "./citations.js";
import { ModelFailureError } from "./model-failure.js";
import { offlineReview } from "./offline-review.js";

export interface ReviewRequest {
  question: string;
  answer: string;
  hits: readonly RetrievedHit[];
  retrieval_query: string;
  language: PromptLanguage;
  signal: AbortSignal;
}

export interface AnswerReview {
  passed: boolean;
  suggestions: string[];
  by: "llm" | "offline";
  model: string;
  /** "judge_error" when the judge's reply was unusable even after its re-ask (then not passed). */
  outcome: "ok" | "judge_error";
  calls: CallRecord[];
  /** The offline review's gate status. */
  gate_status?: GateStatus;
  /** Why the judge model was not used: none configured, or its call failed. */
  fallback_reason?: string;
  /** The judge model that failed, when this review is a fallback (only with `answer.llm_fallback`). */
  fallback_from?: string;
  error?: string;
}

export interface AnswerReviewer {
  readonly by: "llm" | "offline";
  readonly model: string;
  review(request: ReviewRequest): Promise<AnswerReview>;
}

export const OFFLINE_REVIEW_MODEL = "evidence-gate";

export function offlineReviewer(gate?: GateConfig): AnswerReviewer {
  return {
    by: "offline",
    model: OFFLINE_REVIEW_MODEL,
    async review(request) {
      const { verdict, gate: verdictOfGate } = offlineReview(
        {
          conversation_id: "review",
          message_id: "review",
          retrieval_query: request.retrieval_query,
          hits: request.hits,
          answer: request.answer,
          citations: citedNodeIds(request.answer, request.hits),
          model: "answer",
        },
        request.language,
        gate,
      );
      return {
        ...verdict,
        by: "offline",
        model: OFFLINE_REVIEW_MODEL,
        outcome: "ok",
        calls: [],
        gate_status: verdictOfGate.status,
        fallback_reason: "no judge model configured: deterministic review by the evidence gate",
      };
    },
  };
}

/**
 * The review judge on the judge client. A failed call (after the client's retries) throws
 * ModelFailureError, or, when a `fallback` is given (the user asked for one), falls back to it and
 * says why. An unusable reply is a judge_error review that did not pass.
 */
export function llmReviewer(
  client: LlmClient,
  fallback: AnswerReviewer | undefined,
  judges: JudgesConfig = DEFAULT_JUDGES_CONFIG,
): AnswerReviewer {
  return {
    by: "llm",
    model: client.model,
    async review(request) {
      const result = await review({
        question: request.question,
        answer: request.answer,
        contexts: request.hits.map((hit) => ({
          content: hit.content,
          node_id: hit.node_id,
          source: hit.title ?? hit.document_id,
        })),
        top_k: Math.max(request.hits.length, 1),
        client,
        config: judges,
        language: request.language,
        signal: request.signal,
      });
      if (result.outcome === "ok") {
        return {
          passed: result.verdict.passed,
          suggestions: result.verdict.suggestions,
          by: "llm",
          model: result.model,
          outcome: "ok",
          calls: result.calls,
        };
      }
      if (result.error.cause === "reply") {
        return {
          passed: false,
          suggestions: [],
          by: "llm",
          model: result.model,
          outcome: "judge_error",
          calls: result.calls,
          error: result.error.message,
        };
      }
      if (!fallback) throw new ModelFailureError("judge", client.model, result.error.message);
      const offline = await fallback.review(request);
      return {
        ...offline,
        fallback_reason: `${result.error.cause}: ${result.error.message}`,
        fallback_from: client.model,
      };
    },
  };
}
