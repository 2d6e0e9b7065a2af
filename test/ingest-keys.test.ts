import { beforeAll, beforeEach, expect, it } from "vitest";
import { createApp } from "../src/server/index.js";
import { createApiToken, findOrCreateUser } from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

const ANSWER = {
  conversation_id: "c1",
  message_id: "m1",
  retrieval_record: { id: "r1", query: "When was the bridge built?" },
  retrieval_hits: [{ node_id: "n1", content: "The bridge was built in 1870 by the river guild." }],
  generation_record: { id: "g1", model: "m" },
  generation_output: { answer: "The bridge was built in 1870 [n1]." },
};

describeEachStore("ingest keys", (use) => {
  let app: ReturnType<typeof createApp>;
  let alice = "";
  let bob = "";

  beforeAll(() => {
    app = createApp({ db: use().db });
  });
  beforeEach(async () => {
    const { db } = use();
    alice = await createApiToken(db, (await findOrCreateUser(db, "keys-alice")).id);
    bob = await createApiToken(db, (await findOrCreateUser(db, "keys-bob")).id);
  });

  const call = (method: string, path: string, token: string, json?: unknown) =>
    app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });

  async function createKey(label: string) {
    const response = await call("POST", "/api/v1/ingest-keys", alice, { label });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; key: string; label: string };
  }

  it("makes a key shown once, which sends answers for its user and reads nothing", async () => {
    const created = await createKey("support-bot");
    expect(created.key).toMatch(/^rji_[\w-]{32}$/);
    const list = (await (await call("GET", "/api/v1/ingest-keys", alice)).json()) as {
      items: Record<string, unknown>[];
    };
    expect(list.items).toEqual([
      { id: created.id, label: "support-bot", created_at: expect.any(String), revoked_at: null },
    ]);
    expect(JSON.stringify(list)).not.toContain(created.key);

    const sent = await call("POST", "/api/v1/answers", created.key, { answers: [ANSWER] });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ accepted: 1 });
    for (const [method, path] of [
      ["GET", "/api/v1/answers"],
      ["GET", "/api/v1/evaluations"],
      ["GET", "/api/v1/ingest-keys"],
      ["POST", "/api/v1/ingest-keys"],
      ["POST", "/api/v1/gate"],
    ] as const) {
      const refused = await call(method, path, created.key, method === "POST" ? {} : undefined);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(((await refused.json()) as { error: string }).error).toBe("ingest_key_only");
    }
    // The answer is the user's, read with the user's own token.
    const answers = (await (await call("GET", "/api/v1/answers", alice)).json()) as {
      items: { message_id: string }[];
    };
    expect(answers.items.map((a) => a.message_id)).toEqual(["m1"]);
  });

  it("stops a revoked key at once; another user's key id is 404", async () => {
    const created = await createKey("old");
    expect((await call("DELETE", `/api/v1/ingest-keys/${created.id}`, bob)).status).toBe(404);
    const revoked = await call("DELETE", `/api/v1/ingest-keys/${created.id}`, alice);
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { revoked_at: string | null }).revoked_at).not.toBeNull();
    const sent = await call("POST", "/api/v1/answers", created.key, { answers: [ANSWER] });
    expect(sent.status).toBe(401);
  });

  it("names a bad label", async () => {
    const response = await call("POST", "/api/v1/ingest-keys", alice, { label: "x".repeat(201) });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("label");
  });
});
