// The server side of bench/streams.ts, in a process of its own so the client's sockets do not
// share its CPU: an embedded store on its own thread (as `ragjudge serve` runs), one user, one
// run RUNNING that no worker takes, and the HTTP API. It prints {url, token, runId} as one JSON
// line, then answers "cpu" messages with its process.cpuUsage().

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, listen } from "../src/server/index.js";
import {
  createApiToken,
  createEvaluation,
  findOrCreateUser,
  openStore,
  transitionEvaluation,
} from "../src/store/index.js";

const home = mkdtempSync(join(tmpdir(), "ragjudge-bench-streams-"));
const store = await openStore({ home });
const user = await findOrCreateUser(store.db, "streams");
const token = await createApiToken(store.db, user.id);
const run = await createEvaluation(store.db, user.id, {
  user_id: user.id,
  name: "followed",
  bot_id: "builtin",
  judge_llm_model_id: "offline",
  config: {},
  questions: Array.from({ length: 200 }, (_, i) => ({
    question_id: `q${i}`,
    question_type: "FACTUAL",
    question_text: `question ${i}?`,
    ground_truth: "",
  })),
});
await transitionEvaluation(store.db, run.id, ["PENDING"], "RUNNING");
const server = await listen(createApp({ db: store.db, webDir: false }), { port: 0 });
process.stdout.write(`${JSON.stringify({ url: server.url, token, runId: run.id })}\n`);
process.on("message", (message) => {
  if (message === "cpu") process.send?.(process.cpuUsage());
  if (message === "stop") {
    void (async () => {
      await server.close();
      await store.close();
      rmSync(home, { recursive: true, force: true });
      process.exit(0);
    })();
  }
});
