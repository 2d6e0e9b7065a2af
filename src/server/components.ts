import { z } from "zod";

// The OpenAPI document's named schemas (its components). A schema is named once, where it is
// defined (a response) or where a route takes it as its body (a request); openapi.ts writes every
// named schema as a component, and any schema that contains one refers to it by name.

/** Request bodies, shown as the server accepts them (defaults optional). */
export const requestComponents = z.registry<{ id: string }>();
/** Response bodies, shown as the server sends them. */
export const responseComponents = z.registry<{ id: string }>();

/** Names a request body in the document; returns the schema itself. */
export function requestSchema<S extends z.ZodType>(id: string, schema: S): S {
  requestComponents.add(schema, { id });
  return schema;
}

/** Names a response body in the document; returns the schema itself. */
export function responseSchema<S extends z.ZodType>(id: string, schema: S): S {
  responseComponents.add(schema, { id });
  return schema;
}
