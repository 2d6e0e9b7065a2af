/**
 * Errors that mean "the database went away", not "the query is wrong": a restart or failover
 * (57P01 admin shutdown, 57P02 crash shutdown, 57P03 starting up), SQLSTATE class 08 (connection
 * exception), and the socket errors of a server that is down or restarting. A caller may wait and
 * try again; the pool opens fresh connections once the server is back.
 */
export function isConnectionError(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") {
      if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03") {
        return true;
      }
      if (SOCKET_CODES.has(code)) return true;
    }
    if (CONNECTION_MESSAGES.some((pattern) => pattern.test(e.message))) return true;
  }
  return false;
}

const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND"]);

/** node-postgres reports a dropped connection by message, without a code. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /is not queryable/,
  /^Client was closed and is not queryable/,
];
