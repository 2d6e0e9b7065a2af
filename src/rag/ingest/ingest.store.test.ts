import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { describeEachStore } from "../../../test/support/stores.js";
import { scriptedClient, useScriptedLlm } from "../../../test/support/use-scripted-llm.js";
import {
  CollectionNotFoundError,
  findOrCreateUser,
  getCollectionVersion,
  listChunks,
  listDocuments,
} from "../../store/index.js";
import { ingestDocuments, ingestPaths } from "./ingest.js";

const CORPUS = new URL("../../../examples/corpus/", import.meta.url).pathname;

/** A valid PDF with one line of Helvetica text per page, xref offsets computed. */
function minimalPdf(pages: string[], title?: string): Buffer {
  const objects: string[] = [];
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  const kids = pages.map((_, i) => `${5 + i * 2} 0 R`).join(" ");
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  objects.push(title ? `<< /Title (${title}) /Author (Test Suite) >>` : "<< >>");
  pages.forEach((text, i) => {
    const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${6 + i * 2} 0 R >>`,
    );
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

let dir: string;
const llm = useScriptedLlm();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ragjudge-ingest-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function embedder() {
  return scriptedClient(llm, "embedder");
}

describeEachStore("ingestPaths", (use) => {
  it("ingests every format of the example corpus, and again as a no-op", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const first = await ingestPaths({
      db,
      workspaceId: user.id,
      collection: "lanting",
      paths: [CORPUS],
    });
    // 6 Markdown files, 1 HTML page, 4 JSONL records.
    expect(first.problems).toEqual([]);
    expect(first.collection_created).toBe(true);
    expect(first.documents).toEqual({ added: 11, unchanged: 0, replaced: 0 });
    expect(first.chunks.added).toBeGreaterThanOrEqual(11);

    const docs = await listDocuments(db, user.id, first.collection_id);
    const kinds = Object.fromEntries(docs.map((doc) => [doc.source.split("/").at(-1), doc.kind]));
    expect(kinds).toMatchObject({
      "extra.html": "html",
      "lanting-history.md": "markdown",
      "lanting-faq.jsonl#faq-ferry-fare": "jsonl",
    });
    const html = docs.find((doc) => doc.kind === "html");
    expect(html?.title).toBe("Visiting the Saltworks Arts District");
    const faq = docs.find((doc) => doc.source.endsWith("#faq-lantern-date"));
    expect(faq).toMatchObject({
      title: "盐灯节在什么时候举行？",
      metadata: { topic: "festivals" },
    });

    const chunks = await listChunks(db, user.id, faq?.id ?? "");
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ id: `${faq?.id}#0`, position: 0, embedding: null });
    // Tokens for BM25: Chinese segmented by ICU, title included, stopwords dropped.
    expect(chunks[0]?.tokens.split(" ")).toEqual(
      expect.arrayContaining(["灯节", "码头", "玉江", "10"]),
    );

    const version = (await getCollectionVersion(db, user.id, first.collection_id))?.version;
    const again = await ingestPaths({
      db,
      workspaceId: user.id,
      collection: "lanting",
      paths: [CORPUS],
    });
    expect(again.collection_id).toBe(first.collection_id);
    expect(again.documents).toEqual({ added: 0, unchanged: 11, replaced: 0 });
    expect(again.chunks).toEqual({ added: 0, removed: 0, embedded: 0 });
    expect((await getCollectionVersion(db, user.id, first.collection_id))?.version).toBe(version);
  });

  it("replaces a source whose content changed and keeps ids of unchanged content", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    cpSync(join(CORPUS, "lanting-transport.md"), join(dir, "transport.md"));
    writeFileSync(join(dir, "note.txt"), "The tide tables are printed every March.");
    const first = await ingestPaths({
      db,
      workspaceId: user.id,
      collection: "c",
      paths: [dir],
      cwd: dir,
    });
    expect(first.documents.added).toBe(2);
    const before = await listDocuments(db, user.id, first.collection_id);
    expect(before.map((doc) => doc.source)).toEqual(["note.txt", "transport.md"]);
    const noteBefore = before.find((doc) => doc.source === "note.txt");

    writeFileSync(
      join(dir, "transport.md"),
      `${readFileSync(join(CORPUS, "lanting-transport.md"), "utf8")}\nA cable car opened in 2024.\n`,
    );
    const second = await ingestPaths({
      db,
      workspaceId: user.id,
      collection: "c",
      paths: [dir],
      cwd: dir,
    });
    expect(second.documents).toEqual({ added: 1, unchanged: 1, replaced: 1 });
    expect(second.chunks.removed).toBeGreaterThan(0);
    const after = await listDocuments(db, user.id, first.collection_id);
    expect(after).toHaveLength(2);
    expect(after.find((doc) => doc.source === "note.txt")?.id).toBe(noteBefore?.id);
    const transport = after.find((doc) => doc.source === "transport.md");
    const chunks = await listChunks(db, user.id, transport?.id ?? "");
    expect(chunks.map((chunk) => chunk.id)).toEqual(
      chunks.map((_, position) => `${transport?.id}#${position}`),
    );
    expect(chunks.map((chunk) => chunk.content).join(" ")).toContain("cable car");
  });

  it("reads PDFs page by page and reports what it cannot read", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    writeFileSync(
      join(dir, "tides.pdf"),
      minimalPdf(
        ["High tide at the Old Quay is at 06:10.", "Low tide follows at 12:25."],
        "Tide Tables",
      ),
    );
    writeFileSync(join(dir, "broken.pdf"), "%PDF-1.4 this is not really a pdf");
    writeFileSync(join(dir, "data.jsonl"), '{"text": "Fine."}\n{"title": "no text"}\n');
    writeFileSync(join(dir, "image.png"), "not read: unknown extension inside a directory");
    writeFileSync(join(dir, "empty.md"), "\n\n");
    const result = await ingestPaths({
      db,
      workspaceId: user.id,
      collection: "c",
      paths: [dir, "missing.md", "image.png"],
      cwd: dir,
    });
    expect(result.documents.added).toBe(2);
    expect(result.problems).toEqual([
      { source: "broken.pdf", message: expect.stringMatching(/^not a readable PDF/) },
      { source: "data.jsonl", line: 2, message: expect.stringMatching(/^text: /) },
      { source: "empty.md", message: "no text found" },
      { source: "missing.md", message: "no such file or directory: missing.md" },
      { source: "image.png", message: expect.stringMatching(/^unsupported format/) },
    ]);
    const docs = await listDocuments(db, user.id, result.collection_id);
    const pdf = docs.find((doc) => doc.kind === "pdf");
    expect(pdf).toMatchObject({
      source: "tides.pdf",
      title: "Tide Tables",
      metadata: { pages: 2, author: "Test Suite" },
    });
    const chunks = await listChunks(db, user.id, pdf?.id ?? "");
    expect(chunks.map((chunk) => [chunk.content, chunk.metadata])).toEqual([
      ["High tide at the Old Quay is at 06:10.", { start: 0, end: 38, page: 1 }],
      ["Low tide follows at 12:25.", { start: 40, end: 66, page: 2 }],
    ]);
  });

  it("embeds chunks when an embedder is given, once per model", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const paths = [join(CORPUS, "lanting-history.md"), join(CORPUS, "lanting-faq.jsonl")];
    // Without an embedder first, then with one: the older chunks are embedded too.
    const plain = await ingestPaths({
      db,
      workspaceId: user.id,
      collection: "c",
      paths: paths.slice(0, 1),
    });
    expect(plain.chunks.embedded).toBe(0);
    const embedded = await ingestPaths({
      db,
      workspaceId: user.id,
      collection: "c",
      paths,
      embedder: embedder(),
    });
    const total = plain.chunks.added + embedded.chunks.added;
    expect(embedded.chunks.embedded).toBe(total);
    const requests = llm.requests.filter((request) => request.path.endsWith("/embeddings"));
    expect(requests.length).toBeGreaterThan(0);
    const docs = await listDocuments(db, user.id, embedded.collection_id);
    for (const doc of docs) {
      for (const chunk of await listChunks(db, user.id, doc.id)) {
        expect(chunk.embedding).toHaveLength(8);
        expect(chunk.embedding_model).toBe("text-embedding-3-small");
      }
    }
    const again = await ingestPaths({
      db,
      workspaceId: user.id,
      collection: "c",
      paths,
      embedder: embedder(),
    });
    expect(again.chunks.embedded).toBe(0);
  });

  it("ingests into another user's collection id as not found", async () => {
    const { db } = use();
    const alice = await findOrCreateUser(db, "alice");
    const bob = await findOrCreateUser(db, "bob");
    const mine = await ingestDocuments({
      db,
      workspaceId: alice.id,
      collection: { name: "private", config: { chunk_size: 400, chunk_overlap: 50 } },
      documents: [
        { source: "a", kind: "text", title: "A", blocks: [{ text: "Alpha." }], metadata: {} },
      ],
    });
    await expect(
      ingestDocuments({
        db,
        workspaceId: bob.id,
        collection: { id: mine.collection_id },
        documents: [],
      }),
    ).rejects.toBeInstanceOf(CollectionNotFoundError);
    // Bob's collection of the same name is his own.
    const his = await ingestDocuments({
      db,
      workspaceId: bob.id,
      collection: "private",
      documents: [],
    });
    expect(his.collection_id).not.toBe(mine.collection_id);
    expect(his.collection_created).toBe(true);
  });

  it("rejects an invalid chunking config, naming the field", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    await expect(
      ingestDocuments({
        db,
        workspaceId: user.id,
        collection: { name: "c", config: { chunk_size: 200, chunk_overlap: 150 } },
        documents: [],
      }),
    ).rejects.toThrow(/chunk_overlap/);
  });
});
