import type { Context, MiddlewareHandler, TypedResponse } from "hono";
import type { StatusCode } from "hono/utils/http-status";
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
//
// Handlers are typed from the declaration: a handler must return one of the answers its route
// declares (`Answer<R>`), each a Hono `TypedResponse` carrying its status and body type, so a
// wrong status or a body that is not the declared schema's `z.input` is a compile error
// (test/route-types.test-d.ts). The body is compared as Hono sends it (a Date as its string); a
// field the schema does not name is not caught (types are structural), and RAGJUDGE_VALIDATE_
// RESPONSES=1 still checks every answer at run time in tests. This is what `@hono/zod-openapi` offers too (its `RouteConfigToTypedResponse`,
// with `c.json(body, status)` naming the status); we keep our own table rather than adopt it
// because the document it generates (through @asteasolutions/zod-to-openapi) differs from ours in
// components, `x-ragjudge-access`, operation ids and the implied 401/403/429 answers, and its
// validation hooks would have to be rebuilt around readBody's strict JSON rules and 404-for-bad-
// params anyway: the migration would move ~110 routes for the same guarantee.

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface ResponseSpec {
  description: string;
  /** The JSON body's schema; absent for a body-less answer (204) unless `content` says otherwise. */
  schema?: z.ZodType;
  /** A non-JSON body: a CSV download or an event stream. */
  content?: { type: string; schema: z.ZodType };
}

export type ResponseSpecs = Record<number, ResponseSpec>;

export interface RouteSpec<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends ResponseSpecs = ResponseSpecs,
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
  responses: R;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

/** What a handler may pass for a body of type T: arrays may be readonly (JSON has no such mark). */
type Readable<T> = T extends readonly (infer E)[]
  ? readonly Readable<E>[]
  : T extends object
    ? { readonly [K in keyof T]: Readable<T[K]> }
    : T;

/**
 * One declared answer as a handler must produce it: a JSON body of the declared schema's input
 * type (`c.json(body, status)`), a body-less answer (`c.body(null, 204)`), or a declared non-JSON
 * body (a CSV through `c.body(text, status, headers)`, a stream through `declaredBody`).
 */
type AnswerOf<Status extends StatusCode, Spec> = Spec extends { content: object }
  ? Response & TypedResponse<unknown, Status, "body" | "text">
  : Spec extends { schema: infer S extends z.ZodType }
    ? Response & TypedResponse<Readable<z.input<S>>, Status, "json">
    : Response & TypedResponse<null, Status, "body">;

/** Every answer a route declares; a handler returning anything else does not compile. */
export type Answer<R extends ResponseSpecs> = R extends unknown
  ? { [K in keyof R & StatusCode]: AnswerOf<K, R[K]> }[keyof R & StatusCode]
  : never;

export type RouteHandler<P, Q, B, R extends ResponseSpecs> = (
  c: Context<Env>,
  input: RouteInput<P, Q, B>,
) => Answer<R> | Promise<Answer<R>>;

/** The handler type a declared route takes. */
export type HandlerOf<S> =
  S extends RouteSpec<
    infer P extends AnyObject | undefined,
    infer Q extends AnyObject | undefined,
    infer B extends z.ZodType | undefined,
    infer R extends ResponseSpecs
  >
    ? RouteHandler<P, Q, B, R>
    : never;

/** A response built outside `c.body` (an event stream), typed as the declared non-JSON answer. */
export function declaredBody<S extends StatusCode>(
  response: Response,
  _status: S,
): Response & TypedResponse<unknown, S, "body"> {
  return response as Response & TypedResponse<unknown, S, "body">;
}

/** Declares a route; the generic parameters are inferred from the schemas it names. */
export function defineRoute<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  const R extends ResponseSpecs = ResponseSpecs,
>(spec: RouteSpec<P, Q, B, R>): RouteSpec<P, Q, B, R> {
  return spec;
}

/** Any declared route, for the document and the table of routes. */
export type AnyRouteSpec = RouteSpec<
  AnyObject | undefined,
  AnyObject | undefined,
  z.ZodType | undefined,
  ResponseSpecs
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
  R extends ResponseSpecs,
>(app: App, deps: RouteDeps, spec: RouteSpec<P, Q, B, R>, handler: RouteHandler<P, Q, B, R>): void {
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
