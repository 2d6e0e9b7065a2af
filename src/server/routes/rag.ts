import { LRUCache } from "lru-cache";
import {
  answerLoopMermaid,
  CollectionConfigSchema,
  createBuiltinBot,
  LONG_LIVED_BOT_CACHE_MS,
  parseUploads,
  qualityLoopMermaid,
  UploadsSchema,
} from "../../rag/index.js";
import {
  CollectionNotFoundError,
  createCollection,
  getCollection,
  listCollections,
} from "../../store/index.js";
import type { App, RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import {
  AskRequestSchema,
  AskResponseSchema,
  CollectionListSchema,
  CollectionSchema,
  CreateCollectionSchema,
  ErrorSchema,
  IngestResultSchema,
} from "../schemas/index.js";
import { IdParams } from "./params.js";
import { requestSchema } from "../components.js";

/** Uploads may be larger than other bodies: a PDF travels base64-encoded. */
const UPLOAD_BODY_FACTOR = 4;

/**
 * Bots kept for the workspaces active lately (a bot's collection cache is worth keeping while its
 * users ask), not one for every workspace ever seen: one idle this long is dropped, and rebuilt on
 * its next ask.
 */
export const BOT_CACHE = { max: 64, ttl: 10 * 60_000, updateAgeOnGet: true, ttlAutopurge: true };

const error = (description: string) => ({ description, schema: ErrorSchema });
const noCollection = error("No such collection for this user (another user's id too)");

export const ragApi = {
  createCollection: defineRoute({
    method: "post",
    path: "/api/v1/collections",
    tags: ["collections"],
    summary: "Create a collection (its name is unique per user)",
    body: requestSchema("CreateCollection", CreateCollectionSchema),
    responses: {
      201: { description: "The collection", schema: CollectionSchema },
      400: error("Invalid body"),
      409: error("Name taken"),
    },
  }),
  listCollections: defineRoute({
    method: "get",
    path: "/api/v1/collections",
    tags: ["collections"],
    summary: "List your collections with their document and chunk counts",
    responses: { 200: { description: "Your collections", schema: CollectionListSchema } },
  }),
  getCollection: defineRoute({
    method: "get",
    path: "/api/v1/collections/:id",
    tags: ["collections"],
    summary: "Read one collection",
    params: IdParams,
    resource: "collection",
    responses: {
      200: { description: "The collection", schema: CollectionSchema },
      404: noCollection,
    },
  }),
  uploadDocuments: defineRoute({
    method: "post",
    path: "/api/v1/collections/:id/documents",
    tags: ["collections"],
    summary: "Ingest documents (Markdown, text, HTML, PDF as base64, JSONL); all or nothing",
    params: IdParams,
    resource: "collection",
    body: requestSchema("Uploads", UploadsSchema),
    bodyBytes: (max) => max * UPLOAD_BODY_FACTOR,
    responses: {
      201: {
        description:
          "Counts: documents added, unchanged, replaced; chunks added, removed, embedded",
        schema: IngestResultSchema,
      },
      400: error("An unreadable file or line, named in issues[].path; nothing was ingested"),
      404: noCollection,
      413: error("Body too large"),
    },
  }),
  ask: defineRoute({
    method: "post",
    path: "/api/v1/ask",
    tags: ["collections"],
    summary: "Answer with the built-in agentic RAG bot, gated on its evidence",
    body: requestSchema("AskRequest", AskRequestSchema),
    responses: {
      200: {
        description:
          "The full state: hits with sources and scores, grades, rewrites, epochs, evaluations, the answer with citations, the gate verdict and action, the step trace and Mermaid diagrams of both loops",
        schema: AskResponseSchema,
      },
      400: error("Invalid body"),
      404: noCollection,
    },
  }),
};

function publicCollection<R extends { workspace_id: string }>({ workspace_id: _owner, ...row }: R) {
  return row;
}

export function ragRoutes(app: App, deps: RouteDeps) {
  const { db, config, clients } = deps;
  const bots = new LRUCache<string, ReturnType<typeof createBuiltinBot>>({
    ...BOT_CACHE,
    memoMethod: (workspaceId) =>
      createBuiltinBot({
        db,
        workspaceId,
        llm: clients(workspaceId),
        loops: config.rag.loops,
        retrieval: config.rag.retrieval,
        gate: config.gate,
        judges: config.judges,
        collectionCacheMs: LONG_LIVED_BOT_CACHE_MS,
      }),
  });
  const botFor = (workspaceId: string) => bots.memo(workspaceId);

  mountRoute(app, deps, ragApi.createCollection, async (c, { body }) => {
    const row = await createCollection(db, c.get("workspace").id, body);
    return c.json(publicCollection(row), 201);
  });

  mountRoute(app, deps, ragApi.listCollections, async (c) => {
    const rows = await listCollections(db, c.get("workspace").id);
    return c.json({ items: rows.map(publicCollection) }, 200);
  });

  mountRoute(app, deps, ragApi.getCollection, async (c, { params }) => {
    const row = await getCollection(db, c.get("workspace").id, params.id);
    if (!row) throw new CollectionNotFoundError(params.id);
    return c.json(publicCollection(row), 200);
  });

  mountRoute(app, deps, ragApi.uploadDocuments, async (c, { params, body }) => {
    const workspaceId = c.get("workspace").id;
    const collection = await getCollection(db, workspaceId, params.id);
    if (!collection) throw new CollectionNotFoundError(params.id);
    // Read, chunked and tokenized on the parse thread (rag/ingest/parse-thread.ts).
    const { documents, problems } = await parseUploads(body.documents, {
      chunking: CollectionConfigSchema.parse(collection.config),
    });
    if (problems.length > 0) {
      // All or nothing: one unreadable file or line rejects the request, naming each problem.
      return c.json(
        { error: "unreadable_documents", message: "Nothing was ingested.", issues: problems },
        400,
      );
    }
    const result = await botFor(workspaceId).ingestDocuments(documents, { id: collection.id });
    return c.json(result, 201);
  });

  mountRoute(app, deps, ragApi.ask, async (c, { body }) => {
    const { collection_id, ...rest } = body;
    const result = await botFor(c.get("workspace").id).ask({
      ...rest,
      collection: collection_id,
      signal: c.req.raw.signal,
    });
    return c.json(
      {
        ...result,
        diagrams: {
          quality_loop: qualityLoopMermaid(result.trace, config.rag.loops),
          answer_loop: answerLoopMermaid(result.trace, config.rag.loops),
        },
      },
      200,
    );
  });
}
