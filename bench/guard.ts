// Latency of the guardrail (gate/guard.ts) on a typical answer: 5 hits of about 1 kB, a 200-word
// answer citing 3 of them. Three kinds of answer: sound (allow: one gate pass), one sentence with
// a figure no hit states (repair: gate, repair, gate again), and nothing supported (block). Each
// call gets a fresh input object; 64 fixtures of each kind rotate. Goal: p99 <= 2 ms on one core.
//
// Run alone: npx tsx bench/guard.ts

import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { type EvaluatorInput, EvaluatorInputSchema, guard } from "../src/gate/index.js";
import { seededRandom } from "../test/support/seeded-random.js";

export interface GuardBenchRow {
  answer: "sound" | "one wrong figure" | "unsupported";
  decision: string;
  calls: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** p99 of the process's CPU time per call: what one core needs, when other work shares it. */
  p99_cpu_ms: number;
  answer_words: number;
  hit_chars: number;
  /** Which p99 the goal is judged on: the wall clock, or CPU time when the machine was busy. */
  judged_on: string;
  goal_met: boolean;
}

const PLACES = ["harbour", "tram depot", "salt market", "library", "observatory", "mill", "ferry"];
const VERBS = ["handled", "recorded", "carried", "financed", "restored", "employed", "opened"];
const THINGS = ["ships", "passengers", "visitors", "tonnes of grain", "workers", "books", "lamps"];

/** A sentence stating a count and a year, the kind of claim a RAG answer makes. */
function claim(random: () => number, subject: string): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const count = 100 + Math.floor(random() * 9000);
  const year = 1800 + Math.floor(random() * 200);
  return `In ${year} the ${subject} ${pick(VERBS)} ${count.toLocaleString("en-US")} ${pick(THINGS)} along the ${pick(PLACES)} road`;
}

function fixture(seed: number, kind: GuardBenchRow["answer"]): EvaluatorInput {
  const random = seededRandom(seed);
  const hits = Array.from({ length: 5 }, (_, h) => {
    const sentences: string[] = [];
    while (sentences.join(". ").length < 1000)
      sentences.push(claim(random, `district ${h + 1} office`));
    return { node_id: `doc${seed}#${h + 1}`, content: `${sentences.join(". ")}.` };
  });
  // The answer restates sentences of hits 1-3, each with its marker, to about 200 words.
  const answerSentences: string[] = [];
  let words = 0;
  for (let i = 0; words < 200; i++) {
    const h = i % 3;
    const source = (hits[h]?.content ?? "").split(". ")[Math.floor(i / 3)] ?? "";
    const text =
      kind === "unsupported"
        ? `Rumour says the mayor painted ${i + 2} dragons on lampposts during every winter festival`
        : source.replace(/\.$/, "");
    answerSentences.push(`${text} [${h + 1}].`);
    words += text.split(" ").length;
  }
  if (kind === "one wrong figure") {
    answerSentences[2] = "That year the office also counted 987,654 lamps on the quay [3].";
  }
  return EvaluatorInputSchema.parse({
    conversation_id: `c${seed}`,
    message_id: `m${seed}`,
    retrieval_record: { id: `r${seed}`, query: "What did the district offices record?" },
    retrieval_hits: hits,
    generation_record: { id: `g${seed}`, model: "bench" },
    generation_output: { answer: answerSentences.join(" "), citations: [] },
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * With a core to spare the wall-clock p99 is the measure; on a machine busier than its cores the
 * wall clock counts other processes' turns, and the CPU p99 says what one core needs.
 */
function judged(wallP99: number, cpuP99: number): Pick<GuardBenchRow, "judged_on" | "goal_met"> {
  const load = loadavg()[0] ?? 0;
  if (load < cpus().length - 0.5) return { judged_on: "wall clock", goal_met: wallP99 <= 2 };
  return { judged_on: `CPU time (load ${load.toFixed(1)})`, goal_met: cpuP99 <= 2 };
}

export function benchGuard(calls = 5000): GuardBenchRow[] {
  const kinds: GuardBenchRow["answer"][] = ["sound", "one wrong figure", "unsupported"];
  return kinds.map((kind, k) => {
    const fixtures = Array.from({ length: 64 }, (_, i) => fixture(1000 * k + i, kind));
    const fresh = (i: number) => structuredClone(fixtures[i % fixtures.length] as EvaluatorInput);
    for (let i = 0; i < 500; i++) guard(fresh(i));
    const times: number[] = [];
    const cpuTimes: number[] = [];
    let decision = "";
    for (let i = 0; i < calls; i++) {
      const input = fresh(i);
      const cpu = process.cpuUsage();
      const started = performance.now();
      decision = guard(input).decision;
      times.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      cpuTimes.push((used.user + used.system) / 1000);
    }
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    const sample = fixtures[0] as EvaluatorInput;
    const p99 = percentile(times, 0.99);
    return {
      answer: kind,
      decision,
      calls,
      p50_ms: round(percentile(times, 0.5)),
      p99_ms: round(p99),
      max_ms: round(times.at(-1) ?? 0),
      p99_cpu_ms: round(percentile(cpuTimes, 0.99)),
      answer_words: sample.generation_output.answer.split(/\s+/).length,
      hit_chars: Math.round(
        sample.retrieval_hits.reduce((sum, hit) => sum + hit.content.length, 0) /
          sample.retrieval_hits.length,
      ),
      ...judged(p99, percentile(cpuTimes, 0.99)),
    };
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(benchGuard());
}
