// `npm run bench`: runs every benchmark, prints one table per family, writes bench/results/latest.json.
// Goals are checked and reported here, never in timed tests.

import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { renderTable } from "../src/cli/render/table.js";
import { createDatabase, startPostgresServer } from "../test/support/postgres-server.js";
import { benchGatePersisted } from "./gate-persisted.js";
import { benchGatePure } from "./gate-pure.js";

const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);
const results: Record<string, unknown> = {
  machine: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, memory_gb: Math.round(totalmem() / 2 ** 30) },
  started_at: new Date().toISOString(),
};
const verdict = (ok: boolean) => (ok ? "met" : "MISSED");

if (wanted("gate")) {
  const pure = await benchGatePure();
  results.gate_pure = pure;
  console.log("\nEvidence gate, pure (1 KB answer, 10 hits x 500 chars, one core)");
  console.log(
    renderTable(
      ["answers/s", "mean µs", "iterations", "verdict", "goal >= 20,000/s"],
      [[Math.round(pure.answersPerSecond), pure.meanMicros.toFixed(1), pure.iterations, pure.status, verdict(pure.answersPerSecond >= 20_000)]],
      { alignRight: [0, 1, 2] },
    ),
  );

  const server = await startPostgresServer();
  try {
    const pglite = await benchGatePersisted({ kind: "pglite" });
    const postgres = await benchGatePersisted({ kind: "postgres", databaseUrl: await createDatabase(server.url, "bench") });
    results.gate_persisted = [pglite, postgres];
    console.log("\nEvidence gate, persisted (evaluate + store, batches of 500)");
    console.log(
      renderTable(
        ["store", "records", "seconds", "records/s", "goal"],
        [
          ["pglite (data dir)", pglite.records, pglite.seconds.toFixed(2), Math.round(pglite.recordsPerSecond), `>= 1,000/s: ${verdict(pglite.recordsPerSecond >= 1000)}`],
          ["postgres server", postgres.records, postgres.seconds.toFixed(2), Math.round(postgres.recordsPerSecond), "-"],
        ],
        { alignRight: [1, 2, 3] },
      ),
    );
  } finally {
    server.stop();
  }
}

mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
const out = new URL("./results/latest.json", import.meta.url);
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nWrote ${out.pathname}`);
