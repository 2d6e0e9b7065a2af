// ask over the real retriever (rag/retrieval) and store (PGlite): a passing answer's observations
// reach observational_data, and the next ask finds them through the `memory` source.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore } from "../../../test/support/stores.js";
import {
  findOrCreateUser,
  listObservations,
  observationWriter,
  type Store,
} from "../../store/index.js";
import { ingestDocuments } from "../ingest/index.js";
import { createRetriever } from "../retrieval/index.js";
import { ask } from "./ask.js";
import { parseLoopsConfig } from "./config.js";
import type { AppendObservations } from "./observations.js";

let store: Store;
beforeAll(async () => {
  store = await openTestStore("pglite");
});
afterAll(async () => {
  await store?.close();
});

const DOCUMENTS = [
  "The Great Fire of 1869 destroyed 412 buildings in the harbour district, including the old town hall.",
  "The Great Fire of 1869 began in a bakery on Mill Street and burned for three days.",
  "After the Great Fire the council required every new building to be made of brick.",
  "The harbour reopened in 1870 with a new stone quay.",
];

describe("ask with the real retriever and store", () => {
  it("answers, stores the observation, and finds it again through the memory source", async () => {
    const { db } = store;
    const user = await findOrCreateUser(db, "loops-test");
    const ingested = await ingestDocuments({
      db,
      workspaceId: user.id,
      collection: "great-fire",
      documents: DOCUMENTS.map((text, i) => ({
        source: `fire/${i + 1}.md`,
        kind: "markdown" as const,
        title: `Fire ${i + 1}`,
        blocks: [{ text }],
        metadata: {},
      })),
    });
    const retriever = createRetriever({ db, workspaceId: user.id });
    const collection_id = ingested.collection_id;
    const ctx = {
      retrieve: retriever,
      questionRouter: retriever.routerFor(collection_id),
      // store's writer is what the loops' AppendObservations expects: the types must line up.
      appendObservations: observationWriter(db, user.id) satisfies AppendObservations,
      config: parseLoopsConfig({ observations: { path: null } }),
      logger: { warn: () => {} },
    };

    const first = await ask(
      { question: "How many buildings did the Great Fire destroy?", collection_id },
      ctx,
    );
    // Three of the four chunks are about the Great Fire and "destroy" is not in the collection
    // ("destroyed" is): the lexical evidence ties two documents, so the question grades low once;
    // the rewrite uses the hits' "destroyed" and resolves to the chunk that has the answer.
    expect(first.quality.grades.map((g) => g.quality_grade)).toEqual(["low", "medium"]);
    expect(first.quality.rewrites[0]?.query).toMatch(/^buildings great fire destroyed /i);
    expect(first.quality.sources).toContain("lexical");
    expect(first.quality.priority_source).toBe("lexical");
    expect(first.hits.length).toBeGreaterThan(0);
    expect(first.answer_exit).toBe("passed");
    expect(first.final_answer).toContain("412 buildings");
    const ids = new Set(first.hits.map((h) => h.node_id));
    for (const id of first.citations) expect(ids.has(id)).toBe(true);
    expect(first.action).toBe("show");
    expect(first.observations?.database).toEqual({ ok: true, rows: first.citations.length });

    const stored = await listObservations(db, user.id, collection_id);
    expect(stored.map((row) => row.node_id)).toEqual(first.citations);
    expect(stored[0]?.query).toBe("How many buildings did the Great Fire destroy?");

    const second = await ask(
      { question: "Which buildings did the Great Fire destroy?", collection_id },
      ctx,
    );
    expect(second.quality.sources).toEqual(["lexical", "memory"]);
    const remembered = second.hits.find((h) => h.node_id === first.citations[0]);
    expect(remembered?.sources).toContain("memory");
  });
});
