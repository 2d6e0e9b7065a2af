// What one root run of a LangChain chain or graph saw, turned into ragjudge's answer record (the
// Production issue's AnswerInput): the last retriever run's documents as hits, the last LLM run's
// text as the answer. Pure: the callback handler collects, this translates.

import type { DocumentInterface } from "@langchain/core/documents";
import type { AnswerInput } from "../../client/index.js";
import type { EvaluatorInput } from "../../gate/index.js";

/** What the handler gathered under one root run. */
export interface RootRunTrace {
  runId: string;
  startedAt: number;
  /** The root run's inputs, read for the question. */
  inputs: unknown;
  /** Conversation id from the run's metadata (`conversation_id`, LangGraph's `thread_id`). */
  conversationId?: string;
  retrieval?: { runId: string; query: string; documents: DocumentInterface[] };
  generation?: {
    runId: string;
    model?: string;
    text: string;
    promptTokens?: number;
    completionTokens?: number;
  };
}

const QUESTION_KEYS = ["question", "input", "query"] as const;

/** The question: the root's string input, or its `question`/`input`/`query`, else the retriever's query. */
export function questionOf(trace: RootRunTrace): string | undefined {
  const inputs = trace.inputs;
  if (typeof inputs === "string" && inputs.trim()) return inputs;
  if (inputs && typeof inputs === "object") {
    for (const key of QUESTION_KEYS) {
      const value = (inputs as Record<string, unknown>)[key];
      if (typeof value === "string" && value.trim()) return value;
    }
  }
  return trace.retrieval?.query;
}

function metadataString(doc: DocumentInterface, key: string): string | undefined {
  const value = doc.metadata?.[key];
  return typeof value === "string" && value ? value : undefined;
}

function metadataNumber(doc: DocumentInterface, key: string): number | undefined {
  const value = doc.metadata?.[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * A document as a retrieval hit. Its id is the Document's `id`, else `metadata.node_id` or
 * `metadata.id`, else its 1-based position, which is what an answer's `[n]` cites.
 */
export function hitOf(doc: DocumentInterface, index: number): EvaluatorInput["retrieval_hits"][0] {
  const id =
    (typeof doc.id === "string" && doc.id) ||
    metadataString(doc, "node_id") ||
    metadataString(doc, "id") ||
    String(index + 1);
  const score = metadataNumber(doc, "relevance_score") ?? metadataNumber(doc, "score");
  const title = metadataString(doc, "title");
  const source = metadataString(doc, "source");
  return {
    node_id: id,
    content: doc.pageContent,
    ...(score !== undefined ? { score } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(source !== undefined ? { source } : {}),
  };
}

export interface RecordLabels {
  service?: string;
  collection?: string;
  metadata?: Record<string, string | number | boolean>;
}

/** The answer record of a finished root run; undefined when no LLM run answered in it. */
export function answerRecordOf(
  trace: RootRunTrace,
  endedAt: number,
  labels: RecordLabels = {},
): AnswerInput | undefined {
  const generation = trace.generation;
  if (!generation) return undefined;
  const retrievalId = trace.retrieval?.runId ?? `${trace.runId}-retrieval`;
  const query = questionOf(trace);
  const usage = {
    ...(generation.promptTokens !== undefined ? { prompt_tokens: generation.promptTokens } : {}),
    ...(generation.completionTokens !== undefined
      ? { completion_tokens: generation.completionTokens }
      : {}),
  };
  return {
    conversation_id: trace.conversationId ?? trace.runId,
    message_id: trace.runId,
    trace_id: trace.runId,
    retrieval_record: {
      id: retrievalId,
      ...(query !== undefined ? { query } : {}),
      ...(trace.retrieval ? { top_k: Math.max(1, trace.retrieval.documents.length) } : {}),
    },
    retrieval_hits: (trace.retrieval?.documents ?? []).map(hitOf),
    generation_record: {
      id: generation.runId,
      ...(generation.model ? { model: generation.model } : {}),
    },
    generation_output: { answer: generation.text, citations: [] },
    latency_ms: Math.max(0, Math.round(endedAt - trace.startedAt)),
    ...(Object.keys(usage).length > 0 ? { usage } : {}),
    ...(labels.service ? { service: labels.service } : {}),
    ...(labels.collection ? { collection: labels.collection } : {}),
    ...(labels.metadata ? { metadata: labels.metadata } : {}),
  };
}
