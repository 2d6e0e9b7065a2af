// The arena's maths at scale (issue 14 §6): 5 contestants x 5,000 questions, 1,000 bootstrap
// rounds, from the result rows a stored run gives (collect -> per-question outcomes -> ratings,
// bootstrap intervals, paired differences, length-controlled fit refitted per round). Goal: under 5 s. Run in a child
// process so its peak RSS is its own.

import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import {
  type ArenaResultRow,
  collectContestant,
  computeStandings,
  type PairOutcomes,
  scoreOutcomes,
  seededRandom,
} from "../src/evals/arena/index.js";

export interface ArenaBench {
  contestants: number;
  questions: number;
  rounds: number;
  /** Building the inputs the arena reads (not timed). */
  collect_ms: number;
  standings_ms: number;
  total_ms: number;
  goal_seconds: number;
  met: boolean;
  rss_before_mb: number;
  peak_rss_mb: number;
  heap_used_mb: number;
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Result rows like a run's: an offline judge score and an answer of varying length per question. */
function syntheticRows(
  contestant: number,
  questions: number,
  random: () => number,
): ArenaResultRow[] {
  const quality = 0.4 + 0.1 * contestant;
  return Array.from({ length: questions }, (_, q) => {
    const score = Math.min(1, Math.max(0, quality + (random() - 0.5) * 0.6));
    return {
      question_id: `q${q}`,
      status: "SCORED",
      rag_answer: "x".repeat(40 + Math.floor(random() * 200) + contestant * 30),
      rag_answer_sources: [],
      judges: {
        offline: {
          outcome: "ok",
          defaulted: false,
          score,
          verdict: { metrics: { accuracy: 1 + 9 * score, completeness: 7, clarity: 8 } },
        },
      },
    };
  });
}

export function benchArena(contestants = 5, questions = 5_000, rounds = 1_000): ArenaBench {
  const random = seededRandom(1);
  const ids = Array.from({ length: questions }, (_, q) => `q${q}`);
  const rows = Array.from({ length: contestants }, (_, c) => syntheticRows(c, questions, random));
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const data = rows.map((r) => collectContestant(ids, r, "offline"));
  const collected = performance.now();
  const pairs: PairOutcomes[] = [];
  for (let a = 0; a < contestants; a++) {
    for (let b = a + 1; b < contestants; b++) {
      pairs.push({ a, b, outcomes: scoreOutcomes(data[a]!.scores, data[b]!.scores, 0.05) });
    }
  }
  computeStandings({
    names: Array.from({ length: contestants }, (_, c) => `system-${c + 1}`),
    pairs,
    lengths: data.map((d) => d.lengths),
    scores: data.map((d) => d.scores),
    rounds,
    seed: 42,
  });
  const done = performance.now();
  const total = done - started;
  return {
    contestants,
    questions,
    rounds,
    collect_ms: Math.round(collected - started),
    standings_ms: Math.round(done - collected),
    total_ms: Math.round(total),
    goal_seconds: 5,
    met: total < 5_000,
    rss_before_mb: mb(rssBefore),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    heap_used_mb: mb(process.memoryUsage().heapUsed),
  };
}

/** In a fresh child process (under tsx), so the peak RSS is the arena's, not an earlier family's. */
export function benchArenaInChild(): ArenaBench {
  const child = spawnSync(
    process.execPath,
    [
      ...(import.meta.url.endsWith(".ts") ? ["--import", import.meta.resolve("tsx")] : []),
      new URL(import.meta.url).pathname,
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  if (child.status !== 0) throw new Error(`the arena bench child exited ${child.status}`);
  return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "") as ArenaBench;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(benchArena()));
}
