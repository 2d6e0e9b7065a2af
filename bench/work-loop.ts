// Issue 27 §2: does pg-boss's own `boss.work()` serve the evaluation items at realistic latency?
// The same jobs (handlers that wait a lognormal 300 ms or 800 ms median, as a bot and judges do)
// run once through `startWorkLoop` and once through `concurrency` `boss.work()` workers of one
// job each, on an embedded store. Bound = the handlers' waits summed / concurrency.
// `npx tsx bench/work-loop.ts [jobs] [concurrency]`

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QUEUES, startJobs, startWorkLoop } from "../src/jobs/index.js";
import { openStore } from "../src/store/index.js";
import { seededRandom as seeded } from "../test/support/seeded-random.js";

function lognormal(medianMs: number, sigma: number, random: () => number): number {
  const u = Math.max(random(), 1e-9);
  const v = random();
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return medianMs * Math.exp(sigma * normal);
}

async function once(
  mode: "work-loop" | "boss.work",
  count: number,
  concurrency: number,
  medianMs: number,
) {
  const home = mkdtempSync(join(tmpdir(), "ragjudge-bench-work-"));
  const store = await openStore({ home, thread: true });
  const jobs = await startJobs(store);
  const random = seeded(7);
  const waits = Array.from({ length: count }, () => lognormal(medianMs, 0.35, random));
  const queue = QUEUES.questionGeneration;
  let done = 0;
  let finished: () => void = () => {};
  const allDone = new Promise<void>((resolve) => (finished = resolve));
  const handle = async (data: { wait: number }) => {
    await new Promise((resolve) => setTimeout(resolve, data.wait));
    if (++done === count) finished();
  };
  const started = performance.now();
  let stop: () => Promise<void>;
  if (mode === "work-loop") {
    const loop = startWorkLoop<{ wait: number }>(jobs, {
      queue,
      concurrency,
      handle: (job) => handle(job.data),
    });
    stop = () => loop.stop();
  } else {
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i += 1) {
      ids.push(
        await jobs.boss.work<{ wait: number }>(
          queue,
          { batchSize: 1, pollingIntervalSeconds: 0.5 },
          async ([job]) => handle(job!.data),
        ),
      );
    }
    stop = async () => {
      for (const id of ids) await jobs.boss.offWork({ id });
    };
  }
  await jobs.send(
    queue,
    waits.map((wait) => ({ wait })),
  );
  await allDone;
  const seconds = (performance.now() - started) / 1000;
  await stop();
  await jobs.stop();
  await store.close();
  rmSync(home, { recursive: true, force: true });
  const bound = waits.reduce((a, b) => a + b, 0) / concurrency / 1000;
  return {
    mode,
    medianMs,
    seconds: +seconds.toFixed(2),
    bound: +bound.toFixed(2),
    ratio: +(seconds / bound).toFixed(3),
  };
}

const count = Number(process.argv[2] ?? 400);
const concurrency = Number(process.argv[3] ?? 16);
for (const medianMs of [300, 800]) {
  for (const mode of ["work-loop", "boss.work"] as const) {
    console.log(JSON.stringify(await once(mode, count, concurrency, medianMs)));
  }
}
process.exit(0);
