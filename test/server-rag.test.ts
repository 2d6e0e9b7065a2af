import { readFileSync } from "node:fs";
import { beforeAll, expect, it } from "vitest";
import { createApp } from "../src/server/index.js";
import { createApiToken, findOrCreateUser } from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

const corpus = (name: string) =>
  readFileSync(new URL(`../examples/corpus/${name}`, import.meta.url), "utf8");

describeEachStore("HTTP API: collections and ask", (use) => {
  // No socket: Hono's app.request() runs the same middleware and routes in process.
  let app: ReturnType<typeof createApp>;
  beforeAll(() => {
    app = createApp({ db: use().db });
  });

  async function tokenOf(name: string) {
    const { db } = use();
    return createApiToken(db, (await findOrCreateUser(db, name)).id);
  }
  const call = (token: string, method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("creates a collection, ingests documents, and answers with citations and a gate verdict", async () => {
    const alice = await tokenOf("alice");
    const created = await call(alice, "POST", "/api/v1/collections", { name: "lanting" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await call(alice, "POST", "/api/v1/collections", { name: "lanting" })).status).toBe(
      409,
    );

    const upload = await call(alice, "POST", `/api/v1/collections/${id}/documents`, {
      documents: [
        { name: "lanting-transport.md", content: corpus("lanting-transport.md") },
        { name: "faq.jsonl", content: corpus("lanting-faq.jsonl") },
      ],
    });
    expect(upload.status).toBe(201);
    const counts = (await upload.json()) as {
      documents: { added: number };
      chunks: { added: number };
    };
    expect(counts.documents.added).toBeGreaterThan(1);
    expect(counts.chunks.added).toBeGreaterThan(1);

    const asked = await call(alice, "POST", "/api/v1/ask", {
      collection_id: id,
      question: "When did the Lanting Metro open its Line 1?",
    });
    expect(asked.status).toBe(200);
    const result = (await asked.json()) as {
      final_answer: string;
      citations: string[];
      hits: Array<{ node_id: string; source: string }>;
      gate: { status: string };
      trace: Array<{ node: string }>;
      diagrams: { quality_loop: string; answer_loop: string };
    };
    expect(result.final_answer).toContain("2009");
    expect(result.citations.length).toBeGreaterThan(0);
    const hitIds = new Set(result.hits.map((hit) => hit.node_id));
    for (const cited of result.citations) expect(hitIds.has(cited)).toBe(true);
    expect(["pass", "partial"]).toContain(result.gate.status);
    expect(result.trace.map((step) => step.node)).toContain("grade_documents");
    expect(result.diagrams.quality_loop).toContain("grade_documents");
    expect(result.diagrams.answer_loop).toMatch(/flowchart|graph/);
  });

  it("rejects an upload with one bad line whole, naming it", async () => {
    const alice = await tokenOf("alice");
    const { id } = (await (
      await call(alice, "POST", "/api/v1/collections", { name: "c2" })
    ).json()) as { id: string };
    const response = await call(alice, "POST", `/api/v1/collections/${id}/documents`, {
      documents: [
        { name: "ok.md", content: "# Title\n\nSome text about trams." },
        { name: "bad.jsonl", content: '{"text":"fine"}\n{"title":"no text"}\n' },
      ],
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { issues: Array<{ path: string }> };
    expect(body.issues.map((issue) => issue.path)).toEqual(["documents.1.line 2"]);
    const collection = (await (await call(alice, "GET", `/api/v1/collections/${id}`)).json()) as {
      version: number;
    };
    expect(collection.version).toBe(0);
  });

  it("answers another user's collection as not found", async () => {
    const alice = await tokenOf("alice");
    const bob = await tokenOf("bob");
    const { id } = (await (
      await call(alice, "POST", "/api/v1/collections", { name: "private" })
    ).json()) as { id: string };
    expect((await call(bob, "GET", `/api/v1/collections/${id}`)).status).toBe(404);
    expect(
      (await call(bob, "POST", "/api/v1/ask", { collection_id: id, question: "anything?" })).status,
    ).toBe(404);
    const upload = await call(bob, "POST", `/api/v1/collections/${id}/documents`, {
      documents: [{ name: "x.txt", content: "text" }],
    });
    expect(upload.status).toBe(404);
  });
});
