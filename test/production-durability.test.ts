// Production ingest survives its failures (issue 24 §6): a `serve` killed with SIGKILL mid-ingest
// loses no answer it acknowledged, and an OTLP trace half sent before a restart is finished by the
// spans sent after it; a PostgreSQL server restarted mid-ingest loses nothing that the clients'
// retries then bring in, and stores nothing twice. Each test has a home (and, for the restart of
// PostgreSQL, a server) of its own, so nothing it kills disturbs another test.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { context, trace, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, expect, inject, it } from "vitest";
import { createRecorder } from "../src/client/index.js";
import { openStore, queryRows, type Store } from "../src/store/index.js";
import {
  RAG_ANSWER,
  RAG_HIT,
  ragTraceJson,
  ragTracesJson,
  traceIdOf,
} from "./support/otlp-json.js";
import { createDatabase, freePort, startPostgresServer } from "./support/postgres-server.js";
import { type ServeProcess, startServe } from "./support/serve-process.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), "ragjudge-durability-"));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

async function serveOn(options: Parameters<typeof startServe>[0]): Promise<ServeProcess> {
  const server = await startServe(options);
  cleanups.push(() => server.kill("SIGTERM"));
  return server;
}

const postJson = (server: ServeProcess, path: string, body: unknown) =>
  fetch(`${server.origin}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** One answer as the app sends it, named by a key the test can look for. */
function answer(key: string) {
  return {
    conversation_id: "durability",
    message_id: key,
    retrieval_record: { id: `r-${key}`, query: "When was the Lanting bridge built?" },
    retrieval_hits: [{ node_id: "kb-1", content: "The Lanting bridge was built in 1870." }],
    generation_record: { id: `g-${key}`, model: "gpt-4o-mini" },
    generation_output: {
      answer: "The Lanting bridge was built in 1870 [kb-1].",
      citations: [{ node_id: "kb-1" }],
    },
  };
}

interface StoredAnswer {
  message_id: string;
  trace_id: string | null;
  gate_status: string;
  checks: unknown[];
}

async function storedAnswers(store: Store): Promise<StoredAnswer[]> {
  return queryRows<StoredAnswer>(
    store.db,
    sql`select message_id, trace_id, gate_status, checks from answer_records`,
  );
}

it("finishes a trace half sent before serve was killed with the spans sent after its restart", async () => {
  const home = tempHome();
  const port = await freePort();
  const first = await serveOn({ home, port, args: ["--no-worker"] });
  const traceId = traceIdOf(0xd1, 1);
  // The root and the LLM span; the retrieval comes later (spans arrive in several requests).
  const half = await postJson(first, "/v1/traces", ragTraceJson(traceId, ["root", "llm"]));
  expect(half.status).toBe(200);
  await first.kill("SIGKILL");

  const second = await serveOn({ home, port, args: ["--no-worker"] });
  const rest = await postJson(second, "/v1/traces", ragTraceJson(traceId, ["retriever"]));
  expect(rest.status).toBe(200);
  // Complete with the spans stored before the kill, the trace is one answer record at once
  // (without them the retrieval alone would wait 10 s and be rejected with its reason).
  const answers = async () => {
    const response = await fetch(`${second.origin}/api/v1/answers`, {
      headers: { authorization: `Bearer ${second.token}` },
    });
    const page = (await response.json()) as { items: { trace_id: string; gate: unknown }[] };
    return page.items.filter((item) => item.trace_id === traceId);
  };
  await expect.poll(answers, { timeout: 5_000 }).toHaveLength(1);
  const rejected = await fetch(`${second.origin}/api/v1/traces/rejected`, {
    headers: { authorization: `Bearer ${second.token}` },
  });
  expect(((await rejected.json()) as { total: number }).total).toBe(0);
}, 240_000);

it("keeps every answer and trace acknowledged before serve was killed with SIGKILL, gated", async () => {
  const home = tempHome();
  const port = await freePort();
  const server = await serveOn({ home, port, args: ["--no-worker"] });
  const acknowledged = { answers: new Set<string>(), traces: new Set<string>() };
  let refused = 0;
  let killed = false;

  // Two clients send batches back to back, one through each door, until the kill cuts them off.
  async function sendAnswers() {
    for (let batch = 0; !killed; batch++) {
      const keys = Array.from({ length: 20 }, (_, i) => `a-${batch}-${i}`);
      try {
        const response = await postJson(server, "/api/v1/answers", {
          answers: keys.map(answer),
        });
        if (response.ok) for (const key of keys) acknowledged.answers.add(key);
        else refused += 1;
      } catch {
        return; // cut off by the kill
      }
    }
  }
  async function sendTraces() {
    for (let batch = 0; !killed; batch++) {
      const ids = Array.from({ length: 10 }, (_, i) => traceIdOf(0xd2, batch * 10 + i));
      try {
        const response = await postJson(server, "/v1/traces", ragTracesJson(ids));
        if (response.ok) for (const id of ids) acknowledged.traces.add(id);
        else refused += 1;
      } catch {
        return;
      }
    }
  }
  const clients = Promise.all([sendAnswers(), sendTraces()]);
  // Killed while both doors are busy: after some of each has been acknowledged.
  await expect
    .poll(() => Math.min(acknowledged.answers.size, acknowledged.traces.size), {
      timeout: 120_000,
    })
    .toBeGreaterThanOrEqual(200);
  await server.kill("SIGKILL");
  killed = true;
  await clients;
  expect(refused).toBe(0);

  // The server starts again on the home the kill left behind ...
  const again = await serveOn({ home, port, args: ["--no-worker"] });
  const health = await fetch(`${again.origin}/api/v1/health`);
  expect(health.status).toBe(200);
  await again.kill("SIGTERM");
  // ... and every acknowledged answer is in it once, with its gate's verdict.
  const store = await openStore({ home });
  try {
    const stored = await storedAnswers(store);
    const byKey = new Map(stored.map((row) => [row.trace_id ?? row.message_id, row]));
    expect(byKey.size).toBe(stored.length);
    const missing = [...acknowledged.answers, ...acknowledged.traces].filter((k) => !byKey.has(k));
    expect(missing).toEqual([]);
    for (const row of stored) {
      expect(row.gate_status).toBe("pass");
      expect(row.checks.length).toBeGreaterThan(0);
    }
  } finally {
    await store.close();
  }
}, 300_000);

it("brings in every answer across a PostgreSQL restart through the clients' retries, each once", async () => {
  const postgres = await startPostgresServer(inject("postgresCluster"));
  cleanups.push(() => postgres.stop());
  const databaseUrl = await createDatabase(postgres.url, "durability", { empty: true });
  const home = tempHome();
  const port = await freePort();
  const server = await serveOn({ home, port, databaseUrl, args: ["--no-worker"] });

  // The package's client (batches, retries on 503 and on a cut connection), and the real
  // OpenTelemetry SDK with its OTLP/protobuf exporter (retries 429, 502, 503 and 504 after
  // Retry-After, five tries); each export's result is counted.
  let interrupted = 0;
  const recorder = createRecorder({
    url: server.origin,
    token: server.token,
    batchSize: 25,
    flushIntervalMs: 20,
    maxAttempts: 30,
    // Counts the requests the restart cut off or refused, to know the test saw it.
    fetch: async (...args) => {
      const response = await fetch(...args).catch((error: unknown) => {
        interrupted += 1;
        throw error;
      });
      if (!response.ok) interrupted += 1;
      return response;
    },
  });
  const exporter = new OTLPTraceExporter({
    url: `${server.origin}/v1/traces`,
    headers: { authorization: `Bearer ${server.token}` },
    timeoutMillis: 60_000,
  });
  const failedExports: string[] = [];
  const counted: SpanExporter = {
    export(spans, done) {
      exporter.export(spans, (result) => {
        // ExportResultCode.SUCCESS is 0 (in @opentelemetry/core, not a dependency of ours).
        if (result.code !== 0) failedExports.push(String(result.error));
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "durability-bot" }),
    spanProcessors: [
      new BatchSpanProcessor(counted, {
        scheduledDelayMillis: 50,
        maxQueueSize: 100_000,
        maxExportBatchSize: 300,
        exportTimeoutMillis: 60_000,
      }),
    ],
  });
  const tracer = provider.getTracer("durability");

  const total = { answers: 0 };
  const traceIds: string[] = [];
  let restarted = false;
  const restart = (async () => {
    // Restarted once both doors have stored something, while they go on sending.
    await expect
      .poll(async () => (await countRows(databaseUrl)) >= 200, { timeout: 120_000 })
      .toBe(true);
    await postgres.restart({ downMs: 1_500 });
    restarted = true;
  })();
  for (let round = 0; !restarted || round < 40; round++) {
    for (let i = 0; i < 25; i++) recorder.record(answer(`r-${round}-${i}`));
    total.answers += 25;
    for (let i = 0; i < 10; i++) traceIds.push(emitRagTrace(tracer));
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (round > 2_000) throw new Error("PostgreSQL did not restart");
  }
  await restart;
  await provider.forceFlush();
  const flushed = await recorder.close();
  await provider.shutdown();
  expect(failedExports).toEqual([]);
  expect(flushed.refused).toBe(0);
  expect(interrupted).toBeGreaterThan(0);

  const store = await openStore({ databaseUrl });
  cleanups.push(() => store.close());
  const stored = await storedAnswers(store);
  const keys = stored.map((row) => row.trace_id ?? row.message_id);
  // Nothing lost, nothing twice: a batch stored just before its connection was cut and sent
  // again is stored once (answer_keys).
  expect(new Set(keys).size).toBe(keys.length);
  expect(stored.filter((row) => row.trace_id === null)).toHaveLength(total.answers);
  expect(
    stored
      .filter((row) => row.trace_id !== null)
      .map((row) => row.trace_id)
      .sort(),
  ).toEqual(traceIds.sort());
  expect(stored.every((row) => row.gate_status === "pass")).toBe(true);
}, 300_000);

/** Answer records in the database so far, through a connection of the test's own. */
async function countRows(databaseUrl: string): Promise<number> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const result = await client.query<{ n: string }>("select count(*) as n from answer_records");
    return Number(result.rows[0]?.n ?? 0);
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A RAG request through the OpenTelemetry SDK: a root span, a retriever span, an LLM span. */
function emitRagTrace(tracer: Tracer): string {
  const root = tracer.startSpan("rag.request", {
    attributes: { "openinference.span.kind": "CHAIN", "input.value": "When was it built?" },
  });
  const inRoot = trace.setSpan(context.active(), root);
  tracer
    .startSpan(
      "retrieve",
      {
        attributes: {
          "openinference.span.kind": "RETRIEVER",
          "retrieval.documents.0.document.id": "kb-1",
          "retrieval.documents.0.document.content": RAG_HIT,
        },
      },
      inRoot,
    )
    .end();
  tracer
    .startSpan(
      "llm",
      { attributes: { "openinference.span.kind": "LLM", "output.value": RAG_ANSWER } },
      inRoot,
    )
    .end();
  root.end();
  return root.spanContext().traceId;
}
