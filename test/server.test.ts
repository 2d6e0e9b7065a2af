import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp, listen } from "../src/server/index.js";
import { createApiToken, findOrCreateUser } from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

const INPUT = {
  conversation_id: "c1",
  message_id: "m1",
  retrieval_record: { id: "r1", query: "When was the duchy founded?", top_k: 5 },
  retrieval_hits: [
    {
      node_id: "n1",
      content: "The Duchy of Normandy began in 911 when Rollo received lands from King Charles.",
      score: 0.82,
      source: "lexical",
    },
  ],
  generation_record: { id: "g1", model: "any" },
  generation_output: {
    answer: "The Duchy of Normandy began in 911, when Rollo received lands [n1].",
    citations: [{ node_id: "n1" }],
  },
};

describeEachStore("HTTP API", (use) => {
  // Requests go through Hono's app.request(), in process; a real socket only where the Node
  // adapter is what is checked: the address bound and a body cut off at the limit.
  let app: ReturnType<typeof createApp>;
  let server: Awaited<ReturnType<typeof listen>>;
  let alice = "";
  let bob = "";

  beforeAll(async () => {
    app = createApp({ db: use().db, maxBodyBytes: 1024 * 1024 });
    server = await listen(app, { port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  async function tokens() {
    const { db } = use();
    alice = await createApiToken(db, (await findOrCreateUser(db, "alice")).id);
    bob = await createApiToken(db, (await findOrCreateUser(db, "bob")).id);
  }

  const call = (path: string, token: string, init: RequestInit = {}) =>
    app.request(path, {
      ...init,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    });

  it("binds the loopback address by default", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("refuses requests without a known token", async () => {
    const response = await app.request("/api/v1/evaluation-records");
    expect(response.status).toBe(401);
    expect((await call("/api/v1/evaluation-records", "rj_wrong")).status).toBe(401);
  });

  it("reads the Authorization scheme case-insensitively", async () => {
    await tokens();
    for (const scheme of ["bearer", "BEARER", "Bearer"]) {
      const response = await app.request("/api/v1/evaluation-records", {
        headers: { authorization: `${scheme} ${alice}` },
      });
      expect(response.status, scheme).toBe(200);
    }
    const basic = await app.request("/api/v1/evaluation-records", {
      headers: { authorization: `Basic ${alice}` },
    });
    expect(basic.status).toBe(401);
  });

  it("refuses a body that is not application/json with 415, and stores nothing", async () => {
    await tokens();
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "",
    ]) {
      // Over a socket, as a browser's form would arrive: with a content-length.
      const response = await fetch(`${server.url}/api/v1/gate`, {
        method: "POST",
        headers: { authorization: `Bearer ${alice}`, ...(type ? { "content-type": type } : {}) },
        body: new TextEncoder().encode(JSON.stringify(INPUT)),
      });
      expect(response.status, type || "(no content-type)").toBe(415);
      expect(((await response.json()) as { error: string }).error).toBe("unsupported_media_type");
    }
    const list = (await (await call("/api/v1/evaluation-records", alice)).json()) as {
      items: Array<{ message_id: string }>;
    };
    expect(list.items.filter((item) => item.message_id === "m415")).toEqual([]);
    const charset = await app.request("/api/v1/gate", {
      method: "POST",
      headers: {
        authorization: `Bearer ${alice}`,
        "content-type": "Application/JSON; charset=utf-8",
      },
      body: JSON.stringify({ ...INPUT, message_id: "m415" }),
    });
    expect(charset.status).toBe(201);
    // In process (or over HTTP/2) a body may come without any length header.
    const unsized = new Request("http://localhost/api/v1/gate", {
      method: "POST",
      headers: { authorization: `Bearer ${alice}`, "content-type": "text/plain" },
      body: JSON.stringify({ ...INPUT, message_id: "m415-unsized" }),
    });
    expect(unsized.headers.get("content-length")).toBeNull();
    expect((await app.request(unsized)).status).toBe(415);
  });

  it("gates an answer, stores it, and serves the record to its owner only", async () => {
    await tokens();
    const posted = await call("/api/v1/gate", alice, {
      method: "POST",
      body: JSON.stringify(INPUT),
    });
    expect(posted.status).toBe(201);
    const verdict = (await posted.json()) as { record_id: string; status: string; action: string };
    expect(verdict).toMatchObject({ status: "pass", action: "show", message_id: "m1" });

    const read = await call(`/api/v1/evaluation-records/${verdict.record_id}`, alice);
    expect(read.status).toBe(200);
    const record = (await read.json()) as Record<string, unknown>;
    expect(record).toMatchObject({
      id: verdict.record_id,
      status: "pass",
      retrieval_record_id: "r1",
    });
    expect(record).not.toHaveProperty("user_id");

    expect((await call(`/api/v1/evaluation-records/${verdict.record_id}`, bob)).status).toBe(404);
    const list = (await (await call("/api/v1/evaluation-records", bob)).json()) as {
      items: unknown[];
    };
    expect(list.items).toEqual([]);
  });

  it("names the field at fault in a 400, and stores nothing", async () => {
    await tokens();
    const bad = { ...INPUT, message_id: 7, generation_output: { answer: 42, citations: [] } };
    const response = await call("/api/v1/gate", alice, {
      method: "POST",
      body: JSON.stringify(bad),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { issues: Array<{ path: string }> };
    expect(body.issues.map((issue) => issue.path).sort()).toEqual([
      "generation_output.answer",
      "message_id",
    ]);
    const list = (await (await call("/api/v1/evaluation-records", alice)).json()) as {
      items: unknown[];
    };
    expect(list.items).toEqual([]);
  });

  it("rejects malformed JSON, an over-long answer, and a body over the limit", async () => {
    await tokens();
    const malformed = await call("/api/v1/gate", alice, { method: "POST", body: "{not json" });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toBe("invalid_json");

    const long = { ...INPUT, generation_output: { answer: "a".repeat(300_000), citations: [] } };
    const tooLong = await call("/api/v1/gate", alice, {
      method: "POST",
      body: JSON.stringify(long),
    });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(await tooLong.json())).toContain("generation_output.answer");

    const huge = {
      ...INPUT,
      generation_output: { answer: "a".repeat(10 * 1024 * 1024), citations: [] },
    };
    const tooBig = await fetch(`${server.url}/api/v1/gate`, {
      method: "POST",
      headers: { authorization: `Bearer ${alice}`, "content-type": "application/json" },
      body: JSON.stringify(huge),
    });
    expect(tooBig.status).toBe(413);
  });

  it("publishes an OpenAPI document built from the request schemas", async () => {
    const response = await app.request("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { required?: string[] }> };
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v1/gate", "/api/v1/evaluation-records/{id}"]),
    );
    expect(doc.components.schemas.EvaluatorInput?.required).toEqual(
      expect.arrayContaining(["conversation_id", "retrieval_hits", "generation_output"]),
    );
  });
});
