// Builds seed 004's EvaluatorInput from a loop's state, for the offline review and the final gate.

import {
  DEFAULT_GATE_CONFIG,
  type EvaluatorInput,
  evaluateGate,
  type GateConfig,
  type GateVerdict,
  LIMITS,
} from "../../gate/index.js";
import { truncateChars } from "../../judges/index.js";
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

/**
 * The input built field by field from typed state rather than parsed with EvaluatorInputSchema
 * (a schema parse of eight 1,500-character hits costs about 90 µs per answer); the schema's size
 * limits are applied here instead.
 */
export function gateInputFrom(source: GateInputSource): EvaluatorInput {
  const hits = source.hits.length > LIMITS.hits ? source.hits.slice(0, LIMITS.hits) : source.hits;
  return {
    conversation_id: source.conversation_id,
    message_id: source.message_id,
    retrieval_record: {
      id: `${source.message_id}:retrieval`,
      query: source.retrieval_query.slice(0, LIMITS.answerChars),
      top_k: Math.max(hits.length, 1),
    },
    retrieval_hits: hits.map((hit) => ({
      node_id: hit.node_id,
      content:
        hit.content.length > LIMITS.hitContentChars
          ? hit.content.slice(0, LIMITS.hitContentChars)
          : hit.content,
      score: hit.score,
      source: hit.source,
    })),
    generation_record: { id: `${source.message_id}:generation`, model: source.model },
    generation_output: {
      answer:
        source.answer.length > LIMITS.answerChars
          ? truncateChars(source.answer, LIMITS.answerChars - 1)
          : source.answer,
      citations: source.citations.slice(0, LIMITS.citations).map((node_id) => ({ node_id })),
    },
  };
}

interface Memo {
  answer: string;
  citations: string;
  config: GateConfig;
  verdict: GateVerdict;
}

// The offline review and the final gate judge the same answer against the same hits: the verdict
// is kept per hit list (the answer loop's own array) so the second asks nothing of the gate.
const memo = new WeakMap<readonly RetrievedHit[], Memo>();

/** evaluateGate on the state's answer; ids do not affect a verdict, so it is reused across them. */
export function gateVerdictFor(
  source: GateInputSource,
  config: GateConfig = DEFAULT_GATE_CONFIG,
): GateVerdict {
  const citations = source.citations.join("\u0000");
  const known = memo.get(source.hits);
  if (
    known !== undefined &&
    known.answer === source.answer &&
    known.citations === citations &&
    known.config === config
  ) {
    return known.verdict;
  }
  const verdict = evaluateGate(gateInputFrom(source), config);
  memo.set(source.hits, { answer: source.answer, citations, config, verdict });
  return verdict;
}
