import { createHash } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { LlmClient } from "../../llm/index.js";
import {
  CollectionNotFoundError,
  type CollectionRow,
  chunksMissingEmbedding,
  type Db,
  ensureCollection,
  findDocumentsByHashOrSource,
  getCollection,
  type NewDocument,
  setChunkEmbeddings,
  writeDocuments,
} from "../../store/index.js";
import {
  type CollectionConfig,
  type CollectionConfigInput,
  CollectionConfigSchema,
} from "./config.js";
import type { ParsedDocument } from "./document.js";
import { type IngestProblem, kindOfPath, parseFile } from "./parse.js";
import { hasText, isPrepared, type PreparedDocument, prepareDocument } from "./prepare.js";

/** A collection by name (created when missing, with `config`) or by id (must exist). */
export type CollectionRef =
  string | { name: string; config?: CollectionConfigInput } | { id: string };

export interface IngestOptions {
  db: Db;
  workspaceId: string;
  collection: CollectionRef;
  /** When set, chunks are embedded (new ones, and older ones this model has not embedded yet). */
  embedder?: LlmClient;
  signal?: AbortSignal;
  /** Called after each written batch. */
  onProgress?: (progress: IngestProgress) => void;
}

export interface IngestProgress {
  documents_seen: number;
  documents_added: number;
  chunks_added: number;
  chunks_embedded: number;
}

export interface IngestResult {
  collection_id: string;
  collection_created: boolean;
  documents: {
    added: number;
    /** Content already in the collection (same content hash): nothing written. */
    unchanged: number;
    /** Older content of an ingested source, removed with its chunks. */
    replaced: number;
  };
  chunks: { added: number; removed: number; embedded: number };
  /** Files and lines that could not be read; the rest was ingested. */
  problems: IngestProblem[];
}

/** A write batch closes at whichever comes first. */
const BATCH_DOCUMENTS = 500;
const BATCH_CHUNKS = 2_000;
/** Inputs per embeddings request. */
export const EMBED_BATCH = 64;

/** Derived from the collection and the content, so the same content keeps the same id. */
export function documentId(collectionId: string, hash: string): string {
  return `doc_${createHash("sha256").update(`${collectionId}\n${hash}`).digest("hex").slice(0, 16)}`;
}

export function chunkId(docId: string, position: number): string {
  return `${docId}#${position}`;
}

async function resolveCollection(
  db: Db,
  workspaceId: string,
  ref: CollectionRef,
): Promise<{ collection: CollectionRow; created: boolean; config: CollectionConfig }> {
  if (typeof ref === "object" && "id" in ref) {
    const collection = await getCollection(db, workspaceId, ref.id);
    if (!collection) throw new CollectionNotFoundError(ref.id);
    return { collection, created: false, config: CollectionConfigSchema.parse(collection.config) };
  }
  const name = typeof ref === "string" ? ref : ref.name;
  const requested = CollectionConfigSchema.parse(typeof ref === "string" ? {} : (ref.config ?? {}));
  const { collection, created } = await ensureCollection(db, workspaceId, {
    name,
    config: requested,
  });
  return { collection, created, config: CollectionConfigSchema.parse(collection.config) };
}

/**
 * Ingests parsed documents into a collection: content already there is a no-op, a source whose
 * content changed has its older document replaced, and the collection's version is bumped per
 * written batch. Embedding happens after the writes, outside any transaction.
 */
export async function ingestDocuments(
  options: IngestOptions & {
    /** Parsed, or already prepared for this collection's chunking (as uploads are). */
    documents:
      | Iterable<ParsedDocument | PreparedDocument>
      | AsyncIterable<ParsedDocument | PreparedDocument>;
  },
): Promise<IngestResult> {
  const session = await IngestSession.open(options);
  for await (const doc of options.documents) await session.add(doc);
  return session.finish();
}

/**
 * Ingests files and directories (walked recursively, in name order, skipping dot-files and files
 * of unknown formats). Formats by extension: .md/.markdown, .txt/.text, .html/.htm, .pdf,
 * .jsonl/.ndjson. Unreadable files and invalid JSONL lines are reported in `problems`.
 */
export async function ingestPaths(
  options: IngestOptions & { paths: readonly string[]; cwd?: string },
): Promise<IngestResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const session = await IngestSession.open(options);
  for (const given of options.paths) {
    const files = await expandPath(resolve(cwd, given), given);
    for (const file of files) {
      options.signal?.throwIfAborted();
      if ("problem" in file) {
        session.problem({ source: given, message: file.problem });
        continue;
      }
      const source = sourceName(file.path, cwd);
      const kind = kindOfPath(file.path);
      if (kind === undefined) {
        session.problem({
          source,
          message:
            "unsupported format (expected .md, .markdown, .txt, .text, .html, .htm, .pdf, .jsonl or .ndjson)",
        });
        continue;
      }
      for await (const item of parseFile(file.path, source, kind, session.chunking)) {
        if (item.ok) await session.add(item.document);
        else session.problem({ source: item.source, line: item.line, message: item.message });
      }
    }
  }
  return session.finish();
}

/** Relative to the working directory when under it, with forward slashes; else absolute. */
function sourceName(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  if (rel.length > 0 && !rel.startsWith("..") && !isAbsolute(rel)) return rel.split(sep).join("/");
  return path;
}

async function expandPath(
  path: string,
  given: string,
): Promise<Array<{ path: string } | { problem: string }>> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    return [{ problem: `no such file or directory: ${given}` }];
  }
  if (info.isFile()) return [{ path }];
  if (!info.isDirectory()) return [{ problem: `not a file or directory: ${given}` }];
  const found: Array<{ path: string }> = [];
  const walk = async (dir: string) => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && kindOfPath(full) !== undefined) found.push({ path: full });
    }
  };
  await walk(path);
  return found;
}

/** Batches documents into writes; one per ingest call. */
class IngestSession {
  private pending: PreparedDocument[] = [];
  private pendingChunkEstimate = 0;
  /** Hashes handled in this session, so a repeat within one run is "unchanged" too. */
  private readonly seenHashes = new Set<string>();
  private readonly result: IngestResult;
  private documentsSeen = 0;

  private constructor(
    private readonly options: IngestOptions,
    private readonly collection: CollectionRow,
    private readonly config: CollectionConfig,
    created: boolean,
  ) {
    this.result = {
      collection_id: collection.id,
      collection_created: created,
      documents: { added: 0, unchanged: 0, replaced: 0 },
      chunks: { added: 0, removed: 0, embedded: 0 },
      problems: [],
    };
  }

  static async open(options: IngestOptions): Promise<IngestSession> {
    const { collection, created, config } = await resolveCollection(
      options.db,
      options.workspaceId,
      options.collection,
    );
    return new IngestSession(options, collection, config, created);
  }

  /** The collection's chunking, which documents are prepared with. */
  get chunking(): CollectionConfig {
    return this.config;
  }

  problem(problem: IngestProblem): void {
    this.result.problems.push(problem);
  }

  async add(doc: ParsedDocument | PreparedDocument): Promise<void> {
    this.documentsSeen++;
    let prepared: PreparedDocument;
    if (isPrepared(doc)) {
      const { chunk_size, chunk_overlap } = this.config;
      if (doc.chunking.chunk_size !== chunk_size || doc.chunking.chunk_overlap !== chunk_overlap) {
        throw new Error(`${doc.source}: prepared with another collection's chunking`);
      }
      if (doc.chunks.length === 0) {
        this.problem({ source: doc.source, message: "no text found" });
        return;
      }
      prepared = doc;
    } else {
      if (!hasText(doc)) {
        this.problem({ source: doc.source, message: "no text found" });
        return;
      }
      prepared = prepareDocument(doc, this.config);
    }
    this.pending.push(prepared);
    this.pendingChunkEstimate += prepared.chunks.length;
    if (this.pending.length >= BATCH_DOCUMENTS || this.pendingChunkEstimate >= BATCH_CHUNKS) {
      await this.flush();
    }
  }

  async finish(): Promise<IngestResult> {
    await this.flush();
    if (this.options.embedder) await this.embedMissing(this.options.embedder);
    return this.result;
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.pendingChunkEstimate = 0;
    if (batch.length === 0) return;
    this.options.signal?.throwIfAborted();
    const { db, workspaceId } = this.options;
    const collectionId = this.collection.id;

    const existing = await findDocumentsByHashOrSource(db, workspaceId, collectionId, {
      hashes: batch.map((item) => item.hash),
      sources: batch.map((item) => item.source),
    });
    const storedHashes = new Set(existing.map((row) => row.content_hash));
    const wantedHashes = new Set(batch.map((item) => item.hash));
    const currentHashBySource = new Map(batch.map((item) => [item.source, item.hash]));
    // A source's older content goes, unless the same content is still wanted under another name.
    const removeIds = existing
      .filter((row) => {
        const current = currentHashBySource.get(row.source);
        return (
          current !== undefined &&
          current !== row.content_hash &&
          !wantedHashes.has(row.content_hash)
        );
      })
      .map((row) => row.id);

    const documents: NewDocument[] = [];
    for (const doc of batch) {
      if (storedHashes.has(doc.hash) || this.seenHashes.has(doc.hash)) {
        this.result.documents.unchanged++;
        continue;
      }
      this.seenHashes.add(doc.hash);
      documents.push(this.toNewDocument(doc));
    }

    const written = await writeDocuments(db, { workspaceId, collectionId, documents, removeIds });
    this.result.documents.added += written.documents_added;
    // Lost a race with a concurrent ingest of the same content: still unchanged, not added.
    this.result.documents.unchanged += documents.length - written.documents_added;
    this.result.documents.replaced += written.documents_removed;
    this.result.chunks.added += written.chunks_added;
    this.result.chunks.removed += written.chunks_removed;
    this.progress();
  }

  private toNewDocument(doc: PreparedDocument): NewDocument {
    const id = documentId(this.collection.id, doc.hash);
    return {
      id,
      source: doc.source,
      external_id: doc.external_id ?? doc.source,
      title: doc.title,
      kind: doc.kind,
      content_hash: doc.hash,
      metadata: doc.metadata,
      char_count: doc.char_count,
      chunks: doc.chunks.map((chunk) => ({ id: chunkId(id, chunk.position), ...chunk })),
    };
  }

  /** Embeds every chunk this model has not embedded, in requests of EMBED_BATCH inputs. */
  private async embedMissing(embedder: LlmClient): Promise<void> {
    const { db, workspaceId, signal } = this.options;
    for (;;) {
      signal?.throwIfAborted();
      const missing = await chunksMissingEmbedding(
        db,
        workspaceId,
        this.collection.id,
        embedder.model,
        EMBED_BATCH * 4,
      );
      if (missing.length === 0) return;
      const rows: Array<{ id: string; embedding: number[] }> = [];
      for (let i = 0; i < missing.length; i += EMBED_BATCH) {
        const slice = missing.slice(i, i + EMBED_BATCH);
        const { embeddings } = await embedder.embed({
          input: slice.map((chunk) => chunk.content),
          ...(signal ? { signal } : {}),
        });
        slice.forEach((chunk, k) => {
          const embedding = embeddings[k];
          if (embedding) rows.push({ id: chunk.id, embedding });
        });
      }
      const updated = await setChunkEmbeddings(db, {
        workspaceId,
        collectionId: this.collection.id,
        model: embedder.model,
        rows,
      });
      this.result.chunks.embedded += updated;
      this.progress();
      // Nothing stored (the chunks went away meanwhile): stop rather than loop.
      if (updated === 0) return;
    }
  }

  private progress(): void {
    this.options.onProgress?.({
      documents_seen: this.documentsSeen,
      documents_added: this.result.documents.added,
      chunks_added: this.result.chunks.added,
      chunks_embedded: this.result.chunks.embedded,
    });
  }
}
