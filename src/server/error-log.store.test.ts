import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { openTestStore } from "../../test/support/stores.js";
import { errorLogSummary } from "./error-log.js";

it("logs a failed query's SQLSTATE, never its parameters or the value PostgreSQL quotes", async () => {
  const store = await openTestStore("pglite");
  try {
    const secret = "my-private-answer";
    const failures = [
      store.db.execute(sql`select ${`${secret}\u0000`}::text`),
      store.db.execute(sql`select ${secret}::integer`),
    ];
    for (const failure of failures) {
      const error = await failure.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      // Drizzle's own message holds the parameter: the reason for this summary.
      expect(String((error as Error).message)).toContain(secret);
      const summary = errorLogSummary(error);
      expect(summary).toMatch(/^database error [0-9A-Z]{5} /);
      expect(summary).not.toContain(secret);
    }
  } finally {
    await store.close();
  }
});

it("keeps the message of an error that is not a query's", () => {
  expect(errorLogSummary(new TypeError("x is not a function"))).toBe(
    "TypeError: x is not a function",
  );
});
