import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
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

/** Polls a run until it is final; returns its status. */
export async function waitForRun(
  server: AppServer,
  id: string,
  timeoutMs = 60_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await server.json<{ status: string }>(`/api/v1/evaluations/${id}`);
    if (["COMPLETED", "FAILED", "CANCELLED"].includes(run.status)) return run.status;
    if (Date.now() > deadline)
      throw new Error(`run ${id} still ${run.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
