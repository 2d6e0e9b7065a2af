import { expect, it } from "vitest";
import { createApp } from "../src/server/index.js";
import { API_ROUTES } from "../src/server/routes/index.js";
import { ROLE_ACCESS } from "../src/server/access.js";
import { openApiPath } from "../src/server/route.js";
import {
  createApiToken,
  createInvitation,
  createWorkspace,
  findOrCreateUser,
  findWorkspaceOf,
  listWorkspacesOf,
  WORKSPACE_ROLES,
  type WorkspaceRole,
} from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

// Issue 28 §1: workspaces shared by their members, each with a role checked on every route.

const ORIGIN = "http://127.0.0.1:7357";

describeEachStore("workspaces", (use) => {
  const app = () => createApp({ db: use().db, maxBodyBytes: 1024 * 1024, origin: ORIGIN });

  /** A shared workspace with one member of each role, and a token for each in it. */
  async function team(name: string) {
    const { db } = use();
    const owner = await findOrCreateUser(db, `${name}-owner`);
    const workspace = await createWorkspace(db, owner.id, `${name} team`);
    const server = app();
    const tokens: Record<WorkspaceRole, string> = {
      owner: await createApiToken(db, owner.id, "", workspace.id),
      editor: "",
      annotator: "",
      viewer: "",
    };
    for (const role of ["editor", "annotator", "viewer"] as const) {
      const user = await findOrCreateUser(db, `${name}-${role}`);
      const invited = await server.request("/api/v1/workspace/invitations", {
        method: "POST",
        headers: { authorization: `Bearer ${tokens.owner}`, "content-type": "application/json" },
        body: JSON.stringify({ role }),
      });
      expect(invited.status).toBe(201);
      const { url } = (await invited.json()) as { url: string };
      const code = new URL(url).searchParams.get("code") ?? "";
      // The invited person's own account joins through the link's form, logged in by a session.
      const personal = await createApiToken(db, user.id);
      const login = await server.request("/api/v1/session", {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN },
        body: JSON.stringify({ token: personal }),
      });
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      const joined = await server.request("/invite", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: ORIGIN,
          cookie,
        },
        body: new URLSearchParams({ code }).toString(),
      });
      expect(joined.status).toBe(303);
      expect(joined.headers.get("location")).toBe(`/?workspace=${workspace.id}`);
      tokens[role] = await createApiToken(db, user.id, "", workspace.id);
    }
    return { server, workspace, owner, tokens };
  }

  const call = (
    server: ReturnType<typeof createApp>,
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ) =>
    server.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("walks every route of the OpenAPI document with each role: refused exactly where the role does not allow it", async () => {
    const { server, tokens } = await team("matrix");
    const document = (await (await server.request("/api/v1/openapi.json")).json()) as {
      paths: Record<string, Record<string, { "x-ragjudge-access"?: string; security?: [] }>>;
    };
    const nil = "00000000-0000-4000-8000-000000000000";
    let checked = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const spec = API_ROUTES.find(
          (route) => openApiPath(route.path) === path && route.method === method,
        );
        expect(spec, `${method} ${path} is a declared route`).toBeDefined();
        if (operation.security) continue; // public: no role involved
        const access = operation["x-ragjudge-access"];
        expect(access, `${method} ${path} declares its access`).toBeDefined();
        const url = path.replace(/\{\w+\}/g, nil);
        for (const role of WORKSPACE_ROLES) {
          // The delete of the workspace itself would end the walk: its refusal is what is checked.
          if (method === "delete" && path === "/api/v1/workspace" && role === "owner") continue;
          const body_ = method === "get" ? undefined : {};
          const response = await call(server, tokens[role], method.toUpperCase(), url, body_);
          const body = (await response.text()).slice(0, 200);
          const allowed = ROLE_ACCESS[role].includes(access as never);
          const refused = response.status === 403 && body.includes('"forbidden_role"');
          expect(refused, `${role} ${method} ${path}: ${response.status} ${body}`).toBe(!allowed);
          checked++;
        }
      }
    }
    const guarded = API_ROUTES.filter((route) => !route.public).length;
    // Every role on every guarded route, but the owner's deletion of the workspace.
    expect(checked).toBe(guarded * WORKSPACE_ROLES.length - 1);
    expect(guarded).toBeGreaterThan(80);
  }, 240_000);

  it("checks the OTLP door outside the route table by the same rule: sending traces is writing", async () => {
    const { server, tokens } = await team("otlp");
    for (const role of WORKSPACE_ROLES) {
      const response = await server.request("/v1/traces", {
        method: "POST",
        headers: { authorization: `Bearer ${tokens[role]}`, "content-type": "application/json" },
        body: JSON.stringify({ resourceSpans: [] }),
      });
      const body = await response.text();
      const allowed = ROLE_ACCESS[role].includes("write");
      expect(response.status, `${role}: ${body}`).toBe(allowed ? 200 : 403);
      if (!allowed) expect(JSON.parse(body)).toMatchObject({ error: "forbidden_role", role });
    }
  });

  it("shares a workspace's rows with its members, and answers 404 for another workspace's ids", async () => {
    const { server, tokens, workspace } = await team("share");
    const set = await call(server, tokens.editor, "POST", "/api/v1/question-sets", {
      name: "shared set",
      questions: [{ question_text: "What is shared?", ground_truth: "rows" }],
    });
    expect(set.status).toBe(201);
    const { id } = (await set.json()) as { id: string };
    // Every member who may read sees it; the annotator may not read sets at all.
    for (const role of ["owner", "editor", "viewer"] as const) {
      expect((await call(server, tokens[role], "GET", `/api/v1/question-sets/${id}`)).status).toBe(
        200,
      );
    }
    expect(
      (await call(server, tokens.annotator, "GET", `/api/v1/question-sets/${id}`)).status,
    ).toBe(403);
    // The editor's own personal workspace does not hold it: another workspace's id is missing.
    const { db } = use();
    const editor = await findOrCreateUser(db, "share-editor");
    const personal = await createApiToken(db, editor.id);
    expect((await call(server, personal, "GET", `/api/v1/question-sets/${id}`)).status).toBe(404);
    const listed = (await (await call(server, personal, "GET", "/api/v1/workspaces")).json()) as {
      items: { id: string; role: string; personal: boolean }[];
    };
    expect(listed.items.map((w) => [w.personal, w.role])).toEqual([
      [true, "owner"],
      [false, "editor"],
    ]);
    expect(listed.items[1]?.id).toBe(workspace.id);
  });

  it("ends a removed member's access at once: their token and their browser session", async () => {
    const { server, tokens, workspace } = await team("remove");
    const { db } = use();
    const viewer = await findOrCreateUser(db, "remove-viewer");
    const login = await server.request("/api/v1/session", {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: JSON.stringify({ token: await createApiToken(db, viewer.id) }),
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const inWorkspace = { cookie, "ragjudge-workspace": workspace.id };
    expect((await server.request("/api/v1/question-sets", { headers: inWorkspace })).status).toBe(
      200,
    );
    expect((await call(server, tokens.viewer, "GET", "/api/v1/question-sets")).status).toBe(200);

    const removed = await call(
      server,
      tokens.owner,
      "DELETE",
      `/api/v1/workspace/members/${viewer.id}`,
    );
    expect(removed.status).toBe(204);
    expect((await server.request("/api/v1/question-sets", { headers: inWorkspace })).status).toBe(
      404,
    );
    expect((await call(server, tokens.viewer, "GET", "/api/v1/question-sets")).status).toBe(401);
    // Their own workspace still opens.
    expect((await server.request("/api/v1/question-sets", { headers: { cookie } })).status).toBe(
      200,
    );
    // The removal is in the audit trail, with who did it.
    const audit = (await (
      await call(server, tokens.owner, "GET", "/api/v1/audit?subject_type=member")
    ).json()) as { items: { action: string; subject_id: string; user_name: string }[] };
    expect(audit.items[0]).toMatchObject({
      action: "member.remove",
      subject_id: viewer.id,
      user_name: "remove-owner",
    });
  });

  it("uses an invitation once, refuses an expired one, and never logs in as an existing name", async () => {
    const { server, tokens } = await team("invite");
    const invite = async (body: unknown) => {
      const response = await call(
        server,
        tokens.owner,
        "POST",
        "/api/v1/workspace/invitations",
        body,
      );
      expect(response.status).toBe(201);
      const { url } = (await response.json()) as { url: string };
      return new URL(url).searchParams.get("code") ?? "";
    };
    const join = (code: string, name: string) =>
      server.request("/invite", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams({ code, name }).toString(),
      });
    const code = await invite({ role: "annotator" });
    // The page names the workspace and the role before anything is used.
    const page = await server.request(`/invite?code=${code}`);
    expect(await page.text()).toContain("“invite team” as annotator");
    // An existing account's name is refused: the link never logs anyone in as someone else.
    const taken = await join(code, "invite-owner");
    expect(await taken.text()).toContain("That name is taken");
    const joined = await join(code, "newcomer");
    expect(joined.status).toBe(303);
    const cookie = (joined.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const session = (await (
      await server.request("/api/v1/session", {
        headers: {
          cookie,
          "ragjudge-workspace":
            new URL(`http://x${joined.headers.get("location")}`).searchParams.get("workspace") ??
            "",
        },
      })
    ).json()) as { user: { name: string }; workspace: { role: string; name: string } };
    expect(session).toMatchObject({
      user: { name: "newcomer" },
      workspace: { role: "annotator", name: "invite team" },
    });
    // Used once.
    expect((await join(code, "second")).status).toBe(404);
    // Expired: refused like a used one.
    const { db } = use();
    const expired = await createInvitation(db, {
      workspaceId: (await findOrCreateUser(db, "invite-owner")).id,
      role: "viewer",
      invitedBy: (await findOrCreateUser(db, "invite-owner")).id,
      ttlMs: -1_000,
    });
    expect((await join(expired.code, "late")).status).toBe(404);
    // From another site, nothing is used or counted.
    const fresh = await invite({ role: "viewer" });
    const foreign = await server.request("/invite", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.test" },
      body: new URLSearchParams({ code: fresh, name: "mallory" }).toString(),
    });
    expect(foreign.status).toBe(403);
    expect((await join(fresh, "viewer-two")).status).toBe(303);
    // Bad input names the field.
    const bad = await call(server, tokens.owner, "POST", "/api/v1/workspace/invitations", {
      role: "admin",
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("role");
  });

  it("keeps an owner: the last one cannot leave or be demoted, a personal workspace cannot be deleted", async () => {
    const { server, tokens, owner } = await team("owners");
    const demote = await call(
      server,
      tokens.owner,
      "PATCH",
      `/api/v1/workspace/members/${owner.id}`,
      {
        role: "viewer",
      },
    );
    expect(demote.status).toBe(409);
    const { db } = use();
    const personal = await createApiToken(db, owner.id);
    expect((await call(server, personal, "DELETE", "/api/v1/workspace")).status).toBe(409);
    expect((await call(server, tokens.owner, "DELETE", "/api/v1/workspace")).status).toBe(204);
    // Its tokens found their workspace gone with it.
    expect((await call(server, tokens.editor, "GET", "/api/v1/question-sets")).status).toBe(401);
  });

  it("reads one workspace's summary as its member sees it, and nothing for a stranger", async () => {
    const { db } = use();
    const { server, workspace, owner, tokens } = await team("summary");
    const stranger = await findOrCreateUser(db, "summary-stranger");
    const viewer = await findOrCreateUser(db, "summary-viewer");
    const listed = await listWorkspacesOf(db, viewer.id);
    expect(await findWorkspaceOf(db, viewer.id, workspace.id)).toEqual(
      listed.find((w) => w.id === workspace.id),
    );
    expect(await findWorkspaceOf(db, viewer.id, workspace.id)).toMatchObject({
      role: "viewer",
      members: 4,
      personal: false,
    });
    expect(await findWorkspaceOf(db, owner.id, owner.id)).toMatchObject({
      personal: true,
      members: 1,
    });
    expect(await findWorkspaceOf(db, stranger.id, workspace.id)).toBeUndefined();
    expect(await findWorkspaceOf(db, viewer.id, "not-a-uuid")).toBeUndefined();
    const current = await call(server, tokens.annotator, "GET", "/api/v1/workspace");
    expect(await current.json()).toMatchObject({ id: workspace.id, role: "annotator", members: 4 });
  });
});
