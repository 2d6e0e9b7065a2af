import { z } from "zod";
import { accessOf } from "./access.js";
import { requestComponents, responseComponents } from "./components.js";
import { type AnyRouteSpec, openApiPath } from "./route.js";
import { API_ROUTES } from "./routes/index.js";
import { ErrorSchema } from "./schemas/index.js";

// The OpenAPI document, generated from the route table (routes/index.ts): each operation comes
// from the same declaration that mounts and validates the route. Named schemas (components.ts:
// each named where it is defined or taken as a body) become components that operations and other
// components refer to.

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
type JsonSchema = Record<string, unknown>;
type Io = "input" | "output";
type Components = typeof requestComponents;

/** Every named schema as a component, cross-references as $refs, without zod's `$id`s. */
function componentSchemas(components: Components, io: Io) {
  const { schemas } = z.toJSONSchema(components, {
    target: "openapi-3.0",
    io,
    unrepresentable: "any",
    uri: (id) => ref(id).$ref,
  }) as { schemas: Record<string, JsonSchema> };
  return Object.fromEntries(
    Object.entries(schemas).map(([name, { $id: _id, ...schema }]) => [name, schema]),
  );
}

function schemaJson(schema: z.ZodType, io: Io): JsonSchema {
  const name = (io === "input" ? requestComponents : responseComponents).get(schema)?.id;
  if (name) return ref(name);
  const { $schema: _s, ...json } = z.toJSONSchema(schema, {
    target: "openapi-3.0",
    io,
    unrepresentable: "any",
  }) as JsonSchema;
  return json;
}

function parameters(spec: AnyRouteSpec) {
  const of = (where: "path" | "query", shape: z.ZodRawShape | undefined) =>
    Object.entries(shape ?? {}).map(([name, field]) => {
      const schema = schemaJson(field as z.ZodType, "input");
      const { description, ...rest } = schema;
      return {
        name,
        in: where,
        required: where === "path" || !(field as z.ZodType).safeParse(undefined).success,
        schema: rest,
        ...(typeof description === "string" ? { description } : {}),
      };
    });
  return [...of("path", spec.params?.shape), ...of("query", spec.query?.shape)];
}

function operation(spec: AnyRouteSpec) {
  const params = parameters(spec);
  const responses = Object.fromEntries(
    Object.entries(spec.responses).map(([status, response]) => {
      const content = response.content
        ? { [response.content.type]: { schema: schemaJson(response.content.schema, "output") } }
        : response.schema
          ? { "application/json": { schema: schemaJson(response.schema, "output") } }
          : undefined;
      return [status, { description: response.description, ...(content ? { content } : {}) }];
    }),
  );
  if (!spec.public) {
    responses["401"] ??= {
      description: "Not logged in: no known token or session cookie",
      content: { "application/json": { schema: schemaJson(ErrorSchema, "output") } },
    };
    responses["403"] ??= {
      description: `Your role in this workspace does not allow it (needs ${accessOf(spec)})`,
      content: { "application/json": { schema: schemaJson(ErrorSchema, "output") } },
    };
    responses["429"] ??= {
      description:
        "Too many wrong tokens, cookies or login codes from this address: wait for Retry-After seconds",
      content: { "application/json": { schema: schemaJson(ErrorSchema, "output") } },
    };
  }
  return {
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [...spec.tags],
    operationId: operationId(spec),
    ...(spec.public ? { security: [] } : { "x-ragjudge-access": accessOf(spec) }),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: !spec.bodyOptional,
            content: { "application/json": { schema: schemaJson(spec.body, "input") } },
          },
        }
      : {}),
    responses,
  };
}

/** `get /api/v1/evaluations/:id/results` → `getEvaluationsIdResults`. */
function operationId(spec: AnyRouteSpec): string {
  const words = spec.path
    .replace(/^\/api\/v1\//, "")
    .split(/[/.-]/)
    .filter(Boolean)
    .map((word) => word.replace(/^:/, "by_"))
    .flatMap((word) => word.split("_"));
  return [spec.method, ...words]
    .map((word, i) => (i === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join("");
}

let cached: Record<string, unknown> | undefined;

export function buildOpenApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of API_ROUTES) {
    const path = openApiPath(spec.path);
    paths[path] ??= {};
    paths[path][spec.method] = operation(spec);
  }
  cached = {
    openapi: "3.0.3",
    info: {
      title: "ragjudge API",
      version: "1",
      description:
        "Gates RAG answers on their evidence, judges them, runs evaluations, and stores every verdict for audit. Log in with `Authorization: Bearer <token>` or the web app's session cookie.",
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        session: { type: "apiKey", in: "cookie", name: "ragjudge_session" },
      },
      schemas: {
        ...componentSchemas(requestComponents, "input"),
        ...componentSchemas(responseComponents, "output"),
      },
    },
    security: [{ bearer: [] }, { session: [] }],
    paths,
  };
  return cached;
}
