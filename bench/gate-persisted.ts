// Persisted gate throughput: evaluate and store records in batches, on PGlite in a data directory
// and on a PostgreSQL server. Goal: at least 1,000 records/s on PGlite with batched writes.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type EvaluatorInput, runEvaluatorPipelineBatch } from "../src/gate/index.js";
import {
  evaluationRecordRepo,
  findOrCreateUser,
  openStore,
  type Store,
} from "../src/store/index.js";
import { gateFixture } from "./gate-pure.js";

export interface GatePersistedBench {
  store: "pglite" | "postgres";
  records: number;
  batchSize: number;
  seconds: number;
  recordsPerSecond: number;
}

export async function benchGatePersisted(options: {
  kind: "pglite" | "postgres";
  databaseUrl?: string;
  records?: number;
  batchSize?: number;
}): Promise<GatePersistedBench> {
  const records = options.records ?? 5_000;
  const batchSize = options.batchSize ?? 500;
  const home = mkdtempSync(join(tmpdir(), "ragjudge-bench-"));
  let store: Store | undefined;
  try {
    store =
      options.kind === "postgres"
        ? await openStore({ databaseUrl: options.databaseUrl ?? "" })
        : await openStore({ home });
    const user = await findOrCreateUser(store.db, "bench");
    const repo = evaluationRecordRepo(store.db);
    const fixtures: EvaluatorInput[] = Array.from({ length: 50 }, (_, i) => gateFixture(i + 1));
    const batch = (start: number) =>
      Array.from({ length: Math.min(batchSize, records - start) }, (_, i) => {
        const input = fixtures[(start + i) % fixtures.length] as EvaluatorInput;
        return { ...input, message_id: `m${start + i}` };
      });
    // Warm-up: first statements compile plans and grow the WebAssembly heap.
    await runEvaluatorPipelineBatch({
      evaluator_repo: repo,
      inputs: batch(0).slice(0, 50),
      ctx: { workspace_id: user.id },
    });
    const started = performance.now();
    for (let start = 0; start < records; start += batchSize) {
      await runEvaluatorPipelineBatch({
        evaluator_repo: repo,
        inputs: batch(start),
        ctx: { workspace_id: user.id },
      });
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      store: options.kind,
      records,
      batchSize,
      seconds,
      recordsPerSecond: records / seconds,
    };
  } finally {
    await store?.close();
    rmSync(home, { recursive: true, force: true });
  }
}
