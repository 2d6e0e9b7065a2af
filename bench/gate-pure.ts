// Throughput of the pure evidence gate: a 1 KB English answer with citation markers and numbers,
// judged against 10 retrieval hits of 500 characters. The target is 20,000 answers/s on one core.
// The fixture is deliberately dense: 9 sentences, each with a marker citing its own hit and three
// numbers (a count with a thousands separator, a year, a percentage), so every check does its
// full work and every hit but one is consulted. 32 such inputs rotate, each call gets a fresh
// input object, and nothing is cached between calls except compiled patterns and the config.
//
// Run alone: npx tsx bench/gate-pure.ts

import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { type EvaluatorInput, evaluateGate } from "../src/gate/index.js";
import { seededRandom } from "../test/support/seeded-random.js";

export interface GatePureBench {
  /** Answers per second of wall-clock time. */
  answersPerSecond: number;
  /** Answers per second of this process's CPU time: steadier on a busy machine. */
  answersPerCpuSecond: number;
  /** The rate of the fastest 100 ms window: what one uncontended core sustains. */
  bestWindowAnswersPerSecond: number;
  /** Mean time of one evaluateGate call, in microseconds. */
  meanMicros: number;
  iterations: number;
  seconds: number;
  answerChars: number;
  hits: number;
  hitChars: number;
  /** Verdict of the fixture, so a regression that skips work is visible. */
  status: string;
}

const SUBJECTS = [
  "The harbour authority",
  "The tram company",
  "The city council",
  "The salt guild",
  "The northern ferry",
  "The river port",
  "The grain exchange",
  "The textile mill",
  "The public library",
  "The observatory",
];
const VERBS = [
  "recorded",
  "reported",
  "handled",
  "built",
  "financed",
  "opened",
  "employed",
  "expanded",
  "carried",
  "restored",
];
const OBJECTS = [
  "new berths along the eastern quay",
  "passengers between the two islands",
  "tonnes of cargo through the canal",
  "workers in the dye district",
  "kilometres of track beside the river",
  "visitors during the spring festival",
  "homes after the great fire",
  "containers for overseas traders",
];

function factSentence(random: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const amount = Math.floor(random() * 9000 + 1000).toLocaleString("en-US");
  const year = 1800 + Math.floor(random() * 220);
  const share = (random() * 40 + 1).toFixed(1);
  return `${pick(SUBJECTS)} ${pick(VERBS)} ${amount} ${pick(OBJECTS)} in ${year}, about ${share}% of the regional total.`;
}

/** One fixture: 10 hits of ~500 characters; an answer of ~1 KB quoting facts with [n] markers. */
export function gateFixture(seed: number): EvaluatorInput {
  const random = seededRandom(seed);
  const facts: string[][] = [];
  const hits = Array.from({ length: 10 }, (_, i) => {
    const sentences: string[] = [];
    let content = "";
    while (content.length < 480) {
      const sentence = factSentence(random);
      sentences.push(sentence);
      content += (content ? " " : "") + sentence;
    }
    facts.push(sentences);
    return { node_id: `doc-${seed}#${i + 1}`, content: content.slice(0, 500), score: 1 - i / 20 };
  });
  let answer = "";
  for (let i = 0; answer.length < 1000; i++) {
    const hit = i % hits.length;
    const sentence = facts[hit]?.[Math.floor(i / hits.length)] ?? "";
    // The marker goes before the full stop, as models usually write it.
    answer += `${answer ? " " : ""}${sentence.slice(0, -1)} [${hit + 1}].`;
  }
  return {
    conversation_id: `bench-${seed}`,
    message_id: `bench-${seed}-1`,
    retrieval_record: { id: `retrieval-${seed}` },
    retrieval_hits: hits,
    generation_record: { id: `generation-${seed}` },
    generation_output: {
      answer,
      citations: hits.slice(0, 8).map((h) => ({ node_id: h.node_id })),
    },
  };
}

/**
 * Warms up, then calls evaluateGate for about `seconds` on fresh input objects (so no per-input
 * memo is reused across calls) and reports answers per second.
 */
export async function benchGatePure(options: { seconds?: number } = {}): Promise<GatePureBench> {
  const seconds = options.seconds ?? 2;
  const fixtures = Array.from({ length: 32 }, (_, i) => gateFixture(i + 1));
  let status = "";
  let best = 0;
  const run = (until: number) => {
    let n = 0;
    let windowStart = performance.now();
    let windowCount = 0;
    while (performance.now() < until) {
      for (let k = 0; k < 64; k++) {
        const fixture = fixtures[(n + k) % fixtures.length] as EvaluatorInput;
        status = evaluateGate({ ...fixture }).status;
      }
      n += 64;
      windowCount += 64;
      const now = performance.now();
      if (now - windowStart >= 100) {
        best = Math.max(best, (windowCount * 1000) / (now - windowStart));
        windowStart = now;
        windowCount = 0;
      }
    }
    return n;
  };
  run(performance.now() + Math.min(500, seconds * 250));
  best = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const iterations = run(started + seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const sample = fixtures[0] as EvaluatorInput;
  return {
    answersPerSecond: Math.round(iterations / elapsed),
    answersPerCpuSecond: Math.round(iterations / cpuSeconds),
    bestWindowAnswersPerSecond: Math.round(best),
    meanMicros: Math.round((elapsed / iterations) * 1e7) / 10,
    iterations,
    seconds: Math.round(elapsed * 100) / 100,
    answerChars: sample.generation_output.answer.length,
    hits: sample.retrieval_hits.length,
    hitChars: sample.retrieval_hits[0]?.content.length ?? 0,
    status,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchGatePure().then((result) => console.log(result));
}
