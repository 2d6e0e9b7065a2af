import type { Context, MiddlewareHandler } from "hono";
import { z } from "zod";
import { fieldIssues } from "../formats/index.js";
import { type Access, accessOf, requireAccess } from "./access.js";
import {
  type App,
  type Env,
  errorJson,
  jobsUnavailable,
  limitBody,
  type RouteDeps,
  readBody,
  readOptionalBody,
} from "./http.js";

// The route table: every endpoint is declared once, with its request and response schemas. The
// same declaration mounts the route (validation as middleware) and writes its OpenAPI operation
// (openapi.ts), so the document cannot drift from what the server accepts and answers.

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface ResponseSpec {
  description: string;
  /** The JSON body's schema; absent for a body-less answer (204) unless `content` says otherwise. */
  schema?: z.ZodType;
  /** A non-JSON body: a CSV download or an event stream. */
  content?: { type: string; schema: z.ZodType };
}

export interface RouteSpec<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
> {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Hono's syntax (`:id`); the document shows `{id}`. */
  path: `/api/v1${string}`;
  summary: string;
  description?: string;
  tags: readonly [string, ...string[]];
  /** Path parameters. One that fails its schema (a malformed id) reads as not found: 404. */
  params?: P;
  /** What a 404 calls the missing thing ("evaluation" → "No such evaluation: <id>."). */
  resource?: string;
  /** Query parameters; a failure is a 400 naming the parameter. */
  query?: Q;
  /** The JSON body; a failure is a 400 whose issues name each field. */
  body?: B;
  /** An empty body reads as `{}` (every field has a default). */
  bodyOptional?: boolean;
  /** The body limit for this route, from the server's configured one. */
  bodyBytes?: (maxBodyBytes: number) => number;
  /** The route sends work to the job queue: without one it answers 503 before reading the body. */
  needsJobs?: boolean;
  /** Reached without logging in (the login itself, health, the document). */
  public?: boolean;
  /** What the caller's role must allow (server/access.ts); by default read for GET, else write. */
  access?: Access;
  responses: Record<number, ResponseSpec>;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

export type RouteHandler<P, Q, B> = (
  c: Context<Env>,
  input: RouteInput<P, Q, B>,
) => Response | Promise<Response>;

/** Declares a route; the generic parameters are inferred from the schemas it names. */
export function defineRoute<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B>): RouteSpec<P, Q, B> {
  return spec;
}

/** Any declared route, for the document and the table of routes. */
export type AnyRouteSpec = RouteSpec<
  AnyObject | undefined,
  AnyObject | undefined,
  z.ZodType | undefined
>;

/** `/api/v1/evaluations/:id` → `/api/v1/evaluations/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join(".") ?? "";
  return path ? `${path}: ${issue?.message ?? ""}` : (issue?.message ?? "invalid");
}

/** The middleware a declaration implies, in the order the server has always checked them. */
function validators(spec: AnyRouteSpec, deps: RouteDeps): MiddlewareHandler<Env>[] {
  const chain: MiddlewareHandler<Env>[] = [];
  if (!spec.public) {
    chain.push(requireAccess(accessOf(spec)));
  }
  if (spec.body) {
    chain.push(limitBody(spec.bodyBytes?.(deps.maxBodyBytes) ?? deps.maxBodyBytes));
  }
  chain.push(async (c, next) => {
    if (spec.params) {
      const parsed = spec.params.safeParse(c.req.param());
      if (!parsed.success) {
        const id = Object.values(c.req.param())[0] ?? "";
        return errorJson(c, 404, "not_found", `No such ${spec.resource ?? "resource"}: ${id}.`);
      }
      c.set("input", { params: parsed.data });
    } else {
      c.set("input", {});
    }
    return next();
  });
  if (spec.needsJobs) {
    chain.push(async (c, next) => (deps.jobs ? next() : jobsUnavailable(c)));
  }
  chain.push(async (c, next) => {
    const input = c.get("input");
    if (spec.query) {
      const parsed = spec.query.safeParse(c.req.query());
      // The issues name each parameter at fault, so a page can show each beside its field.
      if (!parsed.success)
        return c.json(
          {
            error: "invalid_query",
            message: firstIssue(parsed.error),
            issues: fieldIssues(parsed.error),
          },
          400,
        );
      input.query = parsed.data;
    }
    if (spec.body) {
      // Through http.ts, so every body is read by one function (its JSON rules, its errors).
      const read = spec.bodyOptional
        ? await readOptionalBody(c, spec.body)
        : await readBody(c, spec.body);
      if (!read.ok) return read.response;
      input.body = read.value;
    }
    return next();
  });
  return chain;
}

/** Throws when an answer's status is undeclared or its JSON body breaks the declared schema. */
export async function checkResponse(spec: AnyRouteSpec, response: Response): Promise<void> {
  const declared = spec.responses[response.status];
  const where = `${spec.method.toUpperCase()} ${spec.path} answered ${response.status}`;
  if (!declared) throw new Error(`${where}, a status it does not declare`);
  const type = response.headers.get("content-type") ?? "";
  if (!declared.schema || !type.startsWith("application/json")) return;
  const parsed = declared.schema.safeParse(await response.clone().json());
  if (!parsed.success) {
    throw new Error(`${where} against its declared schema: ${firstIssue(parsed.error)}`);
  }
}

/** Mounts a declared route on the app with its validation in front of the handler. */
export function mountRoute<
  P extends AnyObject | undefined,
  Q extends AnyObject | undefined,
  B extends z.ZodType | undefined,
>(app: App, deps: RouteDeps, spec: RouteSpec<P, Q, B>, handler: RouteHandler<P, Q, B>): void {
  const handlers: MiddlewareHandler<Env>[] = [
    ...validators(spec as AnyRouteSpec, deps),
    async (c) => {
      const response = await handler(c, c.get("input") as unknown as RouteInput<P, Q, B>);
      if (deps.validateResponses) await checkResponse(spec as AnyRouteSpec, response);
      return response;
    },
  ];
  // Hono's overloads type a fixed number of handlers; the chain here is built at run time.
  const on = app.on as unknown as (
    method: string,
    path: string,
    ...h: MiddlewareHandler<Env>[]
  ) => void;
  on.call(app, spec.method.toUpperCase(), spec.path, ...handlers);
}
