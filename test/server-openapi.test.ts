import { afterAll, beforeAll, expect, it } from "vitest";
import { buildOpenApiDocument, createApp } from "../src/server/index.js";
import type { Store } from "../src/store/index.js";
import { openTestStore } from "./support/stores.js";

// The document is generated from the route table; these checks keep the table whole.

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
  security?: unknown[];
}
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

let store: Store | undefined;
beforeAll(async () => {
  store = await openTestStore("pglite");
});
afterAll(() => store?.close());

it("documents every API route the server mounts, and only those", () => {
  if (!store) throw new Error("store not open");
  const app = createApp({ db: store.db, webDir: false });
  const mounted = new Set(
    app.routes
      // app.use middleware is registered as ALL; the API's own routes name their method.
      .filter((r) => r.method !== "ALL" && r.path.startsWith("/api/"))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`),
  );
  const doc = buildOpenApiDocument() as unknown as Doc;
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    ),
  );
  expect([...mounted].sort()).toEqual([...documented].sort());
});

it("gives every answer with a body a real schema, never a bare object", () => {
  const doc = buildOpenApiDocument() as unknown as Doc;
  const bare: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === "204") continue;
        const schemas = Object.values(response.content ?? {}).map((media) => media.schema);
        const real = schemas.some(
          (schema) =>
            schema !== undefined &&
            ("$ref" in schema || "properties" in schema || schema.type === "string"),
        );
        // The document itself is the one free-form object.
        if (!real && path !== "/api/v1/openapi.json") bare.push(`${method} ${path} ${status}`);
      }
    }
  }
  expect(bare).toEqual([]);
  const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)].map(
    (m) => m[1] as string,
  );
  for (const ref of new Set(refs)) expect(doc.components.schemas, ref).toHaveProperty(ref);
});

it("marks only the login, health and the document as reachable without a login", () => {
  const doc = buildOpenApiDocument() as unknown as Doc;
  const open = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => Array.isArray(operation.security))
      .map(([method]) => `${method} ${path}`),
  );
  expect(open.sort()).toEqual([
    "get /api/v1/health",
    "get /api/v1/openapi.json",
    "post /api/v1/session",
  ]);
});
