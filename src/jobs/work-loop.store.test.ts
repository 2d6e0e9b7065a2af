import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openTestStore } from "../../test/support/stores.js";
import { queryRows, type Store } from "../store/index.js";
import { type Jobs, QUEUES, startJobs } from "./boss.js";
import { startWorkLoop } from "./work-loop.js";

let store: Store;
let jobs: Jobs;
beforeAll(async () => {
  store = await openTestStore("pglite");
  jobs = await startJobs(store);
});
afterAll(async () => {
  await jobs.stop();
  await store.close();
});

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const POLL = { timeout: 10_000, interval: 10 };

async function jobStates(): Promise<Record<string, string>> {
  const rows = await queryRows<{ label: string; state: string }>(
    store.db,
    sql`select data->>'label' as label, state from pgboss.job where name = ${QUEUES.questionGeneration}`,
  );
  return Object.fromEntries(rows.map((row) => [row.label, row.state]));
}

// An evaluation item frees its slot once the bot and judges are done, so the next item starts
// while its result is written; the job completes only when the write has.
it("a released job frees its slot at once, completes only when its handler ends, and released jobs are capped", async () => {
  const writes = { a: gate(), b: gate(), c: gate() };
  const started: string[] = [];
  const loop = startWorkLoop<{ label: "a" | "b" | "c" }>(jobs, {
    queue: QUEUES.questionGeneration,
    concurrency: 1,
    pollMs: 20,
    async handle(job) {
      started.push(job.data.label);
      job.release();
      await writes[job.data.label].opened;
    },
  });
  try {
    await jobs.send(QUEUES.questionGeneration, [{ label: "a" }]);
    await expect.poll(() => started, POLL).toEqual(["a"]);
    await jobs.send(QUEUES.questionGeneration, [{ label: "b" }, { label: "c" }]);
    // a released its slot, so a second job starts although a has not ended (concurrency 1).
    await expect.poll(() => started.length, POLL).toBe(2);
    const [, second, third] = [
      ...started,
      ...(["b", "c"] as const).filter((l) => !started.includes(l)),
    ] as ["a", "b" | "c", "b" | "c"];
    // Its release waits: one released job (a) is pending, the cap for concurrency 1. So the third
    // job, fetched (active in pg-boss) and ready to start, waits for a slot.
    await expect.poll(async () => (await jobStates())[third], POLL).toBe("active");
    expect(started).toEqual(["a", second]);
    expect((await jobStates()).a).toBe("active");

    writes.a.open();
    // a's end lets the second job's release through, which frees the slot for the third.
    await expect.poll(() => started.length, POLL).toBe(3);
    expect(started).toEqual(["a", second, third]);
    await expect.poll(async () => (await jobStates()).a, POLL).toBe("completed");
    expect((await jobStates())[second]).toBe("active");
    writes[second].open();
    writes[third].open();
    await expect
      .poll(async () => Object.values(await jobStates()), POLL)
      .toEqual(["completed", "completed", "completed"]);
  } finally {
    for (const write of Object.values(writes)) write.open();
    await loop.stop();
  }
});
