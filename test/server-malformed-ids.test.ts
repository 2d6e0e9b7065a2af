// Issue 15 §1.5: every route that names a row by id answers a malformed id as it answers another
// user's: 404, never a 500 from PostgreSQL's "invalid input syntax for type uuid". The routes are
// taken from the route table, so a new route with an id is covered when it is declared.

import { expect, it } from "vitest";
import { createApp } from "../src/server/index.js";
import { API_ROUTES } from "../src/server/routes/index.js";
import { createApiToken, findOrCreateUser } from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

/** A valid value for the path parameters that are not ids (the label scale). */
const NOT_IDS: Record<string, string> = { scale: "1-5" };
const MALFORMED = ["not-a-uuid", "1", "00000000-0000-0000-0000-00000000000g"];

const withIds = API_ROUTES.filter((route) => /:(id|\w+Id)\b/.test(route.path));

it("finds the routes with ids in the route table", () => {
  const families = new Set(withIds.map((route) => route.path.split("/")[3]));
  // Evaluations (with labels), question sets (and generations, questions), collections, gate
  // records, bots, arenas, production answers, ingest keys, alert rules, monitors, annotation
  // queues (and their items).
  expect([...families].sort()).toEqual(
    [
      "alert-rules",
      "answers",
      "arenas",
      "bots",
      "collections",
      "evaluation-records",
      "ingest-keys",
      "monitors",
      "evaluations",
      "question-sets",
      "queues",
    ].sort(),
  );
});

describeEachStore("HTTP API: malformed ids", (use) => {
  it("answers 404 for a malformed id on every route that takes one", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const token = await createApiToken(db, user.id);
    const app = createApp({ db, webDir: false });
    for (const route of withIds) {
      for (const bad of MALFORMED) {
        const path = route.path.replace(/:(\w+)/g, (_, name: string) => NOT_IDS[name] ?? bad);
        const response = await app.request(`http://127.0.0.1${path}`, {
          method: route.method.toUpperCase(),
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          ...(route.method === "get" ? {} : { body: "{}" }),
        });
        expect(response.status, `${route.method.toUpperCase()} ${path}`).toBe(404);
        expect(((await response.json()) as { error: string }).error).toBe("not_found");
      }
    }
  });
});
