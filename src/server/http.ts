import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { z } from "zod";
import type { RagjudgeConfig } from "../config/index.js";
import { fieldIssues } from "../formats/index.js";
import type { Jobs } from "../jobs/index.js";
import type { LlmConfig } from "../llm/index.js";
import type { Db, User } from "../store/index.js";
import type { UserClients } from "../config/index.js";

/** How the caller authenticated: a bearer token, or the web app's session cookie. */
export type AuthVia = { via: "bearer" } | { via: "cookie"; token: string; expiresAt: Date };

/** Hono's environment for authenticated routes: the caller, set by the auth middleware. */
export type Env = {
  Variables: {
    user: User;
    auth: AuthVia;
    /** The validated params, query and body (server/route.ts). */
    input: Record<string, unknown>;
  };
};
export type App = Hono<Env>;

/** What every route module receives. */
export interface RouteDeps {
  db: Db;
  config: Pick<RagjudgeConfig, "gate" | "judges" | "rag">;
  clients: UserClients;
  maxBodyBytes: number;
  /** The LLM roles as configured (evaluation snapshots record their models, never keys). */
  llm: LlmConfig;
  /** The job queue; without it, routes that start background work answer 503. */
  jobs?: Jobs;
  /** The origin browsers reach the server at, when not the one requests are sent to (a proxy). */
  origin?: string;
  /** Check every JSON answer against its route's declared schema (tests; a mismatch is a 500). */
  validateResponses?: boolean;
}

export function errorJson(
  c: Context,
  status: 400 | 404 | 409 | 413 | 503,
  error: string,
  message: string,
) {
  return c.json({ error, message }, status);
}

export function validationError(c: Context, error: z.ZodError) {
  return c.json(
    {
      error: "validation_failed",
      message: "The request body is invalid.",
      issues: fieldIssues(error),
    },
    400,
  );
}

/** The 503 for a route that needs the job queue on a server started without one. */
export function jobsUnavailable(c: Context) {
  return errorJson(
    c,
    503,
    "jobs_unavailable",
    "This server has no job queue attached, so it cannot start background work (evaluations, question generation). Start it with `ragjudge serve`.",
  );
}

/** A body limit answering 413 with the limit in the message. */
export function limitBody(maxBytes: number) {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      errorJson(c, 413, "payload_too_large", `The request body exceeds ${maxBytes} bytes.`),
  });
}

/** Parses the JSON body and validates it; on failure, the 400 response to return. */
export async function readBody<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<{ ok: true; value: z.infer<S> } | { ok: false; response: Response }> {
  let json: unknown;
  try {
    json = await c.req.json();
  } catch (error) {
    const message = `The body is not valid JSON: ${(error as Error).message}`;
    return { ok: false, response: errorJson(c, 400, "invalid_json", message) };
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, response: validationError(c, parsed.error) };
}

/** Like readBody, but an empty body reads as `{}` (for bodies whose every field has a default). */
export async function readOptionalBody<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<{ ok: true; value: z.infer<S> } | { ok: false; response: Response }> {
  const text = await c.req.text();
  let json: unknown = {};
  if (text.trim() !== "") {
    try {
      json = JSON.parse(text);
    } catch (error) {
      const message = `The body is not valid JSON: ${(error as Error).message}`;
      return { ok: false, response: errorJson(c, 400, "invalid_json", message) };
    }
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, response: validationError(c, parsed.error) };
}
