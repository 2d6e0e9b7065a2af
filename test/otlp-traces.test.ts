// Issue 24 §1.1 end to end: the real OpenTelemetry JS SDK and its OTLP exporters (JSON and
// protobuf, gzip) send RAG traces to a real server on 127.0.0.1, and the stored, gated answer
// records are read back over the API.

import { gzipSync } from "node:zlib";
import { context, type Span, trace, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeTraceRequestProto } from "../src/production/index.js";
import { createApp, listen } from "../src/server/index.js";
import {
  createApiToken,
  createIngestKey,
  findOrCreateUser,
  type Store,
} from "../src/store/index.js";
import { openTestStore } from "./support/stores.js";

const HIT_1 = "The Lanting bridge was built in 1870 by the river guild.";
const HIT_2 = "Tickets to the bridge museum cost 12 yuan.";
const GOOD =
  "The Lanting bridge was built in 1870 by the river guild [1]. Tickets cost 12 yuan [kb-2].";
const WAIT_MS = 300;

interface AnswerJson {
  id: string;
  source: string;
  trace_id: string | null;
  conversation_id: string;
  message_id: string;
  session_id: string | null;
  service: string | null;
  model: string | null;
  query: string | null;
  answer: string;
  latency_ms: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  metadata: Record<string, unknown>;
  input: {
    retrieval_hits: { node_id: string; content: string; score?: number }[];
    generation_output: { citations: { node_id: string }[] };
  };
  gate: { status: string };
}

describe("OTLP traces through the OpenTelemetry SDK", () => {
  let store: Store;
  let server: Awaited<ReturnType<typeof listen>>;
  let token = "";
  let ingestKey = "";

  beforeAll(async () => {
    store = await openTestStore("pglite");
    const user = await findOrCreateUser(store.db, "otlp-alice");
    token = await createApiToken(store.db, user.id);
    ingestKey = (await createIngestKey(store.db, { workspaceId: user.id, userId: user.id }, "otlp"))
      .key;
    const app = createApp({
      db: store.db,
      webDir: false,
      config: { production: { retention_days: 30, trace_wait_ms: WAIT_MS } },
    });
    server = await listen(app, { host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const answers = () =>
    api<{ items: AnswerJson[] }>("/api/v1/answers?limit=500").then((r) => r.items);
  const answerFor = async (traceId: string) =>
    (await answers()).filter((a) => a.trace_id === traceId);
  const rejected = () =>
    api<{
      total: number;
      items: { trace_id: string; reason: string; span_count: number; service: string | null }[];
    }>("/api/v1/traces/rejected");

  function tracerWith(exporter: SpanExporter, batch = true) {
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": "support-bot" }),
      spanProcessors: [
        batch ? new BatchSpanProcessor(exporter) : new SimpleSpanProcessor(exporter),
      ],
    });
    return { provider, tracer: provider.getTracer("rag-app") };
  }

  /** A RAG request: a root span, an OpenInference retriever span, a GenAI LLM span. */
  function emitRag(
    tracer: Tracer,
    options: {
      retrieval?: boolean;
      answer?: string;
      session?: string;
      /** gen_ai.evaluation.result events on the root span (feedback inside the trace). */
      evaluations?: Record<string, string | number>[];
    } = {},
  ): string {
    const root = tracer.startSpan("rag.request", {
      attributes: {
        "openinference.span.kind": "CHAIN",
        "input.value": "When was the Lanting bridge built?",
        ...(options.session ? { "session.id": options.session } : {}),
        "user.id": "user-42",
        metadata: JSON.stringify({ tenant: "acme", plan: "pro" }),
      },
    });
    const inRoot = trace.setSpan(context.active(), root);
    if (options.retrieval !== false) {
      const retriever = tracer.startSpan(
        "retrieve",
        {
          attributes: {
            "openinference.span.kind": "RETRIEVER",
            "input.value": "When was the Lanting bridge built?",
            "retrieval.documents.0.document.id": "kb-1",
            "retrieval.documents.0.document.content": HIT_1,
            "retrieval.documents.0.document.score": 0.92,
            "retrieval.documents.1.document.id": "kb-2",
            "retrieval.documents.1.document.content": HIT_2,
            "retrieval.documents.1.document.score": 0.71,
          },
        },
        inRoot,
      );
      retriever.end();
    }
    const llm: Span = tracer.startSpan(
      "chat gpt-4o-mini",
      {
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": "gpt-4o-mini",
          "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
          "gen_ai.usage.input_tokens": 812,
          "gen_ai.usage.output_tokens": 36,
          "gen_ai.output.messages": JSON.stringify([
            { role: "assistant", parts: [{ type: "text", content: options.answer ?? GOOD }] },
          ]),
        },
      },
      inRoot,
    );
    llm.end();
    for (const attributes of options.evaluations ?? []) {
      root.addEvent("gen_ai.evaluation.result", attributes);
    }
    root.end();
    return root.spanContext().traceId;
  }

  it("turns a RAG trace sent as gzip JSON into one gated answer record", async () => {
    const exporter = new JsonExporter({
      url: `${server.url}/v1/traces`,
      headers: { authorization: `Bearer ${ingestKey}` },
      compression: "gzip" as never,
    });
    const { provider, tracer } = tracerWith(exporter);
    const traceId = emitRag(tracer, { session: "sess-7" });
    await provider.forceFlush();
    await provider.shutdown();

    const [record, ...more] = await answerFor(traceId);
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      source: "otlp",
      conversation_id: "sess-7",
      message_id: traceId,
      session_id: "sess-7",
      service: "support-bot",
      model: "gpt-4o-mini-2024-07-18",
      query: "When was the Lanting bridge built?",
      answer: GOOD,
      prompt_tokens: 812,
      completion_tokens: 36,
      metadata: { tenant: "acme", plan: "pro", "user.id": "user-42" },
      gate: { status: "pass" },
    });
    expect(record?.input.retrieval_hits).toEqual([
      { node_id: "kb-1", content: HIT_1, score: 0.92 },
      { node_id: "kb-2", content: HIT_2, score: 0.71 },
    ]);
    // [1] is the first hit by position, [kb-2] names a hit by id.
    expect(record?.input.generation_output.citations).toEqual([
      { node_id: "kb-1" },
      { node_id: "kb-2" },
    ]);
    expect(record?.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it("reads protobuf from the proto exporter, and a wrong figure fails the gate", async () => {
    const exporter = new ProtoExporter({
      url: `${server.url}/v1/traces`,
      headers: { authorization: `Bearer ${token}` },
    });
    const { provider, tracer } = tracerWith(exporter);
    const traceId = emitRag(tracer, {
      answer: "The Lanting bridge was built in 1875 by the river guild [1].",
    });
    await provider.forceFlush();
    await provider.shutdown();
    const [record] = await answerFor(traceId);
    expect(record?.conversation_id).toBe(traceId);
    expect(record?.gate.status).toBe("fail");
  });

  it("stores a trace without retrieval as rejected, with its reason, after the wait", async () => {
    const before = (await rejected()).total;
    const exporter = new JsonExporter({
      url: `${server.url}/v1/traces`,
      headers: { authorization: `Bearer ${token}` },
    });
    const { provider, tracer } = tracerWith(exporter);
    const traceId = emitRag(tracer, { retrieval: false });
    await provider.forceFlush();
    await provider.shutdown();
    await expect.poll(async () => (await rejected()).total, { timeout: 10_000 }).toBe(before + 1);
    const item = (await rejected()).items.find((r) => r.trace_id === traceId);
    expect(item).toMatchObject({ span_count: 2, service: "support-bot" });
    expect(item?.reason).toMatch(/No retrieval span/);
    expect(await answerFor(traceId)).toEqual([]);
  });

  /** Spans recorded in memory, then sent by the real exporter in the groups a test chooses. */
  async function recorded(emit: (tracer: Tracer) => string) {
    const memory = new InMemorySpanExporter();
    const { provider, tracer } = tracerWith(memory, false);
    const traceId = emit(tracer);
    await provider.forceFlush();
    const spans = memory.getFinishedSpans();
    const byName = (name: string) => spans.find((s) => s.name === name) as ReadableSpan;
    return { traceId, byName };
  }
  /** ReadableSpans as an OTLP/JSON request, built by hand so the test controls the body. */
  const otlpJson = (traceId: string, spans: ReadableSpan[]) => ({
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "support-bot" } }] },
        scopeSpans: [
          {
            spans: spans.map((span) => ({
              traceId,
              spanId: span.spanContext().spanId,
              ...(span.parentSpanContext ? { parentSpanId: span.parentSpanContext.spanId } : {}),
              name: span.name,
              startTimeUnixNano: String(span.startTime[0] * 1e9 + span.startTime[1]),
              endTimeUnixNano: String(span.endTime[0] * 1e9 + span.endTime[1]),
              attributes: Object.entries(span.attributes).map(([key, value]) => ({
                key,
                value:
                  typeof value === "number"
                    ? { doubleValue: value }
                    : { stringValue: String(value) },
              })),
            })),
          },
        ],
      },
    ],
  });
  const send = (exporter: SpanExporter, spans: ReadableSpan[]) =>
    new Promise<number>((resolve) => exporter.export(spans, (result) => resolve(result.code)));

  it("keeps the trace's spans in short, and takes gen_ai.evaluation.result events as feedback on its answer", async () => {
    const exporter = new ProtoExporter({
      url: `${server.url}/v1/traces`,
      headers: { authorization: `Bearer ${ingestKey}` },
    });
    const { provider, tracer } = tracerWith(exporter);
    const traceId = emitRag(tracer, {
      evaluations: [
        {
          "gen_ai.evaluation.name": "user_feedback",
          "gen_ai.evaluation.score.label": "thumbs_down",
          "gen_ai.evaluation.explanation": "The year is wrong.",
        },
        { "gen_ai.evaluation.name": "helpfulness", "gen_ai.evaluation.score.value": 0.75 },
        // Says nothing ragjudge can keep: no thumb, a score off [0, 1], no explanation.
        { "gen_ai.evaluation.name": "stars", "gen_ai.evaluation.score.value": 4 },
      ],
    });
    await provider.forceFlush();
    await provider.shutdown();
    const [record] = await answerFor(traceId);
    const detail = await api<{
      feedback: { thumb: string | null; score: number | null; comment: string | null }[];
      spans: { span_id: string; name: string; parent_span_id: string | null; kind: string }[];
    }>(`/api/v1/answers/${record?.id}`);
    expect(detail.feedback.map((f) => [f.thumb, f.score, f.comment])).toEqual([
      ["down", null, "user_feedback: The year is wrong."],
      [null, 0.75, null],
    ]);
    // The root first; its children (which may start in the same millisecond) under it.
    const [root, ...children] = detail.spans;
    expect(root).toMatchObject({ name: "rag.request", kind: "CHAIN", parent_span_id: null });
    expect(children.map((span) => [span.name, span.kind]).sort()).toEqual([
      ["chat gpt-4o-mini", "chat"],
      ["retrieve", "RETRIEVER"],
    ]);
    expect(children.every((span) => span.parent_span_id === root?.span_id)).toBe(true);
  });

  it("assembles spans that arrive out of order in two requests, and stores a re-sent export once", async () => {
    const { traceId, byName } = await recorded((tracer) => emitRag(tracer));
    const exporter = new ProtoExporter({
      url: `${server.url}/v1/traces`,
      headers: { authorization: `Bearer ${token}` },
    });
    // The root and the LLM span first: not complete, so it waits for the retriever.
    expect(await send(exporter, [byName("rag.request"), byName("chat gpt-4o-mini")])).toBe(0);
    expect(await answerFor(traceId)).toEqual([]);
    expect(await send(exporter, [byName("retrieve")])).toBe(0);
    expect(await answerFor(traceId)).toHaveLength(1);
    // The whole trace again (an exporter retry after a lost answer): still one record.
    const all = [byName("retrieve"), byName("chat gpt-4o-mini"), byName("rag.request")];
    expect(await send(exporter, all)).toBe(0);
    expect(await answerFor(traceId)).toHaveLength(1);
    await exporter.shutdown();
  });

  it(
    "answers 429 with Retry-After when too many spans wait, and the exporter's retry gets in",
    { timeout: 20_000 },
    async () => {
      const small = await listen(
        createApp({
          db: store.db,
          webDir: false,
          // Long enough that the 429 below comes before the waiting trace is stored, even on a
          // loaded machine; its Retry-After is then 2 s.
          config: { production: { retention_days: 30, trace_wait_ms: 1_500 } },
          traces: { maxPendingSpans: 3 },
        }),
        { host: "127.0.0.1", port: 0 },
      );
      try {
        const waiting = await recorded((tracer) => emitRag(tracer, { retrieval: false }));
        const complete = await recorded((tracer) => emitRag(tracer));
        const headers = { authorization: `Bearer ${token}` };
        // Two spans of a trace without retrieval wait for more; three more would not fit.
        const first = new ProtoExporter({ url: `${small.url}/v1/traces`, headers });
        expect(
          await send(first, [waiting.byName("rag.request"), waiting.byName("chat gpt-4o-mini")]),
        ).toBe(0);
        const busy = await fetch(`${small.url}/v1/traces`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({
            resourceSpans: [
              {
                scopeSpans: [
                  {
                    spans: ["1", "2", "3"].map((n) => ({
                      traceId: "1".repeat(32),
                      spanId: n.repeat(16),
                    })),
                  },
                ],
              },
            ],
          }),
        });
        expect(busy.status).toBe(429);
        expect(busy.headers.get("retry-after")).toBe("2");
        // The exporter is refused (429) until the waiting trace's wait is over, retries after
        // Retry-After, and gets in.
        const exporter = new ProtoExporter({ url: `${small.url}/v1/traces`, headers });
        const all = [
          complete.byName("retrieve"),
          complete.byName("chat gpt-4o-mini"),
          complete.byName("rag.request"),
        ];
        expect(await send(exporter, all)).toBe(0);
        expect(await answerFor(complete.traceId)).toHaveLength(1);
        expect((await rejected()).items.map((r) => r.trace_id)).toContain(waiting.traceId);
      } finally {
        await small.close();
      }
    },
  );

  it("answers 503 with Retry-After while the database cannot be written, and stores the retry once", async () => {
    const { traceId, byName } = await recorded((tracer) => emitRag(tracer));
    const exportJson = () =>
      fetch(`${server.url}/v1/traces`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(
          otlpJson(traceId, [
            byName("rag.request"),
            byName("retrieve"),
            byName("chat gpt-4o-mini"),
          ]),
        ),
      });
    // The answers' key table gone: every write of an answer fails, as with a database away.
    await store.db.execute(sql`alter table answer_keys rename to answer_keys_away`);
    try {
      const refused = await exportJson();
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("2");
      expect(await refused.json()).toMatchObject({ code: 14, error: "unavailable" });
    } finally {
      await store.db.execute(sql`alter table answer_keys_away rename to answer_keys`);
    }
    expect((await exportJson()).status).toBe(200);
    expect(await answerFor(traceId)).toHaveLength(1);
  });

  it("answers a hostile body with 400 naming the limit, and a protobuf one with a protobuf Status", async () => {
    const nested = { stringValue: "x" } as Record<string, unknown>;
    let value: Record<string, unknown> = nested;
    for (let i = 0; i < 20; i++) value = { arrayValue: { values: [value] } };
    const deep = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: "0af7651916cd43dd8448eb211c80319c",
                  spanId: "b7ad6b7169203331",
                  name: "x",
                  attributes: [{ key: "deep", value }],
                },
              ],
            },
          ],
        },
      ],
    };
    const json = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "content-encoding": "gzip",
      },
      body: gzipSync(JSON.stringify(deep)),
    });
    expect(json.status).toBe(400);
    const body = (await json.json()) as {
      limit: string;
      message: string;
      issues: { path: string }[];
    };
    expect(body.limit).toBe("attributeDepth");
    expect(body.issues[0]?.path).toMatch(
      /^resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.attributes\[0\]\.value/,
    );

    // A gzip bomb: a few kilobytes that inflate past the limit.
    const bomb = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/x-protobuf",
        "content-encoding": "gzip",
      },
      body: gzipSync(Buffer.alloc(40 * 1024 * 1024)),
    });
    expect(bomb.status).toBe(400);
    expect(bomb.headers.get("content-type")).toBe("application/x-protobuf");
    expect(Buffer.from(await bomb.arrayBuffer()).toString()).toMatch(/limit inflatedBytes/);

    const tooBig = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-protobuf" },
      body: new Uint8Array(5 * 1024 * 1024),
    });
    expect(tooBig.status).toBe(413);
  });

  it("answers partial success naming the spans it refused, and 401 without a token", async () => {
    const request = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: Buffer.alloc(16),
                  spanId: Buffer.from("b7ad6b7169203331", "hex"),
                  name: "bad ids",
                },
              ],
            },
          ],
        },
      ],
    };
    const response = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: "00000000000000000000000000000000",
                    spanId: "b7ad6b7169203331",
                    name: "bad ids",
                  },
                ],
              },
            ],
          },
        ],
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      partialSuccess: {
        rejectedSpans: 1,
        errorMessage: expect.stringMatching(/traceId: must be 16 bytes/),
      },
    });
    const proto = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-protobuf" },
      body: encodeTraceRequestProto(request),
    });
    expect(proto.status).toBe(200);
    expect(Buffer.from(await proto.arrayBuffer()).toString()).toMatch(/traceId: must be 16 bytes/);

    const anonymous = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(anonymous.status).toBe(401);
  });

  it("shows rejected traces to their user only, and not to an ingest key", async () => {
    expect((await rejected()).total).toBeGreaterThan(0);
    const bob = await createApiToken(store.db, (await findOrCreateUser(store.db, "otlp-bob")).id);
    const asBob = await fetch(`${server.url}/api/v1/traces/rejected`, {
      headers: { authorization: `Bearer ${bob}` },
    });
    expect(await asBob.json()).toEqual({ total: 0, items: [] });
    const asKey = await fetch(`${server.url}/api/v1/traces/rejected`, {
      headers: { authorization: `Bearer ${ingestKey}` },
    });
    expect(asKey.status).toBe(403);
  });
});
