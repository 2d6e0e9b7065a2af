import { Document } from "@langchain/core/documents";
import { describe, expect, it } from "vitest";
import { AnswerInputSchema } from "../../production/index.js";
import { answerRecordOf, hitOf, questionOf, type RootRunTrace } from "./answer-record.js";

const trace = (over: Partial<RootRunTrace> = {}): RootRunTrace => ({
  runId: "root-1",
  startedAt: 1_000,
  inputs: { question: "When was the bridge built?" },
  retrieval: {
    runId: "ret-1",
    query: "bridge built",
    documents: [
      new Document({ id: "n1", pageContent: "Built in 1870.", metadata: { relevance_score: 0.8 } }),
      new Document({ pageContent: "No id here.", metadata: { score: 0.3, title: "Notes" } }),
    ],
  },
  generation: { runId: "llm-1", model: "m", text: "In 1870 [n1].", promptTokens: 12 },
  ...over,
});

describe("questionOf", () => {
  it("reads a string input, then question/input/query, then the retriever's query", () => {
    expect(questionOf(trace({ inputs: "Plain?" }))).toBe("Plain?");
    expect(questionOf(trace())).toBe("When was the bridge built?");
    expect(questionOf(trace({ inputs: { input: "Via input?" } }))).toBe("Via input?");
    expect(questionOf(trace({ inputs: { messages: [] } }))).toBe("bridge built");
  });
});

describe("hitOf", () => {
  it("takes the Document's id, else metadata ids, else its 1-based position", () => {
    expect(hitOf(new Document({ id: "a", pageContent: "x" }), 0).node_id).toBe("a");
    expect(hitOf(new Document({ pageContent: "x", metadata: { node_id: "b" } }), 0).node_id).toBe(
      "b",
    );
    expect(hitOf(new Document({ pageContent: "x" }), 2)).toEqual({ node_id: "3", content: "x" });
  });
});

describe("answerRecordOf", () => {
  it("is a valid answer record: hits, answer, model, usage and latency", () => {
    const record = answerRecordOf(trace(), 1_250, { service: "svc" })!;
    expect(AnswerInputSchema.parse(record)).toMatchObject({
      conversation_id: "root-1",
      message_id: "root-1",
      trace_id: "root-1",
      retrieval_record: { id: "ret-1", query: "When was the bridge built?", top_k: 2 },
      retrieval_hits: [
        { node_id: "n1", content: "Built in 1870.", score: 0.8 },
        { node_id: "2", content: "No id here.", score: 0.3, title: "Notes" },
      ],
      generation_record: { id: "llm-1", model: "m" },
      generation_output: { answer: "In 1870 [n1].", citations: [] },
      latency_ms: 250,
      usage: { prompt_tokens: 12 },
      service: "svc",
    });
  });

  it("a root run in which no LLM answered gives no record", () => {
    expect(answerRecordOf(trace({ generation: undefined }), 2_000)).toBeUndefined();
  });
});
