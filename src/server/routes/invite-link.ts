import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import {
  acceptInvitation,
  createNamedUser,
  createWebSession,
  findInvitation,
  findUserBySession,
  recordAudit,
  type User,
} from "../../store/index.js";
import { ownOrigin, SESSION_COOKIE, setSessionCookie } from "../auth.js";
import type { App, RouteDeps } from "../http.js";
import { clientAddress, type LoginLimiter, tooManyAttempts } from "../login-limiter.js";
import { PAGE_HEADERS } from "../web-app.js";
import { escapeHtml, MAX_FORM_BYTES, readForm } from "./form-page.js";

// An invitation link, `GET /invite?code=…` (issue 28): a page that says which workspace and role
// it offers and, for someone not logged in, asks for the name of their new account. Its form,
// `POST /invite`, must come from this server's own origin (like the login link: no other site can
// spend a code or an address's failures). The code is used once: the account, the membership and
// a browser session are made, and the browser lands in the workspace.

const NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._@-]{0,63}$/u;

const WORDS = {
  en: {
    title: "Join a ragjudge workspace",
    offer: (workspace: string, role: string) =>
      `You are invited to the workspace “${workspace}” as ${role}.`,
    as: (name: string) => `You will join as ${name}.`,
    name: "Your name (letters, digits, spaces, . _ @ -; up to 64)",
    button: "Join",
    invalid: "This invitation is not valid: it was used, it expired, or it was withdrawn.",
    name_taken: "That name is taken: choose another.",
    bad_name: "A name is 1-64 letters, digits, spaces or . _ @ -, starting with a letter or digit.",
    elsewhere: "The form must be sent from this page.",
    roles: { owner: "owner", editor: "editor", annotator: "annotator", viewer: "viewer" },
  },
  zh: {
    title: "加入 ragjudge 工作区",
    offer: (workspace: string, role: string) => `你受邀以“${role}”身份加入工作区“${workspace}”。`,
    as: (name: string) => `你将以 ${name} 的身份加入。`,
    name: "你的名字（字母、数字、空格、. _ @ -，最多 64 个字符）",
    button: "加入",
    invalid: "此邀请无效：已被使用、已过期或已撤回。",
    name_taken: "该名字已被使用，请换一个。",
    bad_name: "名字为 1-64 个字母、数字、空格或 . _ @ -，以字母或数字开头。",
    elsewhere: "表单必须从本页面提交。",
    roles: { owner: "所有者", editor: "编辑者", annotator: "标注员", viewer: "查看者" },
  },
} as const;

type Words = (typeof WORDS)[keyof typeof WORDS];
type Problem = "invalid" | "name_taken" | "bad_name" | "elsewhere";
const PROBLEM_STATUS = { invalid: 404, name_taken: 409, bad_name: 400, elsewhere: 403 } as const;

function wordsFor(c: Context): Words {
  return /^\s*zh\b/i.test(c.req.header("accept-language") ?? "") ? WORDS.zh : WORDS.en;
}

async function sessionUser(c: Context, deps: RouteDeps): Promise<User | undefined> {
  const cookie = getCookie(c, SESSION_COOKIE);
  return cookie ? (await findUserBySession(deps.db, cookie))?.user : undefined;
}

async function invitePage(c: Context, deps: RouteDeps, code: string, problem?: Problem) {
  const words = wordsFor(c);
  const offer = await findInvitation(deps.db, code);
  const user = offer ? await sessionUser(c, deps) : undefined;
  const body = !offer
    ? `<p role="alert">${words.invalid}</p>`
    : `<p>${escapeHtml(words.offer(offer.workspace, words.roles[offer.role]))}</p>
${problem ? `<p role="alert">${words[problem]}</p>` : ""}
<form method="post" action="/invite">
<input type="hidden" name="code" value="${escapeHtml(code)}">
${
  user
    ? `<p>${escapeHtml(words.as(user.name))}</p>`
    : `<label>${words.name}<br><input name="name" required maxlength="64" autocomplete="username"></label><br><br>`
}
<button type="submit">${words.button}</button>
</form>`;
  const html = `<!doctype html>
<html lang="${words === WORDS.zh ? "zh" : "en"}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${words.title}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem">
<main><h1>${words.title}</h1>${body}</main></body></html>`;
  // A refused form says why in the page, and in its status for whatever reads it without a screen.
  const status = !offer ? 404 : problem ? PROBLEM_STATUS[problem] : 200;
  return c.html(html, status, {
    ...PAGE_HEADERS,
    // `same-origin` keeps the Origin header on the form's POST; no referrer (with the code) leaves.
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
    "content-security-policy":
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  });
}

export function inviteRoute(app: App, deps: RouteDeps, limiter: LoginLimiter) {
  app.get("/invite", async (c) => invitePage(c, deps, c.req.query("code") ?? ""));

  app.post("/invite", async (c) => {
    if (c.req.header("origin") !== ownOrigin(c, deps.origin)) {
      return c.html(`<p>${wordsFor(c).elsewhere}</p>`, 403, PAGE_HEADERS);
    }
    const address = clientAddress(c);
    const wait = limiter.blockedFor(address);
    if (wait !== undefined) return tooManyAttempts(c, wait);
    const form = await readForm(c);
    if (!form) return c.text(`An invitation form is at most ${MAX_FORM_BYTES} bytes.`, 413);
    const code = form.get("code") ?? "";
    // A code that matches nothing counts against the address, as a wrong login code does.
    if (!code || !(await findInvitation(deps.db, code))) {
      if (code) limiter.fail(address, code);
      return invitePage(c, deps, code);
    }
    let user = await sessionUser(c, deps);
    if (!user) {
      const name = (form.get("name") ?? "").trim();
      if (!NAME.test(name)) return invitePage(c, deps, code, "bad_name");
      // An existing name is refused: an invitation never logs anyone in as someone else.
      user = await createNamedUser(deps.db, name);
      if (!user) return invitePage(c, deps, code, "name_taken");
    }
    const joined = await acceptInvitation(deps.db, code, user.id);
    if (!joined) return invitePage(c, deps, code);
    await recordAudit(deps.db, {
      workspaceId: joined.id,
      userId: user.id,
      action: "member.join",
      subjectType: "member",
      subjectId: user.id,
      detail: { role: joined.role },
    });
    const session = await createWebSession(deps.db, user.id);
    setSessionCookie(c, session, deps.origin);
    limiter.hold(address, session.token);
    const landing = `/?workspace=${encodeURIComponent(joined.id)}`;
    return c.body(null, 303, { ...PAGE_HEADERS, location: landing, "cache-control": "no-store" });
  });
}
