import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { z } from "zod";
import { isLlmConfigured } from "../config/index.js";
import { fieldIssues } from "../formats/index.js";
import {
  EvaluatorInputSchema,
  type GateConfig,
  runEvaluatorPipeline,
} from "../gate/index.js";
import {
  DEFAULT_JUDGES_CONFIG,
  type JudgesConfig,
  judgeLine,
  LLM_JUDGES,
} from "../judges/index.js";
import { createLlmClient, type LlmClient, type LlmConfig, resolveModelConfig } from "../llm/index.js";
import {
  type Db,
  evaluationRecordRepo,
  type EvaluationRecordRow,
  findUserByToken,
  getEvaluationRecord,
  listEvaluationRecords,
  llmResponseCache,
  type User,
} from "../store/index.js";
import { buildOpenApiDocument } from "./openapi.js";
import { JudgeRequestSchema } from "./schemas.js";

export interface AppOptions {
  db: Db;
  /** LLM settings for the judge role; without them only the offline judge is served. */
  llm?: LlmConfig;
  judges?: JudgesConfig;
  /** Base gate configuration; each request's `config` overrides it. */
  gateConfig?: GateConfig;
  /** Largest accepted request body, in bytes (default 5 MiB). */
  maxBodyBytes?: number;
}

type Env = { Variables: { user: User } };

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

/** What the API returns for a stored record: everything but the owner. */
function recordJson(row: EvaluationRecordRow) {
  const { user_id: _owner, seq: _seq, check_count: _count, ...record } = row;
  return record;
}

async function readJson(c: Context): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  try {
    return { ok: true, value: await c.req.json() };
  } catch (error) {
    const message = `The body is not valid JSON: ${(error as Error).message}`;
    return { ok: false, response: c.json({ error: "invalid_json", message }, 400) };
  }
}

function validationError(error: z.ZodError) {
  return { error: "validation_failed", message: "The request body is invalid.", issues: fieldIssues(error) };
}

export function createApp(options: AppOptions) {
  const { db } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const app = new Hono<Env>();

  app.onError((error, c) => {
    // Never echo internals (or a connection string) to the client.
    console.error(`[ragjudge] ${c.req.method} ${c.req.path} failed: ${error.message}`);
    return c.json({ error: "internal_error", message: "The server failed to handle the request." }, 500);
  });
  app.notFound((c) => c.json({ error: "not_found", message: `No route ${c.req.method} ${c.req.path}` }, 404));

  app.get("/api/v1/health", (c) => c.json({ status: "ok" }));
  app.get("/api/v1/openapi.json", (c) => c.json(buildOpenApiDocument()));

  app.use("/api/v1/*", async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
    const user = token ? await findUserByToken(db, token) : undefined;
    if (!user) {
      return c.json(
        { error: "unauthorized", message: "Send `Authorization: Bearer <token>` (see `ragjudge token`)." },
        401,
      );
    }
    c.set("user", user);
    await next();
  });

  const tooLarge = (c: Context) =>
    c.json({ error: "payload_too_large", message: `The request body exceeds ${maxBodyBytes} bytes.` }, 413);

  app.post(
    "/api/v1/gate",
    bodyLimit({ maxSize: maxBodyBytes, onError: tooLarge }),
    async (c) => {
      const body = await readJson(c);
      if (!body.ok) return body.response;
      const parsed = EvaluatorInputSchema.safeParse(body.value);
      if (!parsed.success) return c.json(validationError(parsed.error), 400);
      const result = await runEvaluatorPipeline({
        evaluator_repo: evaluationRecordRepo(db),
        input: parsed.data,
        ctx: {
          user_id: c.get("user").id,
          ...(options.gateConfig ? { config: options.gateConfig } : {}),
          ...(c.req.header("x-trace-id") ? { trace_id: c.req.header("x-trace-id") } : {}),
        },
      });
      return c.json({ record_id: result.id, ...result }, 201);
    },
  );

  // One judge client per user: the response cache is per user, and the judge never shares the
  // generator's client (seed 000).
  const judgeClients = new Map<string, LlmClient>();
  const judgeClientFor = (userId: string): LlmClient | undefined => {
    if (!options.llm || !isLlmConfigured(options.llm, "judge")) return undefined;
    let client = judgeClients.get(userId);
    if (!client) {
      client = createLlmClient(resolveModelConfig(options.llm, "judge"), {
        cache: llmResponseCache(db, userId),
      });
      judgeClients.set(userId, client);
    }
    return client;
  };

  app.post("/api/v1/judge", bodyLimit({ maxSize: maxBodyBytes, onError: tooLarge }), async (c) => {
    const body = await readJson(c);
    if (!body.ok) return body.response;
    const parsed = JudgeRequestSchema.safeParse(body.value);
    if (!parsed.success) return c.json(validationError(parsed.error), 400);
    const { judges: kinds, no_cache, ...line } = parsed.data;
    const client = judgeClientFor(c.get("user").id);
    if (!client && kinds.some((kind) => LLM_JUDGES.includes(kind))) {
      return c.json(
        {
          error: "llm_not_configured",
          message: "No judge LLM is configured on this server; ask for judges: [\"offline\"].",
        },
        409,
      );
    }
    const results = await judgeLine(line, kinds, {
      config: options.judges ?? DEFAULT_JUDGES_CONFIG,
      noCache: no_cache,
      signal: c.req.raw.signal,
      ...(client ? { client } : {}),
    });
    return c.json({ results });
  });

  app.get("/api/v1/evaluation-records", async (c) => {
    const limit = Number(c.req.query("limit") ?? 50);
    const before = c.req.query("before_seq");
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      return c.json({ error: "invalid_query", message: "limit must be an integer from 1 to 500" }, 400);
    }
    if (before !== undefined && !/^\d+$/.test(before)) {
      return c.json({ error: "invalid_query", message: "before_seq must be a positive integer" }, 400);
    }
    const rows = await listEvaluationRecords(db, c.get("user").id, {
      limit,
      ...(before !== undefined ? { beforeSeq: Number(before) } : {}),
    });
    const last = rows.at(-1);
    return c.json({
      items: rows.map(recordJson),
      next_before_seq: rows.length === limit && last ? last.seq : null,
    });
  });

  app.get("/api/v1/evaluation-records/:id", async (c) => {
    const row = await getEvaluationRecord(db, c.get("user").id, c.req.param("id"));
    if (!row) return c.json({ error: "not_found", message: "No such evaluation record." }, 404);
    return c.json(recordJson(row));
  });

  return app;
}
