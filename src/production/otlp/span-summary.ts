// A trace's spans in short, kept with its answer record for the span tree on the answer's page:
// name, kind, parent, start (after the trace's first span) and duration. Pure.

import type { OtlpSpan } from "./decode.js";

export interface SpanSummary {
  span_id: string;
  parent_span_id: string | null;
  name: string;
  /** OpenInference's span kind, else the GenAI operation, else "span". */
  kind: string;
  start_ms: number;
  duration_ms: number;
}

/** At most this many spans are kept per answer (a trace may hold 2,000). */
export const MAX_SUMMARY_SPANS = 200;

function kindOf(span: OtlpSpan): string {
  const kind = span.attributes["openinference.span.kind"];
  if (typeof kind === "string" && kind) return kind.toUpperCase();
  const operation = span.attributes["gen_ai.operation.name"];
  if (typeof operation === "string" && operation) return operation;
  return "span";
}

export function summarizeSpans(spans: readonly OtlpSpan[]): SpanSummary[] {
  // By start; a parent before the children that start in the same instant.
  const sorted = [...spans]
    .sort((a, b) => a.startMs - b.startMs || Number(!!a.parentSpanId) - Number(!!b.parentSpanId))
    .slice(0, MAX_SUMMARY_SPANS);
  const origin = sorted[0]?.startMs ?? 0;
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  return sorted.map((span) => ({
    span_id: span.spanId,
    parent_span_id: span.parentSpanId ?? null,
    name: span.name.slice(0, 200),
    kind: kindOf(span),
    start_ms: round(span.startMs - origin),
    duration_ms: round(Math.max(0, span.endMs - span.startMs)),
  }));
}
