import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";
import { columnNames, type RecordColumns, recordFields, recordset } from "./recordset.js";
import { chunks, collections, documents } from "./schema.js";

export type CollectionRow = typeof collections.$inferSelect;
export type DocumentRow = typeof documents.$inferSelect;
export type ChunkRow = typeof chunks.$inferSelect;
export type DocumentKind = DocumentRow["kind"];

/** A collection id that is unknown, deleted, or another user's: the three look the same. */
export class CollectionNotFoundError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "not_found";
  override readonly name = "CollectionNotFoundError";
  constructor(readonly collection: string) {
    super(`collection ${collection} not found`);
  }
}

export class CollectionNameTakenError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "name_taken";
  override readonly name = "CollectionNameTakenError";
  constructor(readonly collectionName: string) {
    super(`a collection named "${collectionName}" already exists`);
  }
}

// Lists of ids travel as one jsonb parameter and are compared with `= any(array(select
// jsonb_array_elements_text(...)))`: the array is computed once and the index is used, where
// `in (select jsonb_array_elements_text(...))` planned a semi-join over the whole collection.

function live(workspaceId: string) {
  return and(eq(collections.workspace_id, workspaceId), isNull(collections.deleted_at));
}

export async function createCollection(
  db: Db,
  workspaceId: string,
  input: { name: string; config?: Record<string, unknown> },
): Promise<CollectionRow> {
  const [row] = await db
    .insert(collections)
    .values({ workspace_id: workspaceId, name: input.name, config: input.config ?? {} })
    .onConflictDoNothing({
      target: [collections.workspace_id, collections.name],
      where: sql`${collections.deleted_at} is null`,
    })
    .returning();
  if (!row) throw new CollectionNameTakenError(input.name);
  return row;
}

/** The user's live collection of that name, created (with `config`) when there is none. */
export async function ensureCollection(
  db: Db,
  workspaceId: string,
  input: { name: string; config?: Record<string, unknown> },
): Promise<{ collection: CollectionRow; created: boolean }> {
  const existing = await findCollectionByName(db, workspaceId, input.name);
  if (existing) return { collection: existing, created: false };
  try {
    return { collection: await createCollection(db, workspaceId, input), created: true };
  } catch (error) {
    // Someone else created it in between.
    if (!(error instanceof CollectionNameTakenError)) throw error;
    const raced = await findCollectionByName(db, workspaceId, input.name);
    if (!raced) throw error;
    return { collection: raced, created: false };
  }
}

export async function getCollection(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<CollectionRow | undefined> {
  const [row] = await db
    .select()
    .from(collections)
    .where(and(eq(collections.id, idParam(id)), live(workspaceId)));
  return row;
}

export async function findCollectionByName(
  db: Db,
  workspaceId: string,
  name: string,
): Promise<CollectionRow | undefined> {
  const [row] = await db
    .select()
    .from(collections)
    .where(and(eq(collections.name, name), live(workspaceId)));
  return row;
}

export interface CollectionSummary extends CollectionRow {
  document_count: number;
  chunk_count: number;
}

export async function listCollections(db: Db, workspaceId: string): Promise<CollectionSummary[]> {
  const rows = await db
    .select({
      collection: collections,
      document_count: sql<number>`count(${documents.id})::int`,
      chunk_count: sql<number>`coalesce(sum(${documents.chunk_count}), 0)::int`,
    })
    .from(collections)
    .leftJoin(documents, eq(documents.collection_id, collections.id))
    .where(live(workspaceId))
    .groupBy(collections.id)
    .orderBy(asc(collections.name));
  return rows.map((row) => ({
    ...row.collection,
    document_count: Number(row.document_count),
    chunk_count: Number(row.chunk_count),
  }));
}

/**
 * Marks the collection deleted (its name becomes free) and removes its documents, chunks and
 * observations in the same transaction. False when there was no such live collection.
 */
export async function deleteCollection(db: Db, workspaceId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(collections)
      .set({ deleted_at: new Date(), version: sql`${collections.version} + 1` })
      .where(and(eq(collections.id, idParam(id)), live(workspaceId)))
      .returning({ id: collections.id });
    if (!row) return false;
    await tx.execute(sql`delete from documents where collection_id = ${id}`);
    await tx.execute(sql`delete from observational_data where collection_id = ${id}`);
    return true;
  });
}

/** What the retrieval indexes compare per query; undefined when the collection is not the user's. */
export async function getCollectionVersion(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<{ version: number; observation_count: number } | undefined> {
  const [row] = await db
    .select({ version: collections.version, observation_count: collections.observation_count })
    .from(collections)
    .where(and(eq(collections.id, idParam(id)), live(workspaceId)));
  return row;
}

// Documents ---------------------------------------------------------------------------------------

/** The collection's documents whose content hash or source is among the given ones. */
export async function findDocumentsByHashOrSource(
  db: Db,
  workspaceId: string,
  collectionId: string,
  keys: { hashes: readonly string[]; sources: readonly string[] },
): Promise<Array<Pick<DocumentRow, "id" | "source" | "content_hash" | "chunk_count">>> {
  if (keys.hashes.length === 0 && keys.sources.length === 0) return [];
  return queryRows(
    db,
    sql`select id, source, content_hash, chunk_count from documents
        where collection_id = ${idParam(collectionId)} and workspace_id = ${workspaceId}
          and (content_hash = any(array(select jsonb_array_elements_text(${JSON.stringify(keys.hashes)}::jsonb)))
               or source = any(array(select jsonb_array_elements_text(${JSON.stringify(keys.sources)}::jsonb))))`,
  );
}

export async function listDocuments(
  db: Db,
  workspaceId: string,
  collectionId: string,
): Promise<DocumentRow[]> {
  return db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.collection_id, idParam(collectionId)),
        eq(documents.workspace_id, workspaceId),
      ),
    )
    .orderBy(asc(documents.source), asc(documents.id));
}

export async function getDocument(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, id), eq(documents.workspace_id, workspaceId)));
  return row;
}

/** Removes a document and its chunks; bumps the collection's version. False when not found. */
export async function deleteDocument(db: Db, workspaceId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(documents)
      .where(and(eq(documents.id, id), eq(documents.workspace_id, workspaceId)))
      .returning({ collection_id: documents.collection_id });
    if (!row) return false;
    await tx
      .update(collections)
      .set({ version: sql`${collections.version} + 1` })
      .where(eq(collections.id, row.collection_id));
    return true;
  });
}

/** A chunk to write (`tokens`: its space-joined retrieval tokens). */
export type NewChunk = Pick<ChunkRow, "id" | "position" | "content" | "tokens" | "metadata"> &
  Partial<Pick<ChunkRow, "embedding" | "embedding_model">>;

export type NewDocument = Pick<
  DocumentRow,
  "id" | "source" | "title" | "kind" | "content_hash" | "metadata" | "char_count"
> & { external_id?: string | null; chunks: NewChunk[] };

export interface WriteDocumentsResult {
  documents_added: number;
  documents_removed: number;
  chunks_added: number;
  chunks_removed: number;
}

/** Rows per INSERT: bounded so one jsonb parameter stays a few megabytes. */
const CHUNK_INSERT_ROWS = 1_000;

/**
 * Writes a batch in one transaction: removes the documents `removeIds` (replaced content), inserts
 * the new documents and their chunks (a document whose content hash is already there is skipped
 * with its chunks) and bumps the collection's version once. Rows travel as jsonb parameters
 * expanded by jsonb_to_recordset, as in evaluation-records.ts.
 */
export async function writeDocuments(
  db: Db,
  input: {
    workspaceId: string;
    collectionId: string;
    documents: readonly NewDocument[];
    removeIds?: readonly string[];
  },
): Promise<WriteDocumentsResult> {
  const { workspaceId, collectionId } = input;
  const removeIds = [...(input.removeIds ?? [])];
  if (input.documents.length === 0 && removeIds.length === 0) {
    return { documents_added: 0, documents_removed: 0, chunks_added: 0, chunks_removed: 0 };
  }
  return db.transaction(async (tx) => {
    const [owned] = await tx
      .update(collections)
      .set({ version: sql`${collections.version} + 1` })
      .where(and(eq(collections.id, idParam(collectionId)), live(workspaceId)))
      .returning({ id: collections.id });
    if (!owned) throw new CollectionNotFoundError(collectionId);

    let documentsRemoved = 0;
    let chunksRemoved = 0;
    if (removeIds.length > 0) {
      const removed = await tx
        .delete(documents)
        .where(
          and(
            eq(documents.collection_id, idParam(collectionId)),
            eq(documents.workspace_id, workspaceId),
            inArray(documents.id, removeIds),
          ),
        )
        .returning({ chunk_count: documents.chunk_count });
      documentsRemoved = removed.length;
      chunksRemoved = removed.reduce((sum, row) => sum + row.chunk_count, 0);
    }

    const documentRows = input.documents.map((doc) => ({
      id: doc.id,
      workspace_id: workspaceId,
      collection_id: collectionId,
      source: doc.source,
      external_id: doc.external_id ?? doc.source,
      title: doc.title,
      kind: doc.kind,
      content_hash: doc.content_hash,
      metadata: doc.metadata,
      char_count: doc.char_count,
      chunk_count: doc.chunks.length,
    }));
    const inserted = new Set<string>();
    if (documentRows.length > 0) {
      const rows = await queryRows<{ id: string }>(
        tx,
        sql`insert into ${documents} (${columnNames(DOCUMENT_COLUMNS)})
            select ${recordFields("r", DOCUMENT_COLUMNS)}
            from ${recordset("r", DOCUMENT_COLUMNS, documentRows)}
            on conflict do nothing
            returning id`,
      );
      for (const row of rows) inserted.add(row.id);
    }

    let chunksAdded = 0;
    let pending: object[] = [];
    const flush = async () => {
      if (pending.length === 0) return;
      const rows = await queryRows<{ n: number }>(
        tx,
        sql`with ins as (
              insert into ${chunks} (${columnNames(CHUNK_COLUMNS)})
              select ${recordFields("r", CHUNK_COLUMNS)}
              from ${recordset("r", CHUNK_COLUMNS, pending)}
              on conflict do nothing
              returning 1)
            select count(*)::int as n from ins`,
      );
      chunksAdded += Number(rows[0]?.n ?? 0);
      pending = [];
    };
    for (const doc of input.documents) {
      if (!inserted.has(doc.id)) continue;
      for (const chunk of doc.chunks) {
        pending.push({
          id: chunk.id,
          workspace_id: workspaceId,
          collection_id: collectionId,
          document_id: doc.id,
          position: chunk.position,
          content: chunk.content,
          tokens: chunk.tokens,
          embedding: chunk.embedding ?? null,
          embedding_model: chunk.embedding ? (chunk.embedding_model ?? null) : null,
          metadata: chunk.metadata,
        });
        if (pending.length >= CHUNK_INSERT_ROWS) await flush();
      }
    }
    await flush();
    return {
      documents_added: inserted.size,
      documents_removed: documentsRemoved,
      chunks_added: chunksAdded,
      chunks_removed: chunksRemoved,
    };
  });
}

const DOCUMENT_COLUMNS = {
  id: documents.id,
  workspace_id: documents.workspace_id,
  collection_id: documents.collection_id,
  source: documents.source,
  external_id: documents.external_id,
  title: documents.title,
  kind: documents.kind,
  content_hash: documents.content_hash,
  metadata: documents.metadata,
  char_count: documents.char_count,
  chunk_count: documents.chunk_count,
} satisfies RecordColumns;

const CHUNK_COLUMNS = {
  id: chunks.id,
  workspace_id: chunks.workspace_id,
  collection_id: chunks.collection_id,
  document_id: chunks.document_id,
  position: chunks.position,
  content: chunks.content,
  tokens: chunks.tokens,
  embedding: chunks.embedding,
  embedding_model: chunks.embedding_model,
  metadata: chunks.metadata,
} satisfies RecordColumns;

// Chunks ------------------------------------------------------------------------------------------

export async function listChunks(
  db: Db,
  workspaceId: string,
  documentId: string,
): Promise<ChunkRow[]> {
  return db
    .select()
    .from(chunks)
    .where(and(eq(chunks.document_id, documentId), eq(chunks.workspace_id, workspaceId)))
    .orderBy(asc(chunks.position));
}

/** A chunk as retrieval returns it: with its document's title, source and metadata. */
export interface ChunkWithDocument {
  id: string;
  document_id: string;
  position: number;
  content: string;
  metadata: Record<string, unknown>;
  title: string;
  source: string;
  /** The user's id of the document (see documents.external_id). */
  external_id: string;
  document_metadata: Record<string, unknown>;
}

/** The chunks of a collection among `ids` (missing or foreign ones are left out), in no order. */
export async function getChunksWithDocuments(
  db: Db,
  workspaceId: string,
  collectionId: string,
  ids: readonly string[],
): Promise<ChunkWithDocument[]> {
  if (ids.length === 0) return [];
  // Raw SQL with the ids as one jsonb parameter: this runs on every retrieval.
  const rows = await queryRows<ChunkWithDocument>(
    db,
    sql`select c.id, c.document_id, c.position, c.content, c.metadata,
               d.title, d.source, coalesce(d.external_id, d.source) as external_id,
               d.metadata as document_metadata
        from chunks c join documents d on d.id = c.document_id
        where c.collection_id = ${idParam(collectionId)} and c.workspace_id = ${workspaceId}
          and c.id = any(array(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)))`,
  );
  return rows.map((row) => ({
    ...row,
    position: Number(row.position),
    metadata: asRecord(row.metadata),
    document_metadata: asRecord(row.document_metadata),
  }));
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * Pages through a collection's chunk tokens in id order (keyset paging), so building an index
 * never holds one huge result set in the database client. Raw SQL: drizzle's row mapping made
 * this read about twice as slow on PGlite, and it is most of an index build.
 */
export async function* chunkTokenPages(
  db: Db,
  workspaceId: string,
  collectionId: string,
  pageSize = 20_000,
): AsyncGenerator<Array<{ id: string; document_id: string; tokens: string }>> {
  let after = "";
  for (;;) {
    const page = await queryRows<{ id: string; document_id: string; tokens: string }>(
      db,
      sql`select id, document_id, tokens from chunks
          where collection_id = ${idParam(collectionId)} and workspace_id = ${workspaceId} and id > ${after}
          order by id limit ${pageSize}`,
    );
    if (page.length === 0) return;
    yield page;
    const last = page[page.length - 1];
    if (!last || page.length < pageSize) return;
    after = last.id;
  }
}

/**
 * Every document id of a collection: what an index compares to see what changed. Chunks change
 * only with their document, and the documents table is a tenth of the chunks' size.
 */
export async function documentIds(
  db: Db,
  workspaceId: string,
  collectionId: string,
): Promise<string[]> {
  const rows = await queryRows<{ ids: string | null }>(
    db,
    // One string rather than one row per document: ids never contain a newline.
    sql`select string_agg(id, E'\n' order by id) as ids from documents
        where collection_id = ${idParam(collectionId)} and workspace_id = ${workspaceId}`,
  );
  const joined = rows[0]?.ids;
  return joined ? joined.split("\n") : [];
}

/** The tokens of the chunks of the given documents of a collection, in chunk id order. */
export async function chunkTokensOfDocuments(
  db: Db,
  workspaceId: string,
  collectionId: string,
  documentIdList: readonly string[],
): Promise<Array<{ id: string; document_id: string; tokens: string }>> {
  if (documentIdList.length === 0) return [];
  return queryRows(
    db,
    sql`select id, document_id, tokens from chunks
        where collection_id = ${idParam(collectionId)} and workspace_id = ${workspaceId}
          and document_id = any(array(select jsonb_array_elements_text(${JSON.stringify(documentIdList)}::jsonb)))
        order by id`,
  );
}

/** Pages through the chunks embedded by `model`, in id order. */
export async function* chunkEmbeddingPages(
  db: Db,
  workspaceId: string,
  collectionId: string,
  model: string,
  pageSize = 2_000,
): AsyncGenerator<Array<{ id: string; embedding: number[] }>> {
  let after = "";
  for (;;) {
    const page = await db
      .select({ id: chunks.id, embedding: chunks.embedding })
      .from(chunks)
      .where(
        and(
          eq(chunks.collection_id, idParam(collectionId)),
          eq(chunks.workspace_id, workspaceId),
          eq(chunks.embedding_model, model),
          gt(chunks.id, after),
        ),
      )
      .orderBy(asc(chunks.id))
      .limit(pageSize);
    if (page.length === 0) return;
    yield page.flatMap((row) => (row.embedding ? [{ id: row.id, embedding: row.embedding }] : []));
    const last = page[page.length - 1];
    if (!last || page.length < pageSize) return;
    after = last.id;
  }
}

/** Chunks with no embedding from `model` (none, or another model's), at most `limit`. */
export async function chunksMissingEmbedding(
  db: Db,
  workspaceId: string,
  collectionId: string,
  model: string,
  limit: number,
): Promise<Array<{ id: string; content: string }>> {
  return queryRows(
    db,
    sql`select id, content from chunks
        where collection_id = ${idParam(collectionId)} and workspace_id = ${workspaceId}
          and embedding_model is distinct from ${model}
        order by id limit ${limit}`,
  );
}

/** Stores embeddings from `model` and bumps the collection's version; returns rows updated. */
export async function setChunkEmbeddings(
  db: Db,
  input: {
    workspaceId: string;
    collectionId: string;
    model: string;
    rows: ReadonlyArray<{ id: string; embedding: readonly number[] }>;
  },
): Promise<number> {
  if (input.rows.length === 0) return 0;
  return db.transaction(async (tx) => {
    const updated = await queryRows<{ n: number }>(
      tx,
      sql`with upd as (
            update chunks c set embedding = r.embedding, embedding_model = ${input.model}
            from ${recordset("r", { id: chunks.id, embedding: chunks.embedding }, input.rows)}
            where c.id = r.id and c.collection_id = ${input.collectionId} and c.workspace_id = ${input.workspaceId}
            returning 1)
          select count(*)::int as n from upd`,
    );
    await tx
      .update(collections)
      .set({ version: sql`${collections.version} + 1` })
      .where(
        and(
          eq(collections.id, input.collectionId),
          eq(collections.workspace_id, input.workspaceId),
        ),
      );
    return Number(updated[0]?.n ?? 0);
  });
}
