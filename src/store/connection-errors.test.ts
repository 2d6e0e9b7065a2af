import { expect, it } from "vitest";
import { isConnectionError } from "./connection-errors.js";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

it("tells a lost or refused connection from a query's own error", () => {
  expect(
    isConnectionError(withCode("57P01", "terminating connection due to administrator command")),
  ).toBe(true);
  expect(isConnectionError(withCode("08006"))).toBe(true);
  expect(isConnectionError(withCode("ECONNREFUSED"))).toBe(true);
  expect(isConnectionError(new Error("Connection terminated unexpectedly"))).toBe(true);
  // drizzle wraps the driver's error in its own: the cause chain is read.
  expect(isConnectionError(new Error("Failed query", { cause: withCode("57P01") }))).toBe(true);
  expect(isConnectionError(withCode("23505", "duplicate key value"))).toBe(false);
  expect(isConnectionError(withCode("42P01", "relation does not exist"))).toBe(false);
  expect(isConnectionError("57P01")).toBe(false);
});
