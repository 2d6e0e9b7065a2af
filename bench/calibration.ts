// Calibration of a judge against human labels on 100,000 results (issue 14 section 6; goal < 2 s).
// Synthetic and seeded: people score 1-10, the judge's weighted score (one decimal) is theirs
// plus noise and a +1 inflation (seed 002's "分數通膨"), 90% of the results carry a human score.
// Two rows: the statistics alone (buildCalibrationReport on rows in memory), and the whole
// `ragjudge calibrate` path on the embedded store (PGlite on its thread: the query that reads
// the judge's score out of the stored JSON, the labels join, the transfer, the statistics). The
// stored results carry verdicts of a real judge's size, so `judges` is compressed out of line.

import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { buildCalibrationReport, calibrateEvaluation } from "../src/evals/calibration/index.js";
import { DEFAULT_JUDGES_CONFIG } from "../src/judges/index.js";
import {
  type CalibrationRow,
  createEvaluation,
  findOrCreateUser,
  openStore,
} from "../src/store/index.js";
import { seededRandom } from "../test/support/seeded-random.js";

export interface CalibrationBenchRow {
  path: "statistics" | "pglite end to end";
  results: number;
  labelled: number;
  median_seconds: number;
  /** CPU time of the whole process (PGlite's thread included) for the median run: on a shared,
   * loaded machine the wall time mostly measures the queue for a core. */
  median_cpu_seconds: number;
  runs: number;
  load_average: number;
  peak_rss_mb: number;
  /** Sanity: the figures the run computed. */
  mae: number | null;
  kappa: number | null;
  ppi_lambda: number | null;
  goal: string;
  met: boolean;
}

const RESULTS = 100_000;
const LABELLED_SHARE = 0.9;
const GOAL_SECONDS = 2;

interface Synthetic {
  judge: Float64Array;
  human: Int32Array;
}

function synthetic(n: number, seed = 14): Synthetic {
  const random = seededRandom(seed);
  const judge = new Float64Array(n);
  const human = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    // People's scores bunch in the middle; the judge adds +1 and noise of about ±1.5.
    const h = Math.max(1, Math.min(10, Math.round(2 + (7 * (random() + random() + random())) / 3)));
    const noise = (random() + random() - 1) * 1.5;
    human[i] = random() < LABELLED_SHARE ? h : 0;
    judge[i] = Math.round(Math.max(1, Math.min(10, h + 1 + noise)) * 10) / 10;
  }
  return { judge, human };
}

/** Wall and CPU seconds of `work`. */
async function timed<T>(
  work: () => T | Promise<T>,
): Promise<{ value: T; wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return {
    value,
    wall: (performance.now() - started) / 1000,
    cpu: (used.user + used.system) / 1e6,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

export async function benchCalibration(): Promise<CalibrationBenchRow[]> {
  const data = synthetic(RESULTS);
  const labelled = data.human.filter((h) => h > 0).length;
  const rows: CalibrationRow[] = Array.from({ length: RESULTS }, (_, i) => ({
    result_id: `r${i}`,
    position: i,
    question_text: `question ${i}`,
    answer: `answer ${i}`,
    outcome: "ok",
    defaulted: false,
    raw_score: data.judge[i] as number,
    judge_passed: (data.judge[i] as number) >= 7,
    human_score: (data.human[i] as number) > 0 ? (data.human[i] as number) : null,
    human_passed: null,
    note: null,
    pass_note: null,
  }));
  const input = {
    evaluation: { id: "bench", name: "bench" },
    judge: "rubric",
    scale: "1-10" as const,
    passThreshold: 7,
    rows,
  };
  const times: number[] = [];
  const cpus: number[] = [];
  let report = buildCalibrationReport(input);
  for (let i = 0; i < 5; i++) {
    const run = await timed(() => buildCalibrationReport(input));
    report = run.value;
    times.push(run.wall);
    cpus.push(run.cpu);
  }
  const pure = median(times);
  const out: CalibrationBenchRow[] = [
    {
      path: "statistics",
      results: RESULTS,
      labelled,
      median_seconds: pure,
      median_cpu_seconds: median(cpus),
      runs: times.length,
      load_average: loadavg()[0] ?? 0,
      peak_rss_mb: mb(process.memoryUsage().rss),
      mae: report.agreement?.mae ?? null,
      kappa: report.agreement?.kappa_quadratic ?? null,
      ppi_lambda: report.pass_rate.ppi?.lambda ?? null,
      goal: `< ${GOAL_SECONDS} s`,
      met: pure < GOAL_SECONDS,
    },
  ];

  const store = await openStore({ memory: true, thread: true });
  try {
    const db = store.db;
    const user = await findOrCreateUser(db, "bench");
    const evaluation = await createEvaluation(db, user.id, {
      user_id: user.id,
      name: "calibration bench",
      bot_id: "builtin",
      judge_llm_model_id: "bench",
      config: { judges: ["rubric", "offline"], judges_config: DEFAULT_JUDGES_CONFIG },
      questions: Array.from({ length: RESULTS }, (_, i) => ({
        question_id: `q${i}`,
        question_type: "FACTUAL",
        question_text: `question ${i}`,
        ground_truth: "",
      })),
    });
    const values = JSON.stringify(
      Array.from(data.judge, (judge, i) => ({ q: `q${i}`, s: judge, h: data.human[i] || null })),
    );
    // The stored shape of a rubric JudgeResult with a verdict of a real one's size (reason and
    // suggestion, about 1 kB together) and the offline judge's result beside it, as `ragjudge
    // eval --judges rubric,offline` stores them: the row's `judges` is then compressed out of line
    // (TOAST), as in real runs, and reading the rubric's score out of it is not free.
    const reason = sql.raw(
      `repeat('The answer states the opening date and the length of Line 1 as the contexts do, but adds a passenger figure that no context states. ', 3 + (i.s::int % 3))`,
    );
    await db.execute(sql`
      update evaluation_results r set status = 'SCORED', rag_answer = 'answer ' || i.q,
        judges = jsonb_build_object(
          'rubric', jsonb_build_object('name', 'rubric',
            'outcome', 'ok', 'defaulted', false, 'raw_score', i.s, 'score', (i.s - 1) / 9,
            'passed', i.s >= 7, 'verdict', jsonb_build_object('reason', ${reason},
              'suggestion', ${reason})),
          'offline', jsonb_build_object('name', 'offline', 'outcome', 'ok',
            'raw_score', 10 - i.s, 'score', (9 - i.s) / 9, 'passed', i.s < 4,
            'verdict', jsonb_build_object('reason', ${reason}, 'details', ${reason})))
      from jsonb_to_recordset(${values}::jsonb) as i(q text, s float8, h int)
      where r.evaluation_id = ${evaluation.id}::uuid and r.question_id = i.q`);
    await db.execute(sql`
      insert into human_labels (user_id, evaluation_id, evaluation_result_id, scale, score, labelled_by)
      select ${user.id}::uuid, ${evaluation.id}::uuid, r.id, '1-10', i.h, 'bench'
      from jsonb_to_recordset(${values}::jsonb) as i(q text, s float8, h int)
        join evaluation_results r on r.evaluation_id = ${evaluation.id}::uuid and r.question_id = i.q
      where i.h is not null`);
    await db.execute(sql`analyze`);
    const storedTimes: number[] = [];
    const storedCpus: number[] = [];
    let stored = await calibrateEvaluation(db, user.id, evaluation.id, { judge: "rubric" });
    for (let i = 0; i < 3; i++) {
      const run = await timed(() =>
        calibrateEvaluation(db, user.id, evaluation.id, { judge: "rubric" }),
      );
      stored = run.value;
      storedTimes.push(run.wall);
      storedCpus.push(run.cpu);
    }
    const seconds = median(storedTimes);
    out.push({
      path: "pglite end to end",
      results: stored.items.judged,
      labelled: stored.items.labelled_scores,
      median_seconds: seconds,
      median_cpu_seconds: median(storedCpus),
      runs: storedTimes.length,
      load_average: loadavg()[0] ?? 0,
      peak_rss_mb: mb(process.memoryUsage().rss),
      mae: stored.agreement?.mae ?? null,
      kappa: stored.agreement?.kappa_quadratic ?? null,
      ppi_lambda: stored.pass_rate.ppi?.lambda ?? null,
      goal: `< ${GOAL_SECONDS} s`,
      met: seconds < GOAL_SECONDS,
    });
  } finally {
    await store.close();
  }
  return out;
}
