// The built-in bot over a real store (PGlite): a long-lived bot reuses a collection's version,
// yet what it ingests itself is searched by the very next ask.

import { afterAll, beforeAll, expect, it } from "vitest";
import { openTestStore } from "../../test/support/stores.js";
import { findOrCreateUser, type Store } from "../store/index.js";
import { createBuiltinBot } from "./bot.js";
import type { ParsedDocument } from "./ingest/document.js";
import { ingestDocuments } from "./ingest/index.js";

let store: Store;
beforeAll(async () => {
  store = await openTestStore("pglite");
});
afterAll(async () => {
  await store?.close();
});

const doc = (source: string, text: string): ParsedDocument => ({
  source,
  kind: "markdown",
  title: source,
  blocks: [{ text }],
  metadata: {},
});

it("a bot that reuses collection versions still sees what it ingests at once", async () => {
  const { db } = store;
  const user = await findOrCreateUser(db, "bot-cache");
  // A period no test outlives: any refresh seen below comes from the bot's own ingest.
  const bot = createBuiltinBot({ db, userId: user.id, collectionCacheMs: 600_000 });
  const hitSources = async (question: string) =>
    (await bot.ask({ question, collection: "harbour" })).hits.map(
      (h) => h.metadata.document_source,
    );

  await bot.ingestDocuments(
    [doc("quay.md", "The harbour reopened in 1870 with a new stone quay.")],
    { name: "harbour" },
  );
  expect(await hitSources("When was the stone quay built?")).toContain("quay.md");

  await bot.ingestDocuments([doc("light.md", "A lighthouse was lit on the north mole in 1872.")], {
    name: "harbour",
  });
  expect(await hitSources("When was the lighthouse lit?")).toContain("light.md");

  // Written by another writer than this bot: seen only once the period ends.
  await ingestDocuments({
    db,
    userId: user.id,
    collection: "harbour",
    documents: [doc("ferry.md", "The ferry to the island began running in 1875.")],
  });
  expect(await hitSources("When did the island ferry begin?")).not.toContain("ferry.md");
});
