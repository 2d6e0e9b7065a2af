import { z } from "zod";
import {
  answerLoopMermaid,
  type BuiltinBot,
  CollectionConfigSchema,
  createBuiltinBot,
  LONG_LIVED_BOT_CACHE_MS,
  parseUploads,
  qualityLoopMermaid,
  RetrievalSourceSchema,
  UploadsSchema,
} from "../../rag/index.js";
import {
  CollectionNameTakenError,
  CollectionNotFoundError,
  createCollection,
  getCollection,
  listCollections,
} from "../../store/index.js";
import { type App, errorJson, limitBody, type RouteDeps, readBody } from "../http.js";

export const CreateCollectionSchema = z.object({
  name: z.string().trim().min(1).max(200),
  config: CollectionConfigSchema.optional(),
});

export const AskRequestSchema = z.object({
  collection_id: z.string().trim().min(1).max(256),
  question: z.string().trim().min(1).max(10_000),
  sources: z.array(RetrievalSourceSchema).min(1).optional(),
  conversation_id: z.string().trim().min(1).max(256).optional(),
  message_id: z.string().trim().min(1).max(256).optional(),
});

/** Uploads may be larger than other bodies: a PDF travels base64-encoded. */
const UPLOAD_BODY_FACTOR = 4;

export function ragRoutes(app: App, deps: RouteDeps) {
  const { db, config, clients, maxBodyBytes } = deps;
  const bots = new Map<string, BuiltinBot>();
  const botFor = (userId: string) => {
    let bot = bots.get(userId);
    if (!bot) {
      bot = createBuiltinBot({
        db,
        userId,
        llm: clients(userId),
        loops: config.rag.loops,
        retrieval: config.rag.retrieval,
        gate: config.gate,
        judges: config.judges,
        collectionCacheMs: LONG_LIVED_BOT_CACHE_MS,
      });
      bots.set(userId, bot);
    }
    return bot;
  };
  const notFound = (c: Parameters<typeof errorJson>[0]) =>
    errorJson(c, 404, "not_found", "No such collection.");

  app.post("/api/v1/collections", limitBody(maxBodyBytes), async (c) => {
    const body = await readBody(c, CreateCollectionSchema);
    if (!body.ok) return body.response;
    try {
      const row = await createCollection(db, c.get("user").id, body.value);
      return c.json(
        { id: row.id, name: row.name, config: row.config, created_at: row.created_at },
        201,
      );
    } catch (error) {
      if (error instanceof CollectionNameTakenError)
        return errorJson(c, 409, "name_taken", error.message);
      throw error;
    }
  });

  app.get("/api/v1/collections", async (c) => {
    const rows = await listCollections(db, c.get("user").id);
    return c.json({ items: rows.map(({ user_id: _owner, ...row }) => row) });
  });

  app.get("/api/v1/collections/:id", async (c) => {
    const row = await getCollection(db, c.get("user").id, c.req.param("id"));
    if (!row) return notFound(c);
    const { user_id: _owner, ...collection } = row;
    return c.json(collection);
  });

  app.post(
    "/api/v1/collections/:id/documents",
    limitBody(maxBodyBytes * UPLOAD_BODY_FACTOR),
    async (c) => {
      const userId = c.get("user").id;
      const collection = await getCollection(db, userId, c.req.param("id"));
      if (!collection) return notFound(c);
      const body = await readBody(c, UploadsSchema);
      if (!body.ok) return body.response;
      const { documents, problems } = await parseUploads(body.value.documents);
      if (problems.length > 0) {
        // All or nothing: one unreadable file or line rejects the request, naming each problem.
        return c.json(
          { error: "unreadable_documents", message: "Nothing was ingested.", issues: problems },
          400,
        );
      }
      const result = await botFor(userId).ingestDocuments(documents, { id: collection.id });
      return c.json(result, 201);
    },
  );

  app.post("/api/v1/ask", limitBody(maxBodyBytes), async (c) => {
    const body = await readBody(c, AskRequestSchema);
    if (!body.ok) return body.response;
    const { collection_id, ...rest } = body.value;
    try {
      const result = await botFor(c.get("user").id).ask({
        ...rest,
        collection: collection_id,
        signal: c.req.raw.signal,
      });
      return c.json({
        ...result,
        diagrams: {
          quality_loop: qualityLoopMermaid(result.trace, config.rag.loops),
          answer_loop: answerLoopMermaid(result.trace, config.rag.loops),
        },
      });
    } catch (error) {
      if (error instanceof CollectionNotFoundError) return notFound(c);
      throw error;
    }
  });
}
