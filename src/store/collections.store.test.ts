import { expect, it } from "vitest";
import { describeEachStore } from "../../test/support/stores.js";
import {
  CollectionNameTakenError,
  CollectionNotFoundError,
  chunkEmbeddingPages,
  chunksMissingEmbedding,
  chunkTokenPages,
  createCollection,
  deleteCollection,
  deleteDocument,
  ensureCollection,
  findCollectionByName,
  findDocumentsByHashOrSource,
  getChunksWithDocuments,
  getCollection,
  getCollectionVersion,
  getDocument,
  listChunks,
  listCollections,
  listDocuments,
  type NewDocument,
  setChunkEmbeddings,
  writeDocuments,
} from "./collections.js";
import { appendObservations, listObservations, observationWriter } from "./observations.js";
import { findOrCreateUser } from "./users.js";

function doc(id: string, source: string, hash: string, chunkCount = 2): NewDocument {
  return {
    id,
    source,
    title: `Title ${id}`,
    kind: "markdown",
    content_hash: hash,
    metadata: { lang: "en" },
    char_count: 100,
    chunks: Array.from({ length: chunkCount }, (_, position) => ({
      id: `${id}#${position}`,
      position,
      content: `content ${id} ${position}`,
      tokens: `content ${id} ${position}`,
      metadata: { start: position * 10, end: position * 10 + 9 },
    })),
  };
}

describeEachStore("collections", (use) => {
  it("keeps names unique per live collection and per user", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const bob = await findOrCreateUser(db, "bob");
    const first = await createCollection(db, alice.id, {
      name: "docs",
      config: { chunk_size: 500 },
    });
    expect(first.version).toBe(0);
    expect(first.config).toEqual({ chunk_size: 500 });
    await expect(createCollection(db, alice.id, { name: "docs" })).rejects.toBeInstanceOf(
      CollectionNameTakenError,
    );
    // Another user may use the same name.
    const bobs = await createCollection(db, bob.id, { name: "docs" });
    expect(bobs.id).not.toBe(first.id);
    // ensureCollection finds the existing one.
    const ensured = await ensureCollection(db, alice.id, { name: "docs" });
    expect(ensured).toMatchObject({ created: false, collection: { id: first.id } });
    // After deletion the name is free again, and the old id is gone.
    expect(await deleteCollection(db, alice.id, first.id)).toBe(true);
    expect(await deleteCollection(db, alice.id, first.id)).toBe(false);
    expect(await getCollection(db, alice.id, first.id)).toBeUndefined();
    const again = await ensureCollection(db, alice.id, { name: "docs" });
    expect(again.created).toBe(true);
    expect(again.collection.id).not.toBe(first.id);
  });

  it("hides another user's collections, documents and chunks", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const bob = await findOrCreateUser(db, "bob");
    const col = await createCollection(db, alice.id, { name: "private" });
    await writeDocuments(db, {
      workspaceId: alice.id,
      collectionId: col.id,
      documents: [doc("d1", "a.md", "h1")],
    });
    expect(await getCollection(db, bob.id, col.id)).toBeUndefined();
    expect(await findCollectionByName(db, bob.id, "private")).toBeUndefined();
    expect(await getCollectionVersion(db, bob.id, col.id)).toBeUndefined();
    expect(await getCollection(db, alice.id, "not-a-uuid")).toBeUndefined();
    expect(await listCollections(db, bob.id)).toEqual([]);
    expect(await listDocuments(db, bob.id, col.id)).toEqual([]);
    expect(await getDocument(db, bob.id, "d1")).toBeUndefined();
    expect(await listChunks(db, bob.id, "d1")).toEqual([]);
    expect(await getChunksWithDocuments(db, bob.id, col.id, ["d1#0"])).toEqual([]);
    expect(await deleteDocument(db, bob.id, "d1")).toBe(false);
    expect(await deleteCollection(db, bob.id, col.id)).toBe(false);
    await expect(
      writeDocuments(db, {
        workspaceId: bob.id,
        collectionId: col.id,
        documents: [doc("d2", "b", "h2")],
      }),
    ).rejects.toBeInstanceOf(CollectionNotFoundError);
    const pages = [];
    for await (const page of chunkTokenPages(db, bob.id, col.id)) pages.push(page);
    expect(pages).toEqual([]);
  });

  it("writes documents with their chunks, skips known content and replaces by id", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const col = await createCollection(db, alice.id, { name: "c" });
    const first = await writeDocuments(db, {
      workspaceId: alice.id,
      collectionId: col.id,
      documents: [doc("d1", "a.md", "h1", 3), doc("d2", "b.md", "h2", 1)],
    });
    expect(first).toEqual({
      documents_added: 2,
      documents_removed: 0,
      chunks_added: 4,
      chunks_removed: 0,
    });
    expect((await getCollectionVersion(db, alice.id, col.id))?.version).toBe(1);

    // Same content hash again: nothing is added.
    const again = await writeDocuments(db, {
      workspaceId: alice.id,
      collectionId: col.id,
      documents: [doc("d1", "a.md", "h1", 3)],
    });
    expect(again.documents_added).toBe(0);
    expect(again.chunks_added).toBe(0);

    const found = await findDocumentsByHashOrSource(db, alice.id, col.id, {
      hashes: ["h2", "zz"],
      sources: ["a.md"],
    });
    expect(found.map((row) => row.id).sort()).toEqual(["d1", "d2"]);

    const replaced = await writeDocuments(db, {
      workspaceId: alice.id,
      collectionId: col.id,
      documents: [doc("d3", "a.md", "h3", 1)],
      removeIds: ["d1"],
    });
    expect(replaced).toEqual({
      documents_added: 1,
      documents_removed: 1,
      chunks_added: 1,
      chunks_removed: 3,
    });
    expect((await listDocuments(db, alice.id, col.id)).map((d) => d.id)).toEqual(["d3", "d2"]);
    const chunkRows = await listChunks(db, alice.id, "d3");
    expect(chunkRows).toMatchObject([
      { id: "d3#0", position: 0, content: "content d3 0", metadata: { start: 0, end: 9 } },
    ]);
    const withDocs = await getChunksWithDocuments(db, alice.id, col.id, ["d3#0", "d1#0", "zz"]);
    expect(withDocs).toEqual([
      {
        id: "d3#0",
        document_id: "d3",
        position: 0,
        content: "content d3 0",
        metadata: { start: 0, end: 9 },
        title: "Title d3",
        source: "a.md",
        // Written without the user's own id: the source stands for it.
        external_id: "a.md",
        document_metadata: { lang: "en" },
      },
    ]);
    const [summary] = await listCollections(db, alice.id);
    expect(summary).toMatchObject({ name: "c", document_count: 2, chunk_count: 2 });

    expect(await deleteDocument(db, alice.id, "d2")).toBe(true);
    expect(await listChunks(db, alice.id, "d2")).toEqual([]);
  });

  it("pages through tokens and stores embeddings per model", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const col = await createCollection(db, alice.id, { name: "c" });
    await writeDocuments(db, {
      workspaceId: alice.id,
      collectionId: col.id,
      documents: [doc("d1", "a", "h1", 5)],
    });
    const pages: string[][] = [];
    for await (const page of chunkTokenPages(db, alice.id, col.id, 2)) {
      pages.push(page.map((row) => row.id));
    }
    expect(pages).toEqual([["d1#0", "d1#1"], ["d1#2", "d1#3"], ["d1#4"]]);

    const missing = await chunksMissingEmbedding(db, alice.id, col.id, "m1", 3);
    expect(missing.map((row) => row.id)).toEqual(["d1#0", "d1#1", "d1#2"]);
    const before = (await getCollectionVersion(db, alice.id, col.id))?.version ?? 0;
    const updated = await setChunkEmbeddings(db, {
      workspaceId: alice.id,
      collectionId: col.id,
      model: "m1",
      rows: missing.map((row, i) => ({ id: row.id, embedding: [i, 0.5, -0.25] })),
    });
    expect(updated).toBe(3);
    expect((await getCollectionVersion(db, alice.id, col.id))?.version).toBe(before + 1);
    expect((await chunksMissingEmbedding(db, alice.id, col.id, "m1", 10)).length).toBe(2);
    expect((await chunksMissingEmbedding(db, alice.id, col.id, "m2", 10)).length).toBe(5);
    const vectors: Array<{ id: string; embedding: number[] }> = [];
    for await (const page of chunkEmbeddingPages(db, alice.id, col.id, "m1")) vectors.push(...page);
    expect(vectors).toEqual([
      { id: "d1#0", embedding: [0, 0.5, -0.25] },
      { id: "d1#1", embedding: [1, 0.5, -0.25] },
      { id: "d1#2", embedding: [2, 0.5, -0.25] },
    ]);
  });
});

describeEachStore("observational data", (use) => {
  it("appends observations and counts them on the collection", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const col = await createCollection(db, alice.id, { name: "c" });
    const row = {
      workspace_id: alice.id,
      collection_id: col.id,
      query: "q",
      answer: "a",
      score: 0.9,
    };
    expect(
      await appendObservations(db, [
        { ...row, node_id: "d1#0" },
        { ...row, node_id: "d1#1" },
      ]),
    ).toBe(2);
    expect(await getCollectionVersion(db, alice.id, col.id)).toEqual({
      version: 0,
      observation_count: 2,
    });
    const stored = await listObservations(db, alice.id, col.id);
    expect(stored.map((o) => [o.node_id, o.score, o.query])).toEqual([
      ["d1#0", 0.9, "q"],
      ["d1#1", 0.9, "q"],
    ]);
  });

  it("writes nothing when any row names another user's collection", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const bob = await findOrCreateUser(db, "bob");
    const mine = await createCollection(db, alice.id, { name: "c" });
    const theirs = await createCollection(db, bob.id, { name: "c" });
    const base = { query: "q", answer: "a", node_id: "x#0", score: 1 };
    const attempt = appendObservations(db, [
      { ...base, workspace_id: alice.id, collection_id: mine.id },
      { ...base, workspace_id: alice.id, collection_id: theirs.id },
    ]);
    await expect(attempt).rejects.toMatchObject({
      name: "CollectionNotFoundError",
      collection: theirs.id,
    });
    expect(await listObservations(db, alice.id, mine.id)).toEqual([]);
    expect((await getCollectionVersion(db, alice.id, mine.id))?.observation_count).toBe(0);
    await expect(
      appendObservations(db, [{ ...base, workspace_id: alice.id, collection_id: "nope" }]),
    ).rejects.toBeInstanceOf(CollectionNotFoundError);
  });

  it("observationWriter: asks written together all land, and one naming a foreign collection fails alone", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const bob = await findOrCreateUser(db, "bob");
    const mine = await createCollection(db, alice.id, { name: "c" });
    const theirs = await createCollection(db, bob.id, { name: "c" });
    const write = observationWriter(db, alice.id);
    const askRows = (i: number, collection_id: string) =>
      [0, 1].map((n) => ({
        collection_id,
        query: `q${i}`,
        answer: "a",
        node_id: `d${i}#${n}`,
        score: 1,
      }));
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 8 }, (_, i) => write(askRows(i, mine.id))),
      write(askRows(99, theirs.id)),
      write([]),
    ]);
    expect(
      outcomes.slice(0, 8).map((o) => (o.status === "fulfilled" ? o.value : o.reason)),
    ).toEqual(Array(8).fill(2));
    expect(outcomes[8]).toMatchObject({ status: "rejected", reason: { collection: theirs.id } });
    expect(outcomes[9]).toEqual({ status: "fulfilled", value: 0 });
    const stored = await listObservations(db, alice.id, mine.id);
    expect(stored.map((o) => o.node_id).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => [`d${i}#0`, `d${i}#1`])
        .flat()
        .sort(),
    );
    expect((await getCollectionVersion(db, alice.id, mine.id))?.observation_count).toBe(16);
    expect(await listObservations(db, bob.id, theirs.id)).toEqual([]);
  });
});
