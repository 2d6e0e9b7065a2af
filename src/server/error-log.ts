// What the server logs of a failure. Drizzle wraps a driver error in one whose message is the SQL
// and its parameters, i.e. user content (answers, names, keys pasted into a field); PostgreSQL's
// own messages can quote a value too (`invalid input syntax for type integer: "…"`). A log line
// keeps what an operator needs (the error's class, SQLSTATE, constraint) and none of those.

import { redactSecrets } from "../llm/index.js";

const DB_FIELDS = ["table", "column", "constraint", "routine"] as const;

function fieldsOf(error: unknown): Record<string, unknown> {
  return typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {};
}

/** One line describing `error` without query parameters or values, secrets redacted. */
export function errorLogSummary(error: unknown): string {
  return redactSecrets(unredactedSummary(error));
}

function unredactedSummary(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const wrapped = error.name === "DrizzleQueryError" || "params" in error;
  const cause = wrapped ? (error as Error & { cause?: unknown }).cause : error;
  const fields = fieldsOf(cause);
  if (typeof fields.code === "string" && /^[0-9A-Z]{5}$/.test(fields.code)) {
    const details = DB_FIELDS.flatMap((key) =>
      typeof fields[key] === "string" ? [`${key} ${fields[key]}`] : [],
    );
    const name = cause instanceof Error ? cause.name : "Error";
    return [`database error ${fields.code} (${name})`, ...details].join(", ");
  }
  if (wrapped) {
    // Not from PostgreSQL (the connection or the database thread failed): its message is ours.
    const message = cause instanceof Error ? `${cause.name}: ${cause.message}` : "unknown cause";
    return `query failed (parameters withheld): ${message}`;
  }
  return `${error.name}: ${error.message}`;
}
