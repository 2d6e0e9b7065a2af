import { Hono } from "hono";
import { BotNetworkConfigSchema, type RagjudgeConfig, userClients } from "../config/index.js";
import { DEFAULT_GATE_CONFIG } from "../gate/index.js";
import { DEFAULT_JUDGES_CONFIG } from "../judges/index.js";
import type { Jobs } from "../jobs/index.js";
import { type LlmConfig, LlmConfigSchema } from "../llm/index.js";
import { DEFAULT_LOOPS_CONFIG, ModelFailureError, RetrievalConfigSchema } from "../rag/index.js";
import { type Db, findUserByToken } from "../store/index.js";
import { bearerToken, type Env, requireJsonBody, type RouteDeps } from "./http.js";
import { errorLogSummary } from "./error-log.js";
import { buildOpenApiDocument } from "./openapi.js";
import { botRoutes } from "./routes/bots.js";
import { gateRoutes } from "./routes/gate.js";
import { evaluationRoutes } from "./routes/evaluations.js";
import { judgeRoutes } from "./routes/judge.js";
import { labelRoutes } from "./routes/labels.js";
import { questionSetRoutes } from "./routes/question-sets.js";
import { ragRoutes } from "./routes/rag.js";

export interface AppOptions {
  db: Db;
  /** LLM roles; a role that is not configured works offline (offline judge, extractive bot). */
  llm?: LlmConfig;
  /** The gate, judges and RAG sections of the configuration; defaults when absent. */
  config?: Partial<Pick<RagjudgeConfig, "gate" | "judges" | "rag" | "bots">>;
  /** Largest accepted request body, in bytes (default 5 MiB). */
  maxBodyBytes?: number;
  /**
   * The job queue evaluations and question generation are sent to. Without it those routes answer
   * 503; reading, pausing and cancelling still work.
   */
  jobs?: Jobs;
}

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

/** The HTTP API: thin routes that parse, call one service function, and answer JSON. */
export function createApp(options: AppOptions) {
  const { db } = options;
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
    clients: userClients(db, options.llm),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    llm: options.llm ?? LlmConfigSchema.parse({}),
    ...(options.jobs ? { jobs: options.jobs } : {}),
  };
  const app = new Hono<Env>();

  app.onError((error, c) => {
    // A configured model failed and no fallback was asked for: say which, not the provider's text.
    const failed = ModelFailureError.findIn(error);
    if (failed) {
      const cause = failed.cause instanceof Error ? ` (${failed.cause.name})` : "";
      return c.json(
        { error: "model_failed", message: `The ${failed.role} model failed${cause}.` },
        502,
      );
    }
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

  app.get("/api/v1/health", (c) => c.json({ status: "ok" }));
  app.get("/api/v1/openapi.json", (c) => c.json(buildOpenApiDocument()));

  app.use("/api/v1/*", async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    const user = token ? await findUserByToken(db, token) : undefined;
    if (!user) {
      const message = "Send `Authorization: Bearer <token>` (see `ragjudge token`).";
      return c.json({ error: "unauthorized", message }, 401);
    }
    c.set("user", user);
    await next();
  });
  // Every endpoint takes JSON: another media type is refused before any route reads it.
  app.use("/api/v1/*", requireJsonBody);

  gateRoutes(app, deps);
  judgeRoutes(app, deps);
  ragRoutes(app, deps);
  questionSetRoutes(app, deps);
  evaluationRoutes(app, deps);
  labelRoutes(app, deps);
  botRoutes(app, deps);
  return app;
}
