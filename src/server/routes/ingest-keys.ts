import { actorOf } from "../auth.js";
import {
  createIngestKey,
  type IngestKey,
  listIngestKeys,
  revokeIngestKey,
} from "../../store/index.js";
import { type App, errorJson, type RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import {
  CreatedIngestKeySchema,
  CreateIngestKeySchema,
  ErrorSchema,
  IngestKeyListSchema,
  IngestKeySchema,
} from "../schemas/index.js";
import { IdParams } from "./params.js";
import { requestSchema } from "../components.js";

// Ingest keys (issue 24): write-only keys a production app sends its answers with. A key can
// ingest and read nothing; it is shown once, at creation, and can be revoked.

const error = (description: string) => ({ description, schema: ErrorSchema });

export const ingestKeyApi = {
  create: defineRoute({
    method: "post",
    path: "/api/v1/ingest-keys",
    tags: ["production"],
    summary: "Create a write-only ingest key (shown once)",
    body: requestSchema("CreateIngestKey", CreateIngestKeySchema),
    bodyOptional: true,
    responses: {
      201: { description: "The key, shown this once", schema: CreatedIngestKeySchema },
      400: error("A field that fails validation (named in issues[].path)"),
    },
  }),
  list: defineRoute({
    method: "get",
    path: "/api/v1/ingest-keys",
    tags: ["production"],
    summary: "Your ingest keys (never the keys themselves)",
    responses: { 200: { description: "The keys", schema: IngestKeyListSchema } },
  }),
  revoke: defineRoute({
    method: "delete",
    path: "/api/v1/ingest-keys/:id",
    tags: ["production"],
    summary: "Revoke an ingest key: it stops working at once",
    params: IdParams,
    resource: "ingest key",
    responses: {
      200: { description: "The revoked key", schema: IngestKeySchema },
      404: error("No such ingest key for this user"),
    },
  }),
};

function keyJson(key: IngestKey) {
  return {
    id: key.id,
    label: key.label,
    created_at: new Date(key.created_at).toISOString(),
    revoked_at: key.revoked_at ? new Date(key.revoked_at).toISOString() : null,
  };
}

export function ingestKeyRoutes(app: App, deps: RouteDeps) {
  const { db } = deps;
  mountRoute(app, deps, ingestKeyApi.create, async (c, { body }) => {
    const created = await createIngestKey(db, actorOf(c), body.label);
    return c.json({ ...keyJson(created), key: created.key }, 201);
  });
  mountRoute(app, deps, ingestKeyApi.list, async (c) => {
    const keys = await listIngestKeys(db, c.get("workspace").id);
    return c.json({ items: keys.map(keyJson) }, 200);
  });
  mountRoute(app, deps, ingestKeyApi.revoke, async (c, { params }) => {
    const revoked = await revokeIngestKey(db, c.get("workspace").id, params.id);
    if (!revoked) return errorJson(c, 404, "not_found", "No such ingest key.");
    return c.json(keyJson(revoked), 200);
  });
}
