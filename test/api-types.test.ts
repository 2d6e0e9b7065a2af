import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { API_TYPES_PATH, apiTypesSource } from "../scripts/gen-api-types.js";

const generated = apiTypesSource();

it("keeps the web app's committed API types equal to what the server declares now", async () => {
  const committed = readFileSync(API_TYPES_PATH, "utf8");
  const current = await generated;
  // On failure: run `npm run gen:api` and commit web/src/api/schema.d.ts.
  expect(committed === current, "web/src/api/schema.d.ts is stale: run `npm run gen:api`").toBe(
    true,
  );
  expect(current).toContain('"/api/v1/evaluations/{id}/results"');
});

it("types a request's defaulted fields as optional (the server fills them), a response's as present", async () => {
  const current = await generated;
  const component = (name: string) => {
    const start = current.indexOf(`\n    ${name}: {`);
    return current.slice(start, current.indexOf("\n    };", start));
  };
  // EvaluationRequest: judges, bot and no_cache have defaults the server fills.
  const request = component("EvaluationRequest");
  expect(request).toMatch(/\n {6}judges\?: /);
  expect(request).toMatch(/\n {6}no_cache\?: boolean;/);
  expect(request).toMatch(/\n {6}bot\?:/);
  // A response's config echoes the gate's defaults filled in: always there.
  const response = component("GateResponse");
  expect(response).toContain("@default true */\n            enabled: boolean;");
  expect(response).not.toContain("enabled?:");
});
