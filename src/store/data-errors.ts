/**
 * Why the database refused the values of a write, or undefined when the error is not the rows'
 * fault (the database is down, say): SQLSTATE class 22 (data exception, e.g. a value out of range),
 * 23 (integrity constraint violation, e.g. a CHECK or a foreign key) and 54 (program limit
 * exceeded, e.g. a jsonb value or an index entry too large). Writing the same rows again one at a
 * time then stores all but the ones at fault. The reason is PostgreSQL's own message: a driver's
 * wrapper (drizzle's "Failed query: …") would repeat the statement and its parameters.
 */
export function dataErrorOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^(22|23|54)[0-9A-Z]{3}$/.test(code)) {
      return `${e.message} (SQLSTATE ${code})`;
    }
  }
  return undefined;
}
