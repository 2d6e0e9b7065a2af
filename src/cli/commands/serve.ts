import { parseArgs } from "node:util";
import { loadConfig, workerClients } from "../../config/index.js";
import { startQuestionGenerationWorker } from "../../evals/generation/index.js";
import { startEvaluationWorker } from "../../evals/runs/index.js";
import { startJobs } from "../../jobs/index.js";
import { createApp, errorLogSummary, listen } from "../../server/index.js";
import { sessionLoopsConfig } from "../llm-session.js";
import { openStoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";

export const SERVE_HELP = `Usage: ragjudge serve [options]

Serves the HTTP API (OpenAPI document at /api/v1/openapi.json).

Options:
  --host HOST   address to bind (default: 127.0.0.1; use 0.0.0.0 only behind a proxy you trust)
  --port PORT   port (default: 8787; 0 picks a free one)
  --config FILE configuration file (default: ./ragjudge.config.json if present)
  --no-worker   run no evaluation or generation worker in this process: jobs wait for
                \`ragjudge worker\` processes on the same database (server mode)
  -h, --help    show this help

Requests need \`Authorization: Bearer <token>\`; the local user's token is in $RAGJUDGE_HOME/token.`;

export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "8787" },
      config: { type: "string" },
      "no-worker": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${SERVE_HELP}\n`);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError("--port must be 0-65535");
  const config = await loadConfig(values.config ? { path: values.config } : {});
  const session = await openStoreSession();
  const rag = { ...config.rag, loops: sessionLoopsConfig(config, session) };
  const jobs = await startJobs(session.store);
  const onError = (error: unknown) => console.error(`[ragjudge] worker: ${errorLogSummary(error)}`);
  const clientsFor = workerClients(session.store.db, config.llm);
  const workers = values["no-worker"]
    ? []
    : [
        startEvaluationWorker({
          jobs,
          clientsFor,
          onError,
          observationsPath: rag.loops.observations.path,
          // Sent to the bots of runs started from the CLI only, never to an API user's bot.
          ...(process.env.RAGJUDGE_BOT_TOKEN ? { botToken: process.env.RAGJUDGE_BOT_TOKEN } : {}),
          botNetwork: config.bots,
        }),
        startQuestionGenerationWorker({ jobs, clientsFor, onError }),
      ];
  const app = createApp({
    db: session.store.db,
    llm: config.llm,
    config: { ...config, rag },
    jobs,
  });
  const server = await listen(app, { host: values.host, port });
  process.stdout.write(
    `ragjudge API on ${server.url}/api/v1 (store: ${session.store.location})\n` +
      `Token for user "${session.user.name}": ${session.tokenPath}\n` +
      (workers.length > 0
        ? "Evaluations and question generation run in this process.\n"
        : "No worker here (--no-worker): run `ragjudge worker` against the same database.\n") +
      `Try: curl -H "Authorization: Bearer $(cat ${session.tokenPath})" ${server.url}/api/v1/evaluation-records\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await Promise.all(workers.map((worker) => worker.stop()));
  await server.close();
  await jobs.stop();
  await session.close();
  return 0;
}
