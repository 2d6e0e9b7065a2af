import { describe, expect, it } from "vitest";
import { assembleTrace, isComplete } from "./assemble.js";
import type { Attributes, OtlpSpan } from "./decode.js";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
let next = 0;

function span(attributes: Attributes, options: Partial<OtlpSpan> = {}): OtlpSpan {
  next += 1;
  return {
    traceId: TRACE,
    spanId: next.toString(16).padStart(16, "0"),
    parentSpanId: "0000000000000001",
    name: "span",
    startMs: 1_000,
    endMs: 1_100,
    attributes,
    events: [],
    resource: { "service.name": "support-bot" },
    ...options,
  };
}

const root = () =>
  span(
    { "input.value": "When was it built?" },
    {
      spanId: "0000000000000001",
      parentSpanId: undefined,
      startMs: 1_000,
      endMs: 2_250,
    },
  );

describe("assembleTrace", () => {
  it("reads OpenInference: documents, output messages, model, token counts, session", () => {
    const spans = [
      root(),
      span({
        "openinference.span.kind": "RETRIEVER",
        "input.value": "bridge built",
        "retrieval.documents.1.document.id": "n2",
        "retrieval.documents.1.document.content": "Tickets cost 12 yuan.",
        "retrieval.documents.0.document.id": "n1",
        "retrieval.documents.0.document.content": "Built in 1870.",
        "retrieval.documents.0.document.score": 0.9,
      }),
      span({
        "openinference.span.kind": "LLM",
        "llm.model_name": "qwen-7b",
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": "When?",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": "Built in 1870 [n1].",
        "llm.token_count.prompt": 100,
        "llm.token_count.completion": 7,
        "session.id": "s-1",
      }),
    ];
    expect(isComplete(spans)).toBe(true);
    const result = assembleTrace(spans);
    expect(result).toMatchObject({
      ok: true,
      answer: {
        conversation_id: "s-1",
        session_id: "s-1",
        message_id: TRACE,
        trace_id: TRACE,
        service: "support-bot",
        latency_ms: 1_250,
        retrieval_record: { query: "bridge built" },
        retrieval_hits: [
          { node_id: "n1", content: "Built in 1870.", score: 0.9 },
          { node_id: "n2", content: "Tickets cost 12 yuan." },
        ],
        generation_record: { model: "qwen-7b" },
        generation_output: { answer: "Built in 1870 [n1].", citations: [{ node_id: "n1" }] },
        usage: { prompt_tokens: 100, completion_tokens: 7 },
      },
    });
  });

  it("reads the GenAI conventions: retrieval documents, older completion attributes, choice events", () => {
    const retrieval = span({
      "gen_ai.operation.name": "retrieval",
      "gen_ai.retrieval.query.text": "bridge",
      "gen_ai.retrieval.documents": JSON.stringify([
        { id: "d7", score: 0.5, content: "Built in 1870." },
      ]),
    });
    const completion = span({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.completion.0.content": "In 1870 [1].",
      "gen_ai.usage.input_tokens": 50,
    });
    const event = span({ "gen_ai.operation.name": "text_completion" }, { endMs: 1_200 });
    event.events.push({
      name: "gen_ai.choice",
      attributes: { message: JSON.stringify({ content: "1870 [d7]" }) },
    });
    const first = assembleTrace([root(), retrieval, completion]);
    expect(first).toMatchObject({
      ok: true,
      answer: {
        conversation_id: TRACE,
        retrieval_record: { query: "bridge" },
        retrieval_hits: [{ node_id: "d7", content: "Built in 1870.", score: 0.5 }],
        generation_output: { answer: "In 1870 [1].", citations: [{ node_id: "d7" }] },
        generation_record: { model: "gpt-4o-mini" },
        usage: { prompt_tokens: 50 },
      },
    });
    // The model call that ended last wrote the answer.
    const second = assembleTrace([root(), retrieval, completion, event]);
    expect(second.ok && second.answer.generation_output.answer).toBe("1870 [d7]");
  });

  it("says in words why a trace cannot be gated", () => {
    const llm = span({ "gen_ai.operation.name": "chat", "gen_ai.completion.0.content": "x" });
    const noRetrieval = assembleTrace([root(), llm]);
    expect(noRetrieval).toMatchObject({ ok: false, service: "support-bot" });
    expect(!noRetrieval.ok && noRetrieval.reason).toMatch(/^No retrieval span/);
    const emptyRetrieval = assembleTrace([
      root(),
      span({ "openinference.span.kind": "RETRIEVER" }),
      llm,
    ]);
    expect(!emptyRetrieval.ok && emptyRetrieval.reason).toMatch(/lists no documents/);
    const docs = span({
      "openinference.span.kind": "RETRIEVER",
      "retrieval.documents.0.document.content": "x",
    });
    const noAnswer = assembleTrace([root(), docs]);
    expect(!noAnswer.ok && noAnswer.reason).toMatch(/^No LLM span/);
    const silentLlm = assembleTrace([root(), docs, span({ "openinference.span.kind": "LLM" })]);
    expect(!silentLlm.ok && silentLlm.reason).toMatch(/carries no answer/);
    expect(isComplete([docs, llm])).toBe(false);
  });

  it("takes as root the earliest span whose parent never arrived", () => {
    const remoteChild = span(
      { "input.value": "from the gateway", "output.value": "y" },
      { spanId: "00000000000000aa", parentSpanId: "00000000000000ff", startMs: 500, endMs: 900 },
    );
    const docs = span(
      { "openinference.span.kind": "RETRIEVER", "retrieval.documents.0.document.content": "x" },
      { parentSpanId: "00000000000000aa" },
    );
    // No LLM span: the root's output.value is the answer.
    const result = assembleTrace([docs, remoteChild]);
    expect(result).toMatchObject({
      ok: true,
      answer: { latency_ms: 400, generation_output: { answer: "y" } },
    });
  });
});
