import { parseArgs } from "node:util";
import { loadConfig, workerClients } from "../../config/index.js";
import { startQuestionGenerationWorker } from "../../evals/generation/index.js";
import { startArenaWorker } from "../../evals/arena/index.js";
import { startEvaluationWorker } from "../../evals/runs/index.js";
import { startJobs } from "../../jobs/index.js";
import { createPolicyFetch, restrictedBotNetwork } from "../../evals/bots/index.js";
import {
  startAlertEvaluation,
  startAnswerRetention,
  startMonitorWorker,
} from "../../production/index.js";
import { createApp, errorLogSummary, listen } from "../../server/index.js";
import { safeLandingPath } from "../../text/index.js";
import { createLoginCode, sealStoredAlertSecrets, sealStoredSecrets } from "../../store/index.js";
import { openInBrowser } from "../open-browser.js";
import { sessionLoopsConfig } from "../llm-session.js";
import { openStoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";

export const SERVE_HELP = `Usage: ragjudge serve [options]

Serves the web app and the HTTP API on one port (OpenAPI document at /api/v1/openapi.json),
and prints a one-time login URL for the browser (valid 15 minutes, usable once).

Options:
  --host HOST   address to bind (default: 127.0.0.1; use 0.0.0.0 only behind a proxy you trust)
  --port PORT   port (default: 8787; 0 picks a free one)
  --config FILE configuration file (default: ./ragjudge.config.json if present)
  --open        open the login URL in the browser
  --path PATH   the page the login URL lands on (default: /evaluations), e.g. /evaluations/ID
  --no-worker   run no evaluation or generation worker in this process: jobs wait for
                \`ragjudge worker\` processes on the same database (server mode)
  -h, --help    show this help

API requests need \`Authorization: Bearer <token>\` or the browser's session; the local user's
token is in $RAGJUDGE_HOME/token (the web app's login page also accepts it). One user may hold
20 live progress streams open (RAGJUDGE_STREAMS_PER_USER changes it; docs/security.md).`;

export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "8787" },
      config: { type: "string" },
      "no-worker": { type: "boolean", default: false },
      open: { type: "boolean", default: false },
      path: { type: "string" },
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
  // Secrets stored as given before the operator set RAGJUDGE_SECRET_KEY are encrypted now.
  const sealed = config.secret_key
    ? await sealStoredSecrets(session.store.db, config.secret_key)
    : 0;
  const sealedAlerts = config.secret_key
    ? await sealStoredAlertSecrets(session.store.db, config.secret_key)
    : 0;
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
          observations: rag.loops.observations,
          // Sent to the bots of runs started from the CLI only, never to an API user's bot.
          ...(process.env.RAGJUDGE_BOT_TOKEN ? { botToken: process.env.RAGJUDGE_BOT_TOKEN } : {}),
          botNetwork: config.bots,
          ...(config.secret_key ? { secretKey: config.secret_key } : {}),
        }),
        startQuestionGenerationWorker({ jobs, clientsFor, onError, prices: config.prices }),
        startArenaWorker({ jobs, clientsFor, onError }),
        startMonitorWorker({
          jobs,
          clientsFor,
          judges: config.judges,
          breakdownKeys: config.production.breakdown_keys,
          onError,
        }),
      ];
  const app = createApp({
    db: session.store.db,
    llm: config.llm,
    config: { ...config, rag },
    jobs,
    ...(config.secret_key ? { secretKey: config.secret_key } : {}),
  });
  const server = await listen(app, { host: values.host, port });
  const retention = startAnswerRetention({
    db: session.store.db,
    retentionDays: config.production.retention_days,
    onError: (error) => console.error(`[ragjudge] answer retention: ${errorLogSummary(error)}`),
  });
  // Alert webhooks obey the bot network policy, checked at every connection (docs/production.md).
  const alerts = startAlertEvaluation({
    db: session.store.db,
    fetch: createPolicyFetch(restrictedBotNetwork(config.bots)),
    secretKey: config.secret_key,
    publicUrl: server.url,
    intervalMs: config.production.alert_interval_ms,
    onError: (error) => console.error(`[ragjudge] alert evaluation: ${errorLogSummary(error)}`),
  });
  const login = new URL("/login", server.url);
  login.searchParams.set("code", await createLoginCode(session.store.db, session.user.id));
  if (values.path) login.searchParams.set("next", safeLandingPath(values.path, server.url));
  process.stdout.write(
    `ragjudge on ${server.url} (store: ${session.store.location})\n` +
      `Open the web app (this link logs you in once, for 15 minutes): ${login.href}\n` +
      `The API is at ${server.url}/api/v1\n` +
      `Token for user "${session.user.name}": ${session.tokenPath}\n` +
      (sealed > 0 ? `Encrypted ${sealed} stored bot secret(s) with RAGJUDGE_SECRET_KEY.\n` : "") +
      (sealedAlerts > 0
        ? `Encrypted ${sealedAlerts} stored webhook signing secret(s) with RAGJUDGE_SECRET_KEY.\n`
        : "") +
      (workers.length > 0
        ? "Evaluations, arenas, question generation and monitors run in this process.\n"
        : "No worker here (--no-worker): run `ragjudge worker` against the same database.\n") +
      `Try: curl -H "Authorization: Bearer $(cat ${session.tokenPath})" ${server.url}/api/v1/evaluation-records\n`,
  );
  if (values.open) openInBrowser(login.href);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  retention.stop();
  await alerts.stop();
  await Promise.all(workers.map((worker) => worker.stop()));
  await server.close();
  await jobs.stop();
  await session.close();
  return 0;
}
