// No answer is judged twice by one monitor, across a worker's kill -9 (issue 24 §2): a
// monitor-judge worker process is killed with SIGKILL while judgments are in flight; another
// process takes over (pg-boss redelivers the dead worker's jobs under their own ids, and only
// the job holding a judgment's claim may write it). Every answer ends judged, once: one
// judgment row each, and the judge rollups count each answer once. Server mode: an embedded
// store admits one process.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { expect, inject, it } from "vitest";
import { startJobs } from "../src/jobs/index.js";
import { AnswerInputSchema, ingestAnswers, sendMonitorJobs } from "../src/production/index.js";
import { findOrCreateUser, insertMonitor, openStore, queryRows } from "../src/store/index.js";
import { createDatabase } from "./support/postgres-server.js";
import { startScriptedLlm } from "./support/scripted-llm.js";

const SCRIPT = fileURLToPath(new URL("./support/monitor-worker-main.mjs", import.meta.url));
const ANSWERS = 16;

function spawnWorker(env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [SCRIPT, "--concurrency", "4", "--expire-seconds", "3", "--heartbeat-seconds", "1"],
    {
      env: { ...process.env, RAGJUDGE_HOME: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes('"ready"')) resolve();
    });
    child.on("exit", (code) =>
      reject(new Error(`worker exited (${code}) before ready\n${stderr}`)),
    );
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal)),
  );
  return { child, ready, exited, stderr: () => stderr };
}

it("a worker killed with SIGKILL mid-judgment: another finishes, and each answer is judged once", async () => {
  const llm = await startScriptedLlm({ record: true });
  llm.latencyMs = 100;
  // The model answers two calls, then holds every call open until the first worker is dead:
  // the judgments it is running are certainly in flight when it is killed (a merely slow model
  // let them finish first on a fast run).
  let answered = 0;
  let holding = true;
  llm.on({
    reply: () => {
      if (holding && answered >= 2) return { hang: true };
      answered++;
      return {
        json: {
          reasonableness: { passed: true, problems: [] },
          evidence: { passed: true, problems: [] },
        },
      };
    },
  });
  const databaseUrl = await createDatabase(inject("postgresUrl"), "monitor_crash");
  const store = await openStore({ databaseUrl });
  const jobs = await startJobs(store, { expireInSeconds: 3, heartbeatSeconds: 1 });
  const env = {
    DATABASE_URL: databaseUrl,
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: "test-key",
  };
  const statuses = () =>
    queryRows<{ status: string; n: number }>(
      store.db,
      sql`select status, count(*)::int as n from monitor_judgments group by status`,
    ).then(
      (rows) => Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>,
    );
  try {
    const user = await findOrCreateUser(store.db, "crash");
    await insertMonitor(store.db, user.id, {
      name: "review",
      enabled: true,
      filter: {},
      sample_rate: 1,
      judges: ["review"],
      max_calls_per_minute: 1000,
      max_calls_per_day: 1000,
    });
    await ingestAnswers(
      Array.from({ length: ANSWERS }, (_, i) =>
        AnswerInputSchema.parse({
          conversation_id: "crash",
          message_id: `m-${i}`,
          retrieval_record: { id: `r-${i}`, query: `What is item ${i}?` },
          retrieval_hits: [{ node_id: "n1", content: `Item ${i} is a bridge built in 1870.` }],
          generation_record: { id: `g-${i}`, model: "m" },
          generation_output: {
            answer: `Item ${i} is a bridge [n1].`,
            citations: [{ node_id: "n1" }],
          },
        }),
      ),
      {
        db: store.db,
        workspaceId: user.id,
        source: "api",
        monitors: { db: store.db, send: (ids) => sendMonitorJobs(jobs, ids) },
      },
    );
    const first = spawnWorker(env);
    await first.ready;
    await expect
      .poll(
        async () => {
          const now = await statuses();
          return (now.done ?? 0) >= 2 && (now.running ?? 0) > 0;
        },
        { timeout: 60_000, interval: 20 },
      )
      .toBe(true);
    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");
    const interrupted = (await statuses()).running ?? 0;
    expect(interrupted).toBeGreaterThan(0);
    holding = false;

    const second = spawnWorker(env);
    await second.ready;
    await expect.poll(statuses, { timeout: 90_000, interval: 100 }).toEqual({ done: ANSWERS });
    second.child.kill("SIGTERM");
    await second.exited;

    const [rows] = await queryRows<{ judgments: number; answers: number; rolled: number }>(
      store.db,
      sql`select (select count(*)::int from monitor_judgments) as judgments,
                 (select count(distinct answer_id)::int from monitor_judgments) as answers,
                 (select coalesce(sum(count), 0)::int from judge_rollups where meta_key = '' and grain = 60) as rolled`,
    );
    expect(rows).toEqual({ judgments: ANSWERS, answers: ANSWERS, rolled: ANSWERS });
    // The killed worker's judgments in flight were asked again (their replies were never
    // stored), so the model saw at least one call per answer and fewer than two.
    expect(llm.requests.length).toBeGreaterThanOrEqual(ANSWERS);
    expect(llm.requests.length).toBeLessThanOrEqual(ANSWERS + interrupted + 4);
  } finally {
    await jobs.stop();
    await store.close();
    await llm.close();
  }
}, 180_000);
