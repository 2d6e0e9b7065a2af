import { afterAll, beforeAll, expect, it } from "vitest";
import { openTestStore } from "../../test/support/stores.js";
import { parseLlmConfig } from "../llm/index.js";
import type { Store } from "../store/index.js";
import { userClients } from "./user-clients.js";

// The server keeps LLM clients per workspace: a long-running server with many workspaces keeps
// only the most recently used ones.

let store: Store;
beforeAll(async () => {
  store = await openTestStore("pglite");
});
afterAll(async () => {
  await store?.close();
});

const llm = parseLlmConfig({ base_url: "http://127.0.0.1:9/v1", api_key: "sk-test" });

it("keeps one set of clients per workspace, the most recently used ones only", () => {
  const clientsOf = userClients(store.db, llm, { max: 2 });
  const a = clientsOf("a");
  expect(a.judge).toBeDefined();
  expect(a.judge).not.toBe(a.generator);
  expect(clientsOf("a")).toBe(a);
  const b = clientsOf("b");
  expect(b).not.toBe(a);
  expect(clientsOf("a")).toBe(a); // a is now the more recent of the two
  clientsOf("c"); // evicts b, the least recently used
  expect(clientsOf("a")).toBe(a);
  expect(clientsOf("b")).not.toBe(b);
});

it("makes none without an llm section", () => {
  expect(userClients(store.db, undefined)("a")).toEqual({});
});
