// Builds seed 004's EvaluatorInput from a loop's state, for the offline review and the final gate.

import {
  type EvaluatorInput,
  EvaluatorInputSchema,
  evaluateGate,
  type GateConfig,
  type GateVerdict,
} from "../../gate/index.js";
import type { RetrievedHit } from "../types.js";

export interface GateInputSource {
  conversation_id: string;
  message_id: string;
  /** The query retrieval ran with (after rewrites). */
  retrieval_query: string;
  hits: readonly RetrievedHit[];
  answer: string;
  citations: readonly string[];
  /** The model that wrote the answer ("extractive" without an LLM). */
  model: string;
}

export function gateInputFrom(source: GateInputSource): EvaluatorInput {
  return EvaluatorInputSchema.parse({
    conversation_id: source.conversation_id,
    message_id: source.message_id,
    retrieval_record: {
      id: `${source.message_id}:retrieval`,
      query: source.retrieval_query,
      top_k: Math.max(source.hits.length, 1),
    },
    retrieval_hits: source.hits.map((hit) => ({
      node_id: hit.node_id,
      content: hit.content,
      score: hit.score,
      source: hit.source,
    })),
    generation_record: { id: `${source.message_id}:generation`, model: source.model },
    generation_output: {
      answer: source.answer,
      citations: source.citations.map((node_id) => ({ node_id })),
    },
  });
}

export function gateVerdictFor(source: GateInputSource, config?: GateConfig): GateVerdict {
  return evaluateGate(gateInputFrom(source), config);
}
