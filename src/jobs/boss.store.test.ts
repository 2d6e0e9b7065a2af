import { inject, it, expect } from "vitest";
import { openStore, queryRows } from "../store/index.js";
import { sql } from "drizzle-orm";
import { createDatabase } from "../../test/support/postgres-server.js";
import { QUEUES, startJobs } from "./boss.js";

// A worker and `eval --no-worker` starting together on a fresh database each created the queues;
// pg-boss's create_queue deadlocked and one process failed (or its peer waited forever).
it("processes starting jobs at once on a fresh server database all start, and each queue exists once", async () => {
  const url = await createDatabase(inject("postgresUrl"), "queues");
  const stores = await Promise.all([1, 2, 3, 4].map(() => openStore({ databaseUrl: url })));
  try {
    const started = await Promise.allSettled(stores.map((store) => startJobs(store)));
    const failures = started.filter((outcome) => outcome.status === "rejected");
    expect(failures.map((failure) => String(failure.reason))).toEqual([]);
    const queues = await queryRows<{ name: string; expire_seconds: number }>(
      stores[0]!.db,
      sql`select name, expire_seconds from pgboss.queue order by name`,
    );
    expect(queues).toEqual(
      Object.values(QUEUES)
        .sort()
        .map((name) => ({ name, expire_seconds: 10 })),
    );
    for (const outcome of started) if (outcome.status === "fulfilled") await outcome.value.stop();
  } finally {
    for (const store of stores) await store.close();
  }
});
