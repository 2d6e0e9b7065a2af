import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import {
  type Actor,
  type Db,
  findMembership,
  findTokenCaller,
  findUserBySession,
  type WebSession,
} from "../store/index.js";
import { bearerToken, type Env } from "./http.js";
import { clientAddress, type LoginLimiter, tooManyAttempts } from "./login-limiter.js";

// Who is calling: a script with `Authorization: Bearer <token>`, or the web app with its session
// cookie. A cookie rides along on any request the browser makes, so cookie-authenticated requests
// that change state must come from this server's own origin (no cross-site request forgery).

export const SESSION_COOKIE = "ragjudge_session";

/**
 * The workspace a cookie-authenticated request acts in (the web app sends the one picked); absent,
 * the user's personal workspace. A token acts in the workspace it was made for.
 */
export const WORKSPACE_HEADER = "ragjudge-workspace";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The origin the app is served from: the configured one, or the one the request was sent to. */
export function ownOrigin(c: Context, configured?: string): string {
  return configured ?? new URL(c.req.url).origin;
}

/** True when a state-changing request's Origin is this server's own; safe methods always pass. */
export function sameOrigin(c: Context, configured?: string): boolean {
  if (SAFE_METHODS.has(c.req.method)) return true;
  return c.req.header("origin") === ownOrigin(c, configured);
}

/**
 * What an ingest key may do: send production answers, traces and people's feedback on them (issue 24),
 * nothing else. Each is "METHOD path", `:id` standing for one path segment.
 */
const INGEST_REQUESTS = [
  "POST /api/v1/answers",
  "POST /api/v1/answers/:id/feedback",
  "POST /api/v1/answers/feedback",
  "POST /v1/traces",
].map((route) => new RegExp(`^${route.replaceAll(":id", "[^/]+")}$`));

function isIngestRequest(c: Context): boolean {
  const request = `${c.req.method} ${new URL(c.req.url).pathname.replace(/\/+$/, "")}`;
  return INGEST_REQUESTS.some((pattern) => pattern.test(request));
}

function ingestKeyOnly(c: Context) {
  const message =
    "This is an ingest key: it can send answers (POST /api/v1/answers), traces (POST /v1/traces) and feedback on answers (POST /api/v1/answers/{id}/feedback), and read nothing. Use an API token (`ragjudge token create`) for anything else.";
  return c.json({ error: "ingest_key_only", message }, 403);
}

export function setSessionCookie(c: Context, session: WebSession, configured?: string) {
  setCookie(c, SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: "Strict",
    path: "/",
    secure: ownOrigin(c, configured).startsWith("https:"),
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(c: Context) {
  deleteCookie(c, SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "Strict" });
}

/**
 * Sets the caller on the context, or answers 401; a cookie-authenticated request that changes
 * state from another origin (or with none) answers 403. A bearer token wins over a cookie. A
 * token or cookie that matches nobody counts against the address in `limiter`, as a failed login
 * does. While the address is blocked, only a token or cookie it has already used with success is
 * looked up (its people stay logged in); any other is refused (429) unlooked, a right one too.
 */
export function authenticate(db: Db, limiter: LoginLimiter, configuredOrigin?: string) {
  return createMiddleware<Env>(async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    const cookie = token ? undefined : getCookie(c, SESSION_COOKIE);
    const secret = token || cookie;
    if (secret) {
      const address = clientAddress(c);
      const wait = limiter.blockedFor(address);
      if (wait !== undefined && !limiter.holds(address, secret)) return tooManyAttempts(c, wait);
      if (token) {
        const caller = await findTokenCaller(db, token);
        if (caller) {
          limiter.hold(address, token);
          if (caller.scope === "ingest" && !isIngestRequest(c)) return ingestKeyOnly(c);
          c.set("user", caller.user);
          c.set("auth", { via: "bearer", scope: caller.scope });
          c.set("workspace", caller.workspace);
          return next();
        }
      } else if (cookie) {
        const session = await findUserBySession(db, cookie);
        if (session) {
          limiter.hold(address, cookie);
          if (!sameOrigin(c, configuredOrigin)) {
            const message = `A request that changes state with the session cookie must come from ${ownOrigin(c, configuredOrigin)} (its Origin header).`;
            return c.json({ error: "forbidden_origin", message }, 403);
          }
          // Membership is read on every request, so a member removed loses access at once.
          const wanted = c.req.header(WORKSPACE_HEADER) || session.user.id;
          const workspace = await findMembership(db, session.user.id, wanted);
          if (!workspace) {
            const message = `No such workspace: ${wanted}.`;
            return c.json({ error: "no_such_workspace", message }, 404);
          }
          c.set("user", session.user);
          c.set("auth", { via: "cookie", token: cookie, expiresAt: session.expiresAt });
          c.set("workspace", workspace);
          return next();
        }
        // An expired or ended session: the browser stops sending it.
        clearSessionCookie(c);
      }
      // A held secret that stopped matching (ended, revoked) during a block: still no guess.
      if (wait !== undefined) return tooManyAttempts(c, wait);
      limiter.fail(address, secret);
    }
    const message =
      "Send `Authorization: Bearer <token>` (see `ragjudge token`), or log in to the web app.";
    return c.json({ error: "unauthorized", message }, 401);
  });
}

/** The caller as the one who acts in the request's workspace. */
export function actorOf(c: Context<Env>): Actor {
  return { workspaceId: c.get("workspace").id, userId: c.get("user").id };
}
