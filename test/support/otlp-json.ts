// OTLP/JSON trace requests built by hand, for tests that control which spans go in which request:
// a RAG trace is a root span, an OpenInference retriever span and an LLM span.

export type RagSpanPart = "root" | "retriever" | "llm";

export const RAG_HIT = "The Lanting bridge was built in 1870 and rebuilt in 1962.";
export const RAG_ANSWER = "The Lanting bridge was built in 1870 [kb-1].";

const text = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** A trace id (32 hex digits) from a number and a tag that keeps tests apart. */
export function traceIdOf(tag: number, n: number): string {
  return `${tag.toString(16).padStart(8, "0")}${n.toString(16).padStart(24, "0")}`;
}

/** The OTLP/JSON body holding the given spans of RAG trace `traceId`. */
export function ragTraceJson(traceId: string, parts: readonly RagSpanPart[]) {
  const rootId = `${traceId.slice(-14)}01`;
  const nanos = (ms: number) => String(BigInt(Date.now() + ms) * 1_000_000n);
  const span = (part: RagSpanPart) => {
    const common = { traceId, startTimeUnixNano: nanos(0), endTimeUnixNano: nanos(5) };
    if (part === "root") {
      return {
        ...common,
        spanId: rootId,
        name: "rag.request",
        attributes: [
          text("openinference.span.kind", "CHAIN"),
          text("input.value", "When was the Lanting bridge built?"),
        ],
      };
    }
    const kind = part === "retriever" ? "RETRIEVER" : "LLM";
    return {
      ...common,
      spanId: `${traceId.slice(-14)}${part === "retriever" ? "02" : "03"}`,
      parentSpanId: rootId,
      name: part,
      attributes:
        part === "retriever"
          ? [
              text("openinference.span.kind", kind),
              text("retrieval.documents.0.document.id", "kb-1"),
              text("retrieval.documents.0.document.content", RAG_HIT),
            ]
          : [
              text("openinference.span.kind", kind),
              text("llm.model_name", "gpt-4o-mini"),
              text("output.value", RAG_ANSWER),
            ],
    };
  };
  return {
    resourceSpans: [
      {
        resource: { attributes: [text("service.name", "durability-bot")] },
        scopeSpans: [{ spans: parts.map(span) }],
      },
    ],
  };
}

/** Several whole RAG traces in one OTLP/JSON body. */
export function ragTracesJson(traceIds: readonly string[]) {
  const bodies = traceIds.map((id) => ragTraceJson(id, ["retriever", "llm", "root"]));
  return {
    resourceSpans: [
      {
        resource: bodies[0]?.resourceSpans[0]?.resource ?? { attributes: [] },
        scopeSpans: [
          { spans: bodies.flatMap((body) => body.resourceSpans[0]?.scopeSpans[0]?.spans ?? []) },
        ],
      },
    ],
  };
}
