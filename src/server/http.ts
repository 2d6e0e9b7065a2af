import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { z } from "zod";
import type { RagjudgeConfig } from "../config/index.js";
import { fieldIssues } from "../formats/index.js";
import { parseStrictJson } from "../text/index.js";
import type { Jobs } from "../jobs/index.js";
import type { LlmConfig } from "../llm/index.js";
import type { Db, Membership, SecretKey, User } from "../store/index.js";
import type { UserClients } from "../config/index.js";
import type { RunFeeds } from "../evals/monitor/index.js";
import type { MonitorDispatch } from "../production/index.js";
import type { StreamCap } from "./stream-cap.js";

/** How the caller authenticated: a bearer token, or the web app's session cookie. */
export type AuthVia =
  { via: "bearer"; scope: "full" | "ingest" } | { via: "cookie"; token: string; expiresAt: Date };

/** Hono's environment for authenticated routes: the caller, set by the auth middleware. */
export type Env = {
  Variables: {
    user: User;
    auth: AuthVia;
    /** The workspace the request acts in and the caller's role there (issue 28). */
    workspace: Membership;
    /** The validated params, query and body (server/route.ts). */
    input: Record<string, unknown>;
  };
};
export type App = Hono<Env>;

/** What every route module receives. */
export interface RouteDeps {
  db: Db;
  config: Pick<RagjudgeConfig, "gate" | "judges" | "rag" | "bots">;
  /** Production answers: the rollups' breakdown keys, and the monitors that take answers up. */
  production: { breakdownKeys: readonly string[]; monitors: MonitorDispatch };
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
  /** The operator's RAGJUDGE_SECRET_KEY: users' bot secrets are stored encrypted with it. */
  secretKey: SecretKey | undefined;
  /** Live progress streams: one poller per run, shared, and a cap per user. */
  streams: { feeds: RunFeeds; cap: StreamCap };
}

export function errorJson<S extends 400 | 404 | 409 | 413 | 415 | 503>(
  c: Context,
  status: S,
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

/** The token of an `Authorization: Bearer <token>` header; the scheme is case-insensitive (RFC 9110 §11.1). */
export function bearerToken(header: string | undefined): string {
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  return match?.[1] ?? "";
}

/** `application/json`, with or without parameters (charset); case-insensitive, as media types are. */
const JSON_MEDIA_TYPE = /^application\/json[ \t]*(;|$)/i;

/**
 * 415 for a request that carries a body of any other type than JSON: every endpoint reads JSON,
 * and a form or text body accepted as JSON would let a plain HTML form post to the API.
 * Requests without a body (GET, pause, an empty retry) pass.
 */
export const requireJsonBody = createMiddleware(async (c, next) => {
  const length = c.req.header("content-length");
  const type = c.req.header("content-type");
  const hasBody =
    (length !== undefined && length.trim() !== "0") ||
    c.req.header("transfer-encoding") !== undefined ||
    // No length header (HTTP/2, or `app.fetch` called in process) yet a form's or any other
    // declared type with a body stream: refused too. Without a type, an empty POST (`curl -X
    // POST`) must still pass, and Node's HTTP/1.1 parser gives every POST a stream.
    (length === undefined && type !== undefined && c.req.raw.body !== null);
  if (hasBody && !JSON_MEDIA_TYPE.test(type ?? "")) {
    return errorJson(
      c,
      415,
      "unsupported_media_type",
      "Send the body as JSON with `content-type: application/json`.",
    );
  }
  await next();
});

/** A body limit answering 413 with the limit in the message. */
export function limitBody(maxBytes: number) {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      errorJson(c, 413, "payload_too_large", `The request body exceeds ${maxBytes} bytes.`),
  });
}

type BodyResult<S extends z.ZodType> =
  { ok: true; value: z.infer<S> } | { ok: false; response: Response };

/**
 * Parses the JSON body and validates it; on failure, the 400 response to return. The bytes are
 * read by parseStrictJson, as `ragjudge gate` reads a JSONL line: invalid UTF-8, nesting deeper
 * than 64 levels, NUL and lone surrogates are 400s naming the field, never stored as "�".
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<BodyResult<S>> {
  return validateBody(c, schema, new Uint8Array(await c.req.arrayBuffer()));
}

/** Like readBody, but an empty body reads as `{}` (for bodies whose every field has a default). */
export async function readOptionalBody<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<BodyResult<S>> {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  const blank = bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);
  if (blank) return validateBody(c, schema, Buffer.from("{}"));
  return validateBody(c, schema, bytes);
}

function validateBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  bytes: Uint8Array,
): BodyResult<S> {
  const json = parseStrictJson(bytes);
  if (!json.ok) {
    const response =
      json.kind === "malformed"
        ? errorJson(c, 400, "invalid_json", `The body is not valid JSON: ${json.message}`)
        : c.json(
            {
              error: "validation_failed",
              message: "The request body is invalid.",
              issues: [{ path: json.path, message: json.message }],
            },
            400,
          );
    return { ok: false, response };
  }
  const parsed = schema.safeParse(json.value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, response: validationError(c, parsed.error) };
}
