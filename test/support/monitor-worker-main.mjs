// A monitor-judge worker in its own process, for test/monitor-crash.test.ts, which kills it with
// SIGKILL mid-judgment. Plain JavaScript on the built code in dist/, as eval-worker-main.mjs (see
// there). Storage from DATABASE_URL, the judge role from OPENAI_BASE_URL. Prints {"event":"ready"}
// once it fetches jobs; SIGTERM stops it cleanly.

/* global process, console */

import { parseArgs } from "node:util";
import { configuredClients, loadConfig } from "../../dist/config/index.js";
import { startJobs } from "../../dist/jobs/index.js";
import { startMonitorWorker } from "../../dist/production/index.js";
import { openStore, storeOptionsFromEnv } from "../../dist/store/index.js";

async function main() {
  const { values } = parseArgs({
    options: {
      concurrency: { type: "string", default: "4" },
      "expire-seconds": { type: "string" },
      "heartbeat-seconds": { type: "string" },
    },
  });
  const config = await loadConfig({ cwd: "/nonexistent" });
  const store = await openStore(storeOptionsFromEnv());
  const jobs = await startJobs(store, {
    expireInSeconds: Number(values["expire-seconds"]),
    heartbeatSeconds: Number(values["heartbeat-seconds"]),
  });
  const clients = configuredClients(config.llm);
  const worker = startMonitorWorker({
    jobs,
    concurrency: Number(values.concurrency),
    clientsFor: () => clients,
    judges: config.judges,
    onError: (error) => console.error(`worker: ${error?.message ?? String(error)}`),
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await worker.stop();
    await jobs.stop();
    await store.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.stdout.write(`${JSON.stringify({ event: "ready", pid: process.pid })}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
