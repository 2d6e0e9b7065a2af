import type { Context } from "hono";
import { z } from "zod";
import {
  createWebSession,
  deleteWebSession,
  findUserByToken,
  redeemLoginCode,
} from "../../store/index.js";
import { safeLandingPath } from "../../text/index.js";
import { clearSessionCookie, ownOrigin, setSessionCookie } from "../auth.js";
import { type App, requireJsonBody, type RouteDeps } from "../http.js";
import { clientAddress, type LoginLimiter, tooManyAttempts } from "../login-limiter.js";
import { defineRoute, mountRoute } from "../route.js";
import { ErrorSchema, SessionCreatedSchema, SessionSchema } from "../schemas.js";
import { PAGE_HEADERS } from "../web-app.js";

function redirect(c: Context, location: string) {
  return c.body(null, 303, { ...PAGE_HEADERS, location, "cache-control": "no-store" });
}

/**
 * True when the browser says another site sent it here (`Sec-Fetch-Site: cross-site` or
 * `same-site`: another port of the same host is same-site). A link pasted into the address bar
 * or opened from a terminal comes as `none`; a request from a script or an older browser comes
 * without the header and is taken as it is.
 */
function sentByAnotherSite(c: Context): boolean {
  const site = c.req.header("sec-fetch-site");
  return site === "cross-site" || site === "same-site";
}

/**
 * `GET /login?code=…[&next=/path]`: the link `ragjudge serve` prints. The code is used up, a
 * session cookie set, and the browser sent on to a URL without the code. `/login` without a
 * code is the web app's own login page (paste a token), served like any other page.
 *
 * A code arriving from another site's page (an `<img>`, a link) is neither looked up nor counted
 * as a failure: any page could otherwise lock everyone at an address out of logging in, or log
 * the browser in to a session of someone else's choosing. It stays valid for a paste.
 */
export function loginLinkRoute(app: App, deps: RouteDeps, limiter: LoginLimiter) {
  app.get("/login", async (c, next) => {
    const code = c.req.query("code");
    if (code === undefined) return next();
    if (sentByAnotherSite(c)) return redirect(c, "/login?error=link_from_elsewhere");
    const address = clientAddress(c);
    const wait = limiter.blockedFor(address);
    if (wait !== undefined) return tooManyAttempts(c, wait);
    // Decided before the code is spent; percent-encoded, so the answer cannot fail on its header.
    const landing = safeLandingPath(c.req.query("next"), ownOrigin(c, deps.origin));
    const redeemed = code ? await redeemLoginCode(deps.db, code) : undefined;
    if (!redeemed) {
      if (code) limiter.fail(address, code);
      return redirect(c, "/login?error=invalid_code");
    }
    setSessionCookie(c, redeemed.session, deps.origin);
    return redirect(c, landing);
  });
}

export const SessionLoginSchema = z.object({
  token: z.string().trim().min(1).max(1_000).describe("an API token (see `ragjudge token`)"),
});

const error = (description: string) => ({ description, schema: ErrorSchema });

export const sessionApi = {
  login: defineRoute({
    method: "post",
    path: "/api/v1/session",
    tags: ["session"],
    summary: "Log the browser in with an API token: sets the HttpOnly session cookie",
    public: true,
    body: SessionLoginSchema,
    responses: {
      201: { description: "Logged in; the cookie is set", schema: SessionCreatedSchema },
      400: error("Invalid body"),
      401: error("Unknown API token"),
      403: error("Sent from another origin"),
      415: error("The body is not application/json"),
      429: error(
        "Too many wrong tokens, cookies or login codes from this address: wait for Retry-After seconds",
      ),
    },
  }),
  get: defineRoute({
    method: "get",
    path: "/api/v1/session",
    tags: ["session"],
    summary: "Who is logged in, and how (cookie or bearer token)",
    responses: { 200: { description: "The caller", schema: SessionSchema } },
  }),
  logout: defineRoute({
    method: "delete",
    path: "/api/v1/session",
    tags: ["session"],
    summary: "Log out: ends the cookie's session and clears the cookie",
    responses: { 204: { description: "Logged out" } },
  }),
};

/** `POST /api/v1/session` turns a pasted API token into a cookie; it needs no prior login. */
export function sessionLoginRoute(app: App, deps: RouteDeps, limiter: LoginLimiter) {
  // Anything may send this request; a browser on another site must not log anyone in.
  app.post("/api/v1/session", async (c, next) => {
    const origin = c.req.header("origin");
    if (origin !== undefined && origin !== ownOrigin(c, deps.origin)) {
      return c.json({ error: "forbidden_origin", message: "Log in from the app's own page." }, 403);
    }
    // Before the body is read: a blocked address costs no parse and no lookup.
    const wait = limiter.blockedFor(clientAddress(c));
    if (wait !== undefined) return tooManyAttempts(c, wait);
    return next();
  });
  app.post("/api/v1/session", requireJsonBody);
  mountRoute(app, deps, sessionApi.login, async (c, { body }) => {
    const user = await findUserByToken(deps.db, body.token);
    if (!user) {
      limiter.fail(clientAddress(c), body.token);
      return c.json(
        { error: "unauthorized", message: "Unknown API token (see `ragjudge token`)." },
        401,
      );
    }
    const session = await createWebSession(deps.db, user.id);
    setSessionCookie(c, session, deps.origin);
    return c.json(
      { user: { id: user.id, name: user.name }, expires_at: session.expiresAt.toISOString() },
      201,
    );
  });
}

/** `GET` and `DELETE /api/v1/session`, behind the auth middleware. */
export function sessionRoutes(app: App, deps: RouteDeps) {
  mountRoute(app, deps, sessionApi.get, (c) => {
    const { id, name } = c.get("user");
    const auth = c.get("auth");
    return c.json({
      user: { id, name },
      via: auth.via,
      expires_at: auth.via === "cookie" ? auth.expiresAt.toISOString() : null,
    });
  });

  mountRoute(app, deps, sessionApi.logout, async (c) => {
    const auth = c.get("auth");
    if (auth.via === "cookie") await deleteWebSession(deps.db, auth.token);
    clearSessionCookie(c);
    return c.body(null, 204);
  });
}
