import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { API_TYPES_PATH, apiTypesSource } from "../scripts/gen-api-types.js";

it("keeps the web app's committed API types equal to what the server declares now", async () => {
  const committed = readFileSync(API_TYPES_PATH, "utf8");
  const current = await apiTypesSource();
  // On failure: run `npm run gen:api` and commit web/src/api/schema.d.ts.
  expect(committed === current, "web/src/api/schema.d.ts is stale: run `npm run gen:api`").toBe(
    true,
  );
  expect(current).toContain('"/api/v1/evaluations/{id}/results"');
});
