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

async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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
    await waitFor(() => started.length === 1, "a to start");
    await jobs.send(QUEUES.questionGeneration, [{ label: "b" }, { label: "c" }]);
    // a released its slot, so a second job starts although a has not ended (concurrency 1).
    await waitFor(() => started.length === 2, "a second job to start while a writes");
    const [, second, third] = [
      ...started,
      ...(["b", "c"] as const).filter((l) => !started.includes(l)),
    ] as ["a", "b" | "c", "b" | "c"];
    // Its release waits: one released job (a) is pending, the cap for concurrency 1. So the third
    // job, fetched (active in pg-boss) and ready to start, waits for a slot.
    await waitFor(async () => (await jobStates())[third] === "active", "the third job's fetch");
    expect(started).toEqual(["a", second]);
    expect((await jobStates()).a).toBe("active");

    writes.a.open();
    // a's end lets the second job's release through, which frees the slot for the third.
    await waitFor(() => started.length === 3, "the third job to start after a ended");
    expect(started).toEqual(["a", second, third]);
    await waitFor(async () => (await jobStates()).a === "completed", "a to complete");
    expect((await jobStates())[second]).toBe("active");
    writes[second].open();
    writes[third].open();
    await waitFor(
      async () => Object.values(await jobStates()).every((state) => state === "completed"),
      "every job to complete",
    );
  } finally {
    for (const write of Object.values(writes)) write.open();
    await loop.stop();
  }
});
