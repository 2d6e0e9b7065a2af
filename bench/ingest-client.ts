// One load generator of `npm run bench -- ingest`, in a process of its own: a RAG app instrumented
// as people instrument theirs. The OpenTelemetry Node SDK (NodeTracerProvider, BatchSpanProcessor,
// the OTLP/protobuf exporter pointed at `ragjudge serve`), OpenInference's OpenAI instrumentation
// around the `openai` client calling the scripted LLM server, and a retriever span of its own per
// answer (OpenInference attributes). It emits `rate` answers a second for `seconds`, then flushes
// and reports by IPC: the traces it emitted, each export's latency and result, its CPU.

import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import { context, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type ReadableSpan,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-node";
import OpenAI from "openai";

export interface IngestClientOptions {
  serverUrl: string;
  token: string;
  llmBaseUrl: string;
  rate: number;
  seconds: number;
  /** Answers in flight at most (a real app's concurrency). */
  concurrency: number;
  /** Exports that start in this first stretch are not timed: serve's first requests load code. */
  warmupMs: number;
}

export interface IngestClientReport {
  emitted: number;
  traceIds: string[];
  /** Milliseconds per export request (retries included) after the warm-up, in the order they finished. */
  exportMs: number[];
  failedExports: number;
  exportedSpans: number;
  cpuMs: number;
  /** Answers the client could not start on time (it fell behind its rate). */
  behind: number;
  /** Answers whose LLM call failed (their traces hold no answer: ragjudge rejects them). */
  failedAnswers: number;
}

// The retrieved documents: five of about 400 characters, the first the one the answer cites.
const HITS = Array.from({ length: 5 }, (_, i) => ({
  id: `kb-${i + 1}`,
  content:
    (i === 0
      ? "The Lanting bridge was built in 1870 by the river guild and rebuilt in 1962. "
      : `Document ${i + 1} describes the harbour's ferries, their timetables and fares. `) +
    "It spans the canal at the old market, carries foot and bicycle traffic, and is lit at night. ".repeat(
      4,
    ),
  score: 0.9 - i * 0.1,
}));
export const INGEST_ANSWER = "The Lanting bridge was built in 1870 by the river guild [kb-1].";

async function run(options: IngestClientOptions): Promise<IngestClientReport> {
  const exporter = new OTLPTraceExporter({
    url: `${options.serverUrl}/v1/traces`,
    headers: { authorization: `Bearer ${options.token}` },
    timeoutMillis: 30_000,
  });
  const exportMs: number[] = [];
  let warmEnd = Number.POSITIVE_INFINITY;
  let failedExports = 0;
  let exportedSpans = 0;
  const timed: SpanExporter = {
    export(spans: ReadableSpan[], done) {
      const started = performance.now();
      exporter.export(spans, (result) => {
        if (started >= warmEnd) exportMs.push(performance.now() - started);
        if (result.code !== 0) failedExports += 1;
        else exportedSpans += spans.length;
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": "bench-rag" }),
    spanProcessors: [
      new BatchSpanProcessor(timed, {
        maxQueueSize: 200_000,
        maxExportBatchSize: 512,
        scheduledDelayMillis: 100,
        exportTimeoutMillis: 30_000,
      }),
    ],
  });
  provider.register();
  const instrumentation = new OpenAIInstrumentation();
  instrumentation.setTracerProvider(provider);
  instrumentation.manuallyInstrument(OpenAI);
  const openai = new OpenAI({ baseURL: options.llmBaseUrl, apiKey: "bench", maxRetries: 0 });
  const tracer = trace.getTracer("bench-rag");

  const traceIds: string[] = [];
  async function answerOne(n: number) {
    await tracer.startActiveSpan("rag.request", async (root) => {
      root.setAttribute("openinference.span.kind", "CHAIN");
      root.setAttribute("input.value", "When was the Lanting bridge built?");
      root.setAttribute("session.id", `session-${n % 1000}`);
      const retriever = tracer.startSpan("retrieve", {
        attributes: {
          "openinference.span.kind": "RETRIEVER",
          "input.value": "When was the Lanting bridge built?",
          ...Object.fromEntries(
            HITS.flatMap((hit, i) => [
              [`retrieval.documents.${i}.document.id`, hit.id],
              [`retrieval.documents.${i}.document.content`, hit.content],
              [`retrieval.documents.${i}.document.score`, hit.score],
            ]),
          ),
        },
      });
      retriever.end();
      await openai.chat.completions.create({
        model: "gpt-4o-mini",
        messages: [
          { role: "system", content: "Answer from the documents; cite them as [id]." },
          { role: "user", content: "When was the Lanting bridge built?" },
        ],
      });
      traceIds.push(root.spanContext().traceId);
      root.end();
    });
  }

  const startCpu = process.cpuUsage();
  const started = performance.now();
  warmEnd = started + options.warmupMs;
  const end = started + options.seconds * 1000;
  let emitted = 0;
  let inFlight = 0;
  let behind = 0;
  let failedAnswers = 0;
  const running = new Set<Promise<void>>();
  // Open loop: answers start on the clock, `rate` a second, whatever the server does; only the
  // app's own concurrency bounds them.
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - started) / 1000) * options.rate);
    while (emitted < due) {
      if (inFlight >= options.concurrency) {
        behind += due - emitted;
        emitted = due;
        break;
      }
      const n = emitted++;
      inFlight += 1;
      const done: Promise<void> = context
        .with(context.active(), () => answerOne(n))
        .catch(() => {
          failedAnswers += 1;
        })
        .finally(() => {
          inFlight -= 1;
          running.delete(done);
        });
      running.add(done);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(running);
  await provider.forceFlush();
  await provider.shutdown();
  const cpu = process.cpuUsage(startCpu);
  return {
    emitted: traceIds.length,
    traceIds,
    exportMs,
    failedExports,
    exportedSpans,
    cpuMs: (cpu.user + cpu.system) / 1000,
    behind,
    failedAnswers,
  };
}

if (process.send) {
  process.once("message", (options: IngestClientOptions) => {
    void run(options).then((report) => process.send?.(report, () => process.exit(0)));
  });
}
