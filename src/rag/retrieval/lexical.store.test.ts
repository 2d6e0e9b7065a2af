import { expect, it } from "vitest";
import { describeEachStore } from "../../../test/support/stores.js";
import {
  chunkTokenPages,
  deleteDocument,
  findOrCreateUser,
  listDocuments,
} from "../../store/index.js";
import { ingestDocuments, type ParsedDocument } from "../ingest/index.js";
import { type LexicalIndex, loadLexicalIndex, refreshLexicalIndex } from "./lexical.js";

const WORDS = "salt quay tram ferry flood bridge metro harbour lantern festival tide wall".split(
  " ",
);

function doc(n: number): ParsedDocument {
  const text = Array.from({ length: 6 }, (_, i) => WORDS[(n * 7 + i * 5) % WORDS.length]).join(" ");
  return {
    source: `doc-${n}.txt`,
    kind: "text",
    title: `Doc ${n}`,
    blocks: [{ text: `${text} number${n}.` }],
    metadata: {},
  };
}

/** Every matching chunk's score, by id: independent of document numbering. */
function scores(index: LexicalIndex, terms: string[]): Record<string, number> {
  return Object.fromEntries(index.search(terms, 1_000).map((hit) => [hit.node_id, hit.bm25]));
}

describeEachStore("refreshLexicalIndex", (use) => {
  it("reaches the same index as a full load after additions and removals", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const first = await ingestDocuments({
      db,
      workspaceId: user.id,
      collection: "c",
      documents: Array.from({ length: 30 }, (_, n) => doc(n)),
    });
    const cid = first.collection_id;
    const before = await loadLexicalIndex(db, user.id, cid);
    expect(await refreshLexicalIndex(db, user.id, cid, before)).toBe(before);

    // Add documents (with a word the old index never saw) and remove a few.
    await ingestDocuments({
      db,
      workspaceId: user.id,
      collection: { id: cid },
      documents: [
        ...Array.from({ length: 10 }, (_, n) => doc(100 + n)),
        {
          ...doc(200),
          blocks: [{ text: "zeppelin mast" }],
        },
      ],
    });
    const docs = await listDocuments(db, user.id, cid);
    for (const removed of docs.filter((d) => /^doc-[0-4]\.txt$/.test(d.source))) {
      expect(await deleteDocument(db, user.id, removed.id)).toBe(true);
    }

    const refreshed = await refreshLexicalIndex(db, user.id, cid, before);
    const full = await loadLexicalIndex(db, user.id, cid);
    const stored: string[] = [];
    for await (const page of chunkTokenPages(db, user.id, cid))
      stored.push(...page.map((row) => row.id));
    expect([...refreshed.ids].sort()).toEqual(stored);
    expect(refreshed.documents).toHaveLength(refreshed.ids.length);
    expect(refreshed.bm25.size).toBe(full.bm25.size);
    for (const query of [
      ["salt", "tram"],
      ["zeppelin"],
      ["number3"],
      ["number104", "tide"],
      WORDS,
    ]) {
      const expected = scores(full, query);
      const actual = scores(refreshed, query);
      expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
      for (const [id, score] of Object.entries(expected)) expect(actual[id]).toBeCloseTo(score, 9);
      expect(refreshed.idf(query[0] ?? "")).toBeCloseTo(full.idf(query[0] ?? ""), 12);
    }
    // The older index keeps answering as it did: the new word is unknown to it.
    expect(before.search(["zeppelin"], 5)).toEqual([]);
    expect(before.has(refreshed.ids.at(-1) ?? "")).toBe(false);
  });
});
