import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, vi } from "vitest";
import type { Page } from "playwright-core";
import type { AppServer } from "./app-server.js";

const EXAMPLES = new URL("../../../examples/", import.meta.url).pathname;

/** The bundled Lanting corpus as a collection, uploaded through the API. */
export async function lantingCollection(server: AppServer, name = "lanting"): Promise<string> {
  const { id } = await server.json<{ id: string }>("/api/v1/collections", {
    method: "POST",
    json: { name },
  });
  const dir = join(EXAMPLES, "corpus");
  const documents = readdirSync(dir).map((file) => ({
    name: file,
    content: readFileSync(join(dir, file), "utf8"),
  }));
  await server.json(`/api/v1/collections/${id}/documents`, { method: "POST", json: { documents } });
  return id;
}

/** The bundled 24 Lanting questions as a question set. */
export async function lantingQuestionSet(
  server: AppServer,
  collectionId: string,
  name = "lanting-questions",
): Promise<string> {
  const content = readFileSync(join(EXAMPLES, "eval/lanting-questions.jsonl"), "utf8");
  const set = await server.json<{ id: string }>("/api/v1/question-sets/import", {
    method: "POST",
    json: { name, format: "jsonl", content, collection_id: collectionId },
  });
  return set.id;
}

/** Polls a run until it is final (asking with `token`, default the local user's); its status. */
export function waitForRun(server: AppServer, id: string, token?: string): Promise<string> {
  return vi.waitFor(
    async () => {
      const run = await server.json<{ status: string }>(`/api/v1/evaluations/${id}`, {
        ...(token ? { token } : {}),
      });
      expect(["COMPLETED", "FAILED", "CANCELLED"]).toContain(run.status);
      return run.status;
    },
    { timeout: 60_000, interval: 250 },
  );
}

/** A question file with two bad rows (line 3: no question; line 4: an unknown type) among good ones. */
export const BAD_QUESTION_CSV =
  "question,answer,type\nWhen did Line 1 open?,2009,FACTUAL\n,no question here,FACTUAL\nHow long is the quay?,140 m,SOMETIMES\n";

/** Chooses `csv` as `bad.csv` in the question-set page's file input. */
export async function chooseQuestionFile(page: Page, csv = BAD_QUESTION_CSV): Promise<void> {
  await page
    .getByTestId("question-file")
    .setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
}
