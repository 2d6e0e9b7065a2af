// Judge throughput against the scripted OpenAI-compatible server on 127.0.0.1 (in a child process):
// the `review` judge (one call per judgement, 5 retrieved items of 500 characters) at 0 ms and
// 50 ms server latency, 16 and 64 calls in flight. Goals: within 10% of ideal at 50 ms; >= 2,000 calls/s at 0 ms.

import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { review } from "../src/judges/index.js";
import {
  createLlmClient,
  ProviderLimiters,
  parseLlmConfig,
  resolveModelConfig,
} from "../src/llm/index.js";
import { startScriptedLlmProcess } from "../test/support/scripted-llm.js";

export interface Row {
  judge: "review";
  latency_ms: number;
  concurrency: number;
  /** Judgements made (each is one LLM call here). */
  judgements: number;
  calls: number;
  seconds: number;
  calls_per_second: number;
  /** N × calls per judgement × latency / concurrency, in seconds; 0 at 0 ms. */
  ideal_seconds: number;
  /** ideal_seconds / seconds; null at 0 ms latency, where the ideal is unbounded. */
  ratio_to_ideal: number | null;
  /** Client process CPU per call, in µs (the scripted server runs in its own process). */
  cpu_us_per_call: number;
  /** Share of the wall time the client's event loop was busy (1 = CPU-bound client). */
  client_busy: number;
  /** 1-minute load average when the row started: other work on the machine skews wall-clock rows. */
  load_average: number;
  goal: string;
  met: boolean;
}

const REVIEW_REPLY = {
  reasonableness: { passed: true, problems: [] },
  evidence: {
    passed: false,
    problems: ["Key conclusion 'launched in 2019' has no source citation; cite [2]."],
  },
};

const CONTEXTS = Array.from({ length: 5 }, (_, i) => ({
  node_id: `n${i + 1}`,
  source: `doc-${i + 1}.pdf`,
  content: `Item ${i + 1}. ${"Acme Corporation was founded in 2015 and launched its first product in 2019. ".repeat(8)}`,
}));

async function measure(options: {
  baseUrl: string;
  latencyMs: number;
  concurrency: number;
  judgements: number;
}): Promise<{ seconds: number; calls: number; cpuMicros: number; busy: number }> {
  const client = createLlmClient(
    resolveModelConfig(
      parseLlmConfig({
        base_url: options.baseUrl,
        max_concurrency: options.concurrency,
        timeout_ms: 30_000,
      }),
      "judge",
    ),
    { limiters: new ProviderLimiters() },
  );
  const run = async (count: number) => {
    let next = 0;
    let calls = 0;
    const worker = async (_: unknown, index: number) => {
      // Stagger the first calls over one latency period. A real server's latencies vary, so calls
      // do not come back in lock-step waves; with a fixed scripted latency they would, and each
      // wave's answers would queue behind one another on the client. The ramp (< one latency) is
      // inside the measured time.
      if (options.latencyMs > 0) {
        await sleep((index * options.latencyMs) / options.concurrency);
      }
      while (next < count) {
        const i = next++;
        const result = await review({
          question: `When did Acme launch its first product? (#${i})`,
          answer: "Acme launched its first product in 2019 [1].",
          contexts: CONTEXTS,
          client,
        });
        calls += result.calls.length;
        if (result.outcome !== "ok")
          throw new Error(`bench judgement failed: ${result.error?.message}`);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    return calls;
  };
  await run(Math.min(200, options.judgements)); // warm-up: JIT, sockets, zod
  const cpu = process.cpuUsage();
  const loop = performance.eventLoopUtilization();
  const started = performance.now();
  const calls = await run(options.judgements);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const busy = performance.eventLoopUtilization(loop).utilization;
  return { seconds, calls, cpuMicros: used.user + used.system, busy };
}

export async function benchJudges(): Promise<Row[]> {
  // The server runs in a child process: its CPU and event loop would otherwise be the judges'.
  const server = await startScriptedLlmProcess({ replies: [{ reply: { json: REVIEW_REPLY } }] });
  const rows: Row[] = [];
  try {
    // Warm-up for the whole process: JIT tiers, sockets, zod schemas, the server's code.
    await measure({ baseUrl: server.baseUrl, latencyMs: 0, concurrency: 32, judgements: 2_000 });
    for (const latencyMs of [0, 50]) {
      await server.setLatency(latencyMs);
      for (const concurrency of [16, 64]) {
        // About two seconds of work per row at 50 ms; 4,000 judgements at 0 ms.
        const judgements = latencyMs === 0 ? 4_000 : Math.ceil((concurrency * 2_000) / latencyMs);
        const loadAverage = loadavg()[0] ?? 0;
        const { seconds, calls, cpuMicros, busy } = await measure({
          baseUrl: server.baseUrl,
          latencyMs,
          concurrency,
          judgements,
        });
        const callsPerJudgement = calls / judgements;
        const idealSeconds = (judgements * callsPerJudgement * latencyMs) / 1000 / concurrency;
        const ratio = latencyMs > 0 ? idealSeconds / seconds : null;
        const callsPerSecond = calls / seconds;
        const met = ratio === null ? callsPerSecond >= 2_000 : ratio >= 0.9;
        rows.push({
          judge: "review",
          latency_ms: latencyMs,
          concurrency,
          judgements,
          calls,
          seconds: Math.round(seconds * 1000) / 1000,
          calls_per_second: Math.round(callsPerSecond),
          ideal_seconds: Math.round(idealSeconds * 1000) / 1000,
          ratio_to_ideal: ratio === null ? null : Math.round(ratio * 1000) / 1000,
          cpu_us_per_call: Math.round(cpuMicros / calls),
          client_busy: Math.round(busy * 100) / 100,
          load_average: Math.round(loadAverage * 100) / 100,
          goal: latencyMs === 0 ? ">= 2,000 calls/s" : ">= 0.9 of ideal",
          met,
        });
      }
    }
  } finally {
    await server.close();
  }
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchJudges().then((rows) => console.table(rows));
}
