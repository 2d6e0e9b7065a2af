import { Hono } from "hono";
import {
  BotNetworkConfigSchema,
  type ProductionConfig,
  type RagjudgeConfig,
  userClients,
} from "../config/index.js";
import { DEFAULT_GATE_CONFIG } from "../gate/index.js";
import {
  createTraceAssembler,
  type MonitorDispatch,
  sendMonitorJobs,
  TRACE_DEFAULTS,
  type TraceAssemblerOptions,
} from "../production/index.js";
import { DEFAULT_JUDGES_CONFIG } from "../judges/index.js";
import type { Jobs } from "../jobs/index.js";
import { type LlmConfig, LlmConfigSchema } from "../llm/index.js";
import { DEFAULT_LOOPS_CONFIG, RetrievalConfigSchema } from "../rag/index.js";
import { createRunFeeds, type RunFeedOptions } from "../evals/monitor/index.js";
import type { Db, SecretKey } from "../store/index.js";
import { authenticate } from "./auth.js";
import { errorLogSummary } from "./error-log.js";
import { knownErrorResponse } from "./errors.js";
import { type Env, requireJsonBody, type RouteDeps } from "./http.js";
import { createLoginLimiter, type LoginLimitOptions } from "./login-limiter.js";
import { buildOpenApiDocument } from "./openapi.js";
import { mountRoute } from "./route.js";
import { createStreamCap, streamsPerUserFromEnv } from "./stream-cap.js";
import {
  alertRoutes,
  answerRoutes,
  arenaRoutes,
  botRoutes,
  evaluationRoutes,
  gateRoutes,
  ingestKeyRoutes,
  inviteRoute,
  workspaceRoutes,
  judgeRoutes,
  labelRoutes,
  queueRoutes,
  llmStatusOf,
  loginLinkRoute,
  metaApi,
  monitorRoutes,
  questionSetRoutes,
  ragRoutes,
  sessionLoginRoute,
  sessionRoutes,
  traceRoutes,
} from "./routes/index.js";
import { webAppRoutes } from "./web-app.js";

export interface AppOptions {
  db: Db;
  /** LLM roles; a role that is not configured works offline (offline judge, extractive bot). */
  llm?: LlmConfig;
  /** The gate, judges and RAG sections of the configuration; defaults when absent. */
  config?: Partial<Pick<RagjudgeConfig, "gate" | "judges" | "rag" | "bots">> & {
    production?: Partial<ProductionConfig>;
  };
  /** Largest accepted request body, in bytes (default 5 MiB). */
  maxBodyBytes?: number;
  /**
   * The job queue evaluations and question generation are sent to. Without it those routes answer
   * 503; reading, pausing and cancelling still work.
   */
  jobs?: Jobs;
  /**
   * The built web app (index.html and assets/); default dist/web. `false` serves the API alone.
   */
  webDir?: string | false;
  /** The origin browsers use, when a proxy puts the server elsewhere (for the Origin check). */
  origin?: string;
  /**
   * Check every JSON answer against the schema its route declares; a mismatch becomes a 500
   * naming the field. Default: on when RAGJUDGE_VALIDATE_RESPONSES=1 (the tests set it).
   */
  validateResponses?: boolean;
  /** Wrong codes, tokens and cookies allowed per client address and window (docs/security.md). */
  loginLimit?: LoginLimitOptions;
  /**
   * The operator's RAGJUDGE_SECRET_KEY (config.secret_key): users' bot secrets are stored
   * encrypted with it. Without it, a database with several users refuses to store one.
   */
  secretKey?: SecretKey;
  /**
   * Live progress streams (`/evaluations/:id/events`): how many one user may hold open (default
   * RAGJUDGE_STREAMS_PER_USER, else 20; more get 429) and how often their shared poller reads a
   * run (docs/security.md).
   */
  streams?: Omit<RunFeedOptions, "onError"> & { perUser?: number };
  /** Bounds on OpenTelemetry spans waiting for their trace (defaults: TRACE_DEFAULTS). */
  traces?: Pick<TraceAssemblerOptions, "maxPendingSpans" | "maxSpansPerTrace">;
}

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

/** The HTTP API: thin routes that parse, call one service function, and answer JSON. */
export function createApp(options: AppOptions) {
  const { db } = options;
  const jobs = options.jobs;
  // Answers the user's monitors take up are queued in the database, and a job is sent for each
  // when this process has the queue (else the workers' sweep finds them).
  const monitors: MonitorDispatch = {
    db,
    repeat: options.config?.judges?.repeat ?? DEFAULT_JUDGES_CONFIG.repeat,
    ...(jobs ? { send: (ids: string[]) => sendMonitorJobs(jobs, ids) } : {}),
  };
  const deps: RouteDeps = {
    db,
    config: {
      gate: options.config?.gate ?? DEFAULT_GATE_CONFIG,
      judges: options.config?.judges ?? DEFAULT_JUDGES_CONFIG,
      // Where API users' HTTP bots may connect: public addresses only unless the operator allows more.
      bots: options.config?.bots ?? BotNetworkConfigSchema.parse({}),
      rag: options.config?.rag ?? {
        loops: DEFAULT_LOOPS_CONFIG,
        retrieval: RetrievalConfigSchema.parse({}),
      },
    },
    production: {
      breakdownKeys: options.config?.production?.breakdown_keys ?? [],
      monitors,
    },
    clients: userClients(db, options.llm),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    llm: options.llm ?? LlmConfigSchema.parse({}),
    ...(options.jobs ? { jobs: options.jobs } : {}),
    ...(options.origin ? { origin: options.origin } : {}),
    validateResponses: options.validateResponses ?? process.env.RAGJUDGE_VALIDATE_RESPONSES === "1",
    secretKey: options.secretKey,
    streams: {
      feeds: createRunFeeds(db, {
        ...options.streams,
        // One line per failed poller, by SQLSTATE: never the query or its parameters.
        onError: (error) =>
          console.error(`[ragjudge] progress streams of a run ended: ${errorLogSummary(error)}`),
      }),
      cap: createStreamCap(options.streams?.perUser ?? streamsPerUserFromEnv()),
    },
  };
  // OpenTelemetry spans wait per trace until it can be assembled (production/otlp/pending.ts).
  const traces = createTraceAssembler({
    db,
    gate: deps.config.gate,
    waitMs: options.config?.production?.trace_wait_ms ?? TRACE_DEFAULTS.waitMs,
    ...options.traces,
    breakdownKeys: deps.production.breakdownKeys,
    monitors,
    onError: (error) =>
      console.error(`[ragjudge] storing assembled traces failed: ${errorLogSummary(error)}`),
  });
  const app = new Hono<Env>();
  const loginLimiter = createLoginLimiter(options.loginLimit);

  // Routes throw typed errors; this maps them to statuses once.
  app.onError((error, c) => {
    const known = knownErrorResponse(c, error);
    if (known) return known;
    // Never echo internals (or a connection string) to the client, nor user content to the log.
    console.error(`[ragjudge] ${c.req.method} ${c.req.path} failed: ${errorLogSummary(error)}`);
    return c.json(
      { error: "internal_error", message: "The server failed to handle the request." },
      500,
    );
  });
  app.notFound((c) =>
    c.json({ error: "not_found", message: `No route ${c.req.method} ${c.req.path}` }, 404),
  );

  // Public: reached without a login.
  mountRoute(app, deps, metaApi.health, (c) => c.json({ status: "ok" as const }, 200));
  mountRoute(app, deps, metaApi.openapi, (c) => c.json(buildOpenApiDocument(), 200));
  sessionLoginRoute(app, deps, loginLimiter);

  app.use("/api/v1/*", authenticate(db, loginLimiter, options.origin));
  // OTLP exporters append /v1/traces to their endpoint; their Authorization header is a token.
  app.use("/v1/traces", authenticate(db, loginLimiter, options.origin));
  // Every endpoint takes JSON: another media type is refused before any route reads it.
  app.use("/api/v1/*", requireJsonBody);

  mountRoute(app, deps, metaApi.llm, (c) => c.json(llmStatusOf(deps.llm), 200));
  sessionRoutes(app, deps);
  gateRoutes(app, deps);
  answerRoutes(app, deps);
  monitorRoutes(app, deps);
  traceRoutes(app, deps, traces);
  ingestKeyRoutes(app, deps);
  workspaceRoutes(app, deps);
  alertRoutes(app, deps);
  judgeRoutes(app, deps);
  ragRoutes(app, deps);
  questionSetRoutes(app, deps);
  evaluationRoutes(app, deps);
  labelRoutes(app, deps);
  botRoutes(app, deps);
  arenaRoutes(app, deps);
  queueRoutes(app, deps);
  loginLinkRoute(app, deps, loginLimiter);
  inviteRoute(app, deps, loginLimiter);
  if (options.webDir !== false) webAppRoutes(app, options.webDir);
  return app;
}
