import {
  createWebSession,
  deleteWebSession,
  findUserByToken,
  findWorkspace,
} from "../../store/index.js";
import { clearSessionCookie, ownOrigin, setSessionCookie } from "../auth.js";
import { type App, requireJsonBody, type RouteDeps } from "../http.js";
import { clientAddress, type LoginLimiter, tooManyAttempts } from "../login-limiter.js";
import { defineRoute, mountRoute } from "../route.js";
import {
  ErrorSchema,
  SessionCreatedSchema,
  SessionLoginSchema,
  SessionSchema,
} from "../schemas/index.js";
import { requestSchema } from "../components.js";

const error = (description: string) => ({ description, schema: ErrorSchema });

export const sessionApi = {
  login: defineRoute({
    method: "post",
    path: "/api/v1/session",
    tags: ["session"],
    summary: "Log the browser in with an API token: sets the HttpOnly session cookie",
    public: true,
    body: requestSchema("SessionLogin", SessionLoginSchema),
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
    access: "member",
    tags: ["session"],
    summary: "Who is logged in, and how (cookie or bearer token)",
    responses: { 200: { description: "The caller", schema: SessionSchema } },
  }),
  logout: defineRoute({
    method: "delete",
    path: "/api/v1/session",
    access: "member",
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
    limiter.hold(clientAddress(c), session.token);
    return c.json(
      { user: { id: user.id, name: user.name }, expires_at: session.expiresAt.toISOString() },
      201,
    );
  });
}

/** `GET` and `DELETE /api/v1/session`, behind the auth middleware. */
export function sessionRoutes(app: App, deps: RouteDeps) {
  mountRoute(app, deps, sessionApi.get, async (c) => {
    const { id, name } = c.get("user");
    const auth = c.get("auth");
    const { role } = c.get("workspace");
    const workspace = await findWorkspace(deps.db, c.get("workspace").id);
    return c.json(
      {
        user: { id, name },
        via: auth.via,
        expires_at: auth.via === "cookie" ? auth.expiresAt.toISOString() : null,
        workspace: {
          id: c.get("workspace").id,
          name: workspace?.name ?? "",
          personal: workspace?.personal ?? false,
          role,
        },
      },
      200,
    );
  });

  mountRoute(app, deps, sessionApi.logout, async (c) => {
    const auth = c.get("auth");
    if (auth.via === "cookie") await deleteWebSession(deps.db, auth.token);
    clearSessionCookie(c);
    return c.body(null, 204);
  });
}
