import { describe, expect, it } from "vitest";
import type { OtlpSpan } from "./decode.js";
import { summarizeSpans } from "./span-summary.js";

const span = (
  id: string,
  parent: string | undefined,
  start: number,
  end: number,
  attributes = {},
): OtlpSpan => ({
  traceId: "t".repeat(32),
  spanId: id,
  ...(parent ? { parentSpanId: parent } : {}),
  name: `span ${id}`,
  startMs: start,
  endMs: end,
  attributes,
  events: [],
  resource: {},
});

describe("summarizeSpans", () => {
  it("gives each span its kind, parent, start after the first span and duration, the root first", () => {
    expect(
      summarizeSpans([
        span("b", "a", 1000.5, 1010, { "openinference.span.kind": "retriever" }),
        span("c", "a", 1000, 1400, { "gen_ai.operation.name": "chat" }),
        span("a", undefined, 1000, 1500),
      ]),
    ).toEqual([
      {
        span_id: "a",
        parent_span_id: null,
        name: "span a",
        kind: "span",
        start_ms: 0,
        duration_ms: 500,
      },
      {
        span_id: "c",
        parent_span_id: "a",
        name: "span c",
        kind: "chat",
        start_ms: 0,
        duration_ms: 400,
      },
      {
        span_id: "b",
        parent_span_id: "a",
        name: "span b",
        kind: "RETRIEVER",
        start_ms: 0.5,
        duration_ms: 9.5,
      },
    ]);
  });
});
