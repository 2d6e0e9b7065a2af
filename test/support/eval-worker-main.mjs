// The evaluation worker process that test/support/eval-worker-process.ts spawns (its arguments
// and output lines are described and typed there). Plain JavaScript on the built code in dist/,
// as `ragjudge` itself runs: through tsx's loader every start cost ~1.2 s more CPU, and so did the
// child that creates a new embedded home. The test setup rebuilds dist/ when a source is newer
// (test/support/fresh-build.ts), so this runs the code under test.

/* global process, console, setInterval, clearInterval */

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { configuredClients, loadConfig } from "../../dist/config/index.js";
import { startEvaluation, startEvaluationWorker } from "../../dist/evals/runs/index.js";
import { startJobs } from "../../dist/jobs/index.js";
import {
  createQuestionSet,
  findOrCreateUser,
  keepWasmOnLiftoff,
  llmResponseCache,
  openStore,
  queryRows,
  storeOptionsFromEnv,
} from "../../dist/store/index.js";

async function main() {
  // Short-lived here, as a one-command \`ragjudge\` process is (`ragjudge worker`, which serves for
  // hours, keeps V8's optimizing tier: src/cli/bin.ts).
  keepWasmOnLiftoff();
  const { values } = parseArgs({
    options: {
      concurrency: { type: "string", default: "4" },
      start: { type: "string" },
      "report-ms": { type: "string", default: "100" },
      "expire-seconds": { type: "string" },
      "heartbeat-seconds": { type: "string" },
    },
  });
  const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
  const config = await loadConfig({ cwd: "/nonexistent" });
  const store = await openStore(storeOptionsFromEnv());
  const jobs = await startJobs(store, {
    expireInSeconds: Number(values["expire-seconds"]),
    heartbeatSeconds: Number(values["heartbeat-seconds"]),
  });
  const worker = startEvaluationWorker({
    jobs,
    concurrency: Number(values.concurrency),
    clientsFor: (workspaceId, { noCache }) =>
      configuredClients(
        config.llm,
        noCache ? {} : { cache: llmResponseCache(store.db, workspaceId) },
      ),
    ...(process.env.RAGJUDGE_BOT_TOKEN ? { botToken: process.env.RAGJUDGE_BOT_TOKEN } : {}),
    watchMs: 50,
    onError: (error) => console.error(`worker: ${error?.message ?? String(error)}`),
  });

  if (values.start) {
    const file = JSON.parse(readFileSync(values.start, "utf8"));
    const user = await findOrCreateUser(store.db, file.user);
    const set = await createQuestionSet(
      store.db,
      user.id,
      { user_id: user.id, name: "reliability" },
      file.questions,
    );
    const row = await startEvaluation(
      { db: store.db, jobs },
      { workspaceId: user.id, userId: user.id },
      { ...file.request, question_set_id: set.id },
      config,
      { via: "cli" },
    );
    print({ event: "started", evaluation_id: row.id });
  }

  const report = setInterval(() => {
    queryRows(
      store.db,
      sql`select e.id, e.status, e.completed_questions as completed, e.total_questions as total,
                 (select count(*)::int from evaluation_results r
                  where r.evaluation_id = e.id and r.status = 'RUNNING') as running
          from evaluations e order by e.gmt_created`,
    )
      .then((evaluations) => print({ event: "progress", evaluations }))
      .catch(() => {});
  }, Number(values["report-ms"]));

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(report);
    await worker.stop();
    await jobs.stop();
    await store.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  print({ event: "ready", pid: process.pid });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
