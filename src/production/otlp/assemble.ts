// One trace's spans into one answer record, reading the two conventions people emit (issue 24
// §1.1): OpenInference (openinference.span.kind, retrieval.documents.N.document.*,
// llm.output_messages.N.message.*, input.value / output.value, session.id, user.id, metadata) and
// the OpenTelemetry GenAI semantic conventions (gen_ai.operation.name, gen_ai.request/response.model,
// gen_ai.usage.*, gen_ai.input/output.messages, gen_ai.retrieval.documents, the older
// gen_ai.prompt/completion.N.* attributes and gen_ai.choice events). Pure: no IO.

import { findCitationMarkers } from "../../text/index.js";
import type { AnswerInput } from "../answer-input.js";
import type { Attributes, AttributeValue, OtlpSpan } from "./decode.js";

export type AssembledTrace =
  { ok: true; answer: AnswerInput } | { ok: false; reason: string; service?: string };

type SpanRole = "retriever" | "llm" | "other";

const LLM_OPERATIONS = new Set(["chat", "text_completion", "generate_content", "completion"]);

function roleOf(span: OtlpSpan): SpanRole {
  const kind = text(span.attributes["openinference.span.kind"])?.toUpperCase();
  if (kind === "RETRIEVER") return "retriever";
  if (kind === "LLM") return "llm";
  const operation = text(span.attributes["gen_ai.operation.name"]);
  if (operation === "retrieval") return "retriever";
  if (operation && LLM_OPERATIONS.has(operation)) return "llm";
  if (kind === undefined && hasPrefix(span.attributes, "retrieval.documents.")) return "retriever";
  return "other";
}

const text = (value: AttributeValue | undefined): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;
const num = (value: AttributeValue | undefined): number | undefined =>
  typeof value === "number" && Number.isFinite(value)
    ? value
    : typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))
      ? Number(value)
      : undefined;

function hasPrefix(attributes: Attributes, prefix: string): boolean {
  return Object.keys(attributes).some((key) => key.startsWith(prefix));
}

/** `prefix.N.rest` keys grouped by N, in index order: OpenInference's flattened lists. */
function indexed(attributes: Attributes, prefix: string): Attributes[] {
  const byIndex = new Map<number, Attributes>();
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    const dot = rest.indexOf(".");
    const index = Number(dot === -1 ? rest : rest.slice(0, dot));
    if (!Number.isInteger(index) || index < 0) continue;
    const item = byIndex.get(index) ?? {};
    item[dot === -1 ? "" : rest.slice(dot + 1)] = value;
    byIndex.set(index, item);
  }
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, item]) => item);
}

/** A JSON string attribute, or the structured value itself. */
function structured(value: AttributeValue | undefined): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

type Hit = AnswerInput["retrieval_hits"][number];

function hitsOf(span: OtlpSpan): Hit[] {
  const hits: Hit[] = [];
  // OpenInference: retrieval.documents.N.document.{id,content,score}
  for (const doc of indexed(span.attributes, "retrieval.documents.")) {
    const content = text(doc["document.content"]) ?? "";
    const score = num(doc["document.score"]);
    hits.push({
      node_id: text(doc["document.id"]) ?? `doc-${hits.length + 1}`,
      content,
      ...(score === undefined ? {} : { score }),
    });
  }
  if (hits.length > 0) return hits;
  // GenAI: gen_ai.retrieval.documents, a list of {id, score, content?} (structured or JSON).
  const docs = structured(span.attributes["gen_ai.retrieval.documents"]);
  if (Array.isArray(docs)) {
    for (const doc of docs) {
      if (typeof doc !== "object" || doc === null) continue;
      const d = doc as Record<string, unknown>;
      const score = typeof d.score === "number" ? d.score : undefined;
      hits.push({
        node_id: typeof d.id === "string" && d.id ? d.id : `doc-${hits.length + 1}`,
        content: typeof d.content === "string" ? d.content : "",
        ...(score === undefined ? {} : { score }),
      });
    }
  }
  return hits;
}

/** The text of a GenAI message ({role, parts: [{type: "text", content}]}) or an older {content}. */
function genAiMessageText(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const m = message as Record<string, unknown>;
  if (typeof m.content === "string") return m.content;
  if (Array.isArray(m.parts)) {
    const parts = m.parts
      .map((p) => (typeof p === "object" && p !== null ? (p as Record<string, unknown>) : {}))
      .filter((p) => p.type === "text" && typeof p.content === "string")
      .map((p) => p.content as string);
    return parts.length > 0 ? parts.join("") : undefined;
  }
  return undefined;
}

function lastMessageText(messages: unknown, role?: string): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Record<string, unknown> | undefined;
    if (role && m?.role !== role) continue;
    const value = genAiMessageText(m);
    if (value) return value;
  }
  return undefined;
}

function answerOf(span: OtlpSpan): string | undefined {
  const a = span.attributes;
  const openInference = indexed(a, "llm.output_messages.")
    .map((m) => text(m["message.content"]))
    .filter((m) => m !== undefined);
  if (openInference.length > 0) return openInference.join("\n");
  const genAi = lastMessageText(structured(a["gen_ai.output.messages"]));
  if (genAi) return genAi;
  const completion = indexed(a, "gen_ai.completion.")
    .map((m) => text(m.content))
    .filter((m) => m !== undefined);
  if (completion.length > 0) return completion.join("\n");
  for (const event of span.events) {
    if (event.name !== "gen_ai.choice") continue;
    const message = structured(event.attributes.message);
    const value = genAiMessageText(message) ?? text(event.attributes.content);
    if (value) return value;
  }
  return text(a["output.value"]);
}

function questionOf(span: OtlpSpan): string | undefined {
  const a = span.attributes;
  const openInference = indexed(a, "llm.input_messages.")
    .filter((m) => m["message.role"] === "user")
    .map((m) => text(m["message.content"]))
    .filter((m) => m !== undefined);
  if (openInference.length > 0) return openInference.at(-1);
  return lastMessageText(structured(a["gen_ai.input.messages"]), "user");
}

/** Markers in the answer matched to hits: by node id, or by 1-based position ([1] is the first). */
function citationsOf(answer: string, hits: readonly Hit[]): { node_id: string }[] {
  const ids = new Set<string>();
  for (const marker of findCitationMarkers(answer)) {
    for (const ref of marker.refs) {
      const byId = hits.find((hit) => hit.node_id === ref);
      const position = /^\d+$/.test(ref) ? hits[Number(ref) - 1] : undefined;
      const hit = byId ?? position;
      if (hit) ids.add(hit.node_id);
    }
  }
  return [...ids].map((node_id) => ({ node_id }));
}

/** The trace's root: the span with no parent, else the earliest whose parent never arrived. */
export function rootOf(spans: readonly OtlpSpan[]): OtlpSpan | undefined {
  const ids = new Set(spans.map((s) => s.spanId));
  const parentless = spans.filter((s) => !s.parentSpanId);
  const candidates =
    parentless.length > 0 ? parentless : spans.filter((s) => !ids.has(s.parentSpanId ?? ""));
  return [...candidates].sort((a, b) => a.startMs - b.startMs)[0];
}

/** True when the trace holds what an answer record needs, so it need not wait for more spans. */
export function isComplete(spans: readonly OtlpSpan[]): boolean {
  const root = spans.find((s) => !s.parentSpanId);
  if (!root) return false;
  const roles = spans.map(roleOf);
  return roles.includes("retriever") && roles.includes("llm");
}

function metadataOf(spans: readonly OtlpSpan[]): AnswerInput["metadata"] {
  const out: Record<string, string | number | boolean> = {};
  for (const span of spans) {
    const meta = structured(span.attributes.metadata);
    if (typeof meta === "object" && meta !== null && !Array.isArray(meta)) {
      for (const [key, value] of Object.entries(meta as Record<string, unknown>)) {
        if (Object.keys(out).length >= 60) break;
        if (key.length > 128) continue;
        if (typeof value === "string") out[key] = value.slice(0, 1_000);
        else if (typeof value === "number" || typeof value === "boolean") out[key] = value;
      }
    }
    const user = text(span.attributes["user.id"]);
    if (user && out["user.id"] === undefined) out["user.id"] = user.slice(0, 1_000);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The first value of `key` on the root, then on any span. */
function firstText(spans: readonly OtlpSpan[], root: OtlpSpan, key: string): string | undefined {
  return text(root.attributes[key]) ?? spans.map((s) => text(s.attributes[key])).find(Boolean);
}

const clip = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);

/** Builds the answer record a trace describes, or says in words why it cannot be gated. */
export function assembleTrace(spans: readonly OtlpSpan[]): AssembledTrace {
  const root = rootOf(spans);
  const service = text(spans[0]?.resource["service.name"]);
  const refuse = (reason: string): AssembledTrace => ({
    ok: false,
    reason,
    ...(service ? { service: clip(service, 256) } : {}),
  });
  if (!root) return refuse("The trace has no spans.");
  const retrievers = spans.filter((s) => roleOf(s) === "retriever");
  const llms = spans.filter((s) => roleOf(s) === "llm").sort((a, b) => a.endMs - b.endMs);
  if (retrievers.length === 0) {
    return refuse(
      "No retrieval span: no span has openinference.span.kind RETRIEVER or gen_ai.operation.name retrieval, so there is no evidence to gate the answer against.",
    );
  }
  const hits = retrievers.flatMap(hitsOf);
  if (hits.length === 0) {
    return refuse(
      "The retrieval span lists no documents (retrieval.documents.N.document.* or gen_ai.retrieval.documents).",
    );
  }
  // The last model call usually writes the answer the user sees.
  const llm = llms.at(-1);
  const answer = (llm ? answerOf(llm) : undefined) ?? text(root.attributes["output.value"]);
  if (!answer) {
    return refuse(
      llm
        ? "The LLM span carries no answer (llm.output_messages, gen_ai.output.messages, gen_ai.completion or output.value)."
        : "No LLM span (openinference.span.kind LLM or gen_ai.operation.name chat) and no output.value on the root span: there is no answer to gate.",
    );
  }
  const query =
    text(retrievers[0]?.attributes["input.value"]) ??
    text(retrievers[0]?.attributes["gen_ai.retrieval.query.text"]) ??
    (llm ? questionOf(llm) : undefined) ??
    text(root.attributes["input.value"]);
  const model = llm
    ? (text(llm.attributes["llm.model_name"]) ??
      text(llm.attributes["gen_ai.response.model"]) ??
      text(llm.attributes["gen_ai.request.model"]))
    : undefined;
  const promptTokens = llms
    .map(
      (s) =>
        num(s.attributes["llm.token_count.prompt"]) ??
        num(s.attributes["gen_ai.usage.input_tokens"]) ??
        num(s.attributes["gen_ai.usage.prompt_tokens"]),
    )
    .reduce<number | undefined>((sum, n) => (n === undefined ? sum : (sum ?? 0) + n), undefined);
  const completionTokens = llms
    .map(
      (s) =>
        num(s.attributes["llm.token_count.completion"]) ??
        num(s.attributes["gen_ai.usage.output_tokens"]) ??
        num(s.attributes["gen_ai.usage.completion_tokens"]),
    )
    .reduce<number | undefined>((sum, n) => (n === undefined ? sum : (sum ?? 0) + n), undefined);
  const session =
    firstText(spans, root, "session.id") ?? firstText(spans, root, "gen_ai.conversation.id");
  const collection = firstText(spans, root, "db.collection.name");
  const traceId = root.traceId;
  const metadata = metadataOf(spans);
  const latency = Math.round(root.endMs - root.startMs);
  const usage = {
    ...(promptTokens === undefined ? {} : { prompt_tokens: Math.round(promptTokens) }),
    ...(completionTokens === undefined ? {} : { completion_tokens: Math.round(completionTokens) }),
  };
  const record: AnswerInput = {
    conversation_id: clip(session ?? traceId, 256),
    message_id: traceId,
    retrieval_record: { id: retrievers[0]?.spanId ?? traceId, ...(query ? { query } : {}) },
    retrieval_hits: hits.map((hit) => ({ ...hit, node_id: clip(hit.node_id, 256) })),
    generation_record: {
      id: llm?.spanId ?? root.spanId,
      ...(model ? { model: clip(model, 256) } : {}),
    },
    generation_output: { answer, citations: citationsOf(answer, hits) },
    trace_id: traceId,
    ...(session ? { session_id: clip(session, 256) } : {}),
    ...(service ? { service: clip(service, 256) } : {}),
    ...(collection ? { collection: clip(collection, 256) } : {}),
    ...(latency >= 0 && latency <= 86_400_000 ? { latency_ms: latency } : {}),
    ...(Object.keys(usage).length > 0 ? { usage } : {}),
    ...(metadata ? { metadata } : {}),
  };
  return { ok: true, answer: record };
}
