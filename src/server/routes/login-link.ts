import { createHash } from "node:crypto";
import type { Context } from "hono";
import { redeemLoginCode } from "../../store/index.js";
import { safeLandingPath } from "../../text/index.js";
import { ownOrigin, setSessionCookie } from "../auth.js";
import { type App, type RouteDeps } from "../http.js";
import { clientAddress, type LoginLimiter, tooManyAttempts } from "../login-limiter.js";
import { PAGE_HEADERS } from "../web-app.js";
import { escapeHtml, MAX_FORM_BYTES, readForm } from "./form-page.js";

// The login link `ragjudge serve` prints, `GET /login?code=…[&next=/path]`. Opening it only shows
// a page; the code is redeemed by that page's form, `POST /login`, which must carry this server's
// own Origin. Any page can make a browser GET a URL (an `<img>`, a link), so a GET that redeemed
// or counted codes would let another site lock an address out of logging in, or log the browser
// in to a session of its choosing. Browsers add `Sec-Fetch-Site` only for https and loopback, so
// that header cannot tell the two apart over plain http; `Origin` on a POST they always send.

const WORDS = {
  en: {
    title: "Log in to ragjudge",
    intro: "This link logs this browser in to ragjudge. Press the button to continue.",
    button: "Log in",
  },
  zh: {
    title: "登录 ragjudge",
    intro: "此链接会让本浏览器登录 ragjudge。请点击按钮继续。",
    button: "登录",
  },
} as const;

// Submits at once when the person opened the link themselves (pasted, typed, from a terminal):
// `Sec-Fetch-Site: none`, which no other site can make a browser send. Otherwise they press the
// button. The script drops the code from the address bar first.
const AUTO_SUBMIT = `history.replaceState(null,"","/login");document.forms[0].submit();`;
const AUTO_SUBMIT_HASH = createHash("sha256").update(AUTO_SUBMIT).digest("base64");

function confirmPage(c: Context, code: string, next: string | undefined): Response {
  const chinese = /^\s*zh\b/i.test(c.req.header("accept-language") ?? "");
  const words = chinese ? WORDS.zh : WORDS.en;
  const openedByPerson = c.req.header("sec-fetch-site") === "none";
  const html = `<!doctype html>
<html lang="${chinese ? "zh" : "en"}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${words.title}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem">
<main><h1>${words.title}</h1><p>${words.intro}</p>
<form method="post" action="/login">
<input type="hidden" name="code" value="${escapeHtml(code)}">
${next === undefined ? "" : `<input type="hidden" name="next" value="${escapeHtml(next)}">`}
<button type="submit">${words.button}</button>
</form></main>
${openedByPerson ? `<script>${AUTO_SUBMIT}</script>` : ""}
</body></html>`;
  return c.html(html, 200, {
    ...PAGE_HEADERS,
    // A form posted under `no-referrer` carries `Origin: null`; `same-origin` keeps the real one
    // for this server and still sends no referrer (with its code) anywhere else.
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
    "content-security-policy": `default-src 'none'; script-src 'sha256-${AUTO_SUBMIT_HASH}'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  });
}

function redirect(c: Context, location: string) {
  return c.body(null, 303, { ...PAGE_HEADERS, location, "cache-control": "no-store" });
}

/**
 * `GET /login?code=…` shows the page that redeems the code; `/login` without a code is the web
 * app's own login page (paste a token), served like any other page. `POST /login` redeems: from
 * another origin (or none) it is refused without a lookup and without counting, so no other site
 * can use a code or spend the address's failures; from this origin, a code that matches nothing
 * counts against the address as any wrong secret does.
 */
export function loginLinkRoute(app: App, deps: RouteDeps, limiter: LoginLimiter) {
  app.get("/login", async (c, next) => {
    const code = c.req.query("code");
    if (code === undefined) return next();
    return confirmPage(c, code, c.req.query("next"));
  });

  app.post("/login", async (c) => {
    if (c.req.header("origin") !== ownOrigin(c, deps.origin)) {
      return redirect(c, "/login?error=link_from_elsewhere");
    }
    const address = clientAddress(c);
    const wait = limiter.blockedFor(address);
    if (wait !== undefined) return tooManyAttempts(c, wait);
    const form = await readForm(c);
    if (!form) return c.text(`A login form is at most ${MAX_FORM_BYTES} bytes.`, 413);
    const code = form.get("code") ?? "";
    // Decided before the code is spent; percent-encoded, so the answer cannot fail on its header.
    const landing = safeLandingPath(form.get("next") ?? undefined, ownOrigin(c, deps.origin));
    const redeemed = code ? await redeemLoginCode(deps.db, code) : undefined;
    if (!redeemed) {
      if (code) limiter.fail(address, code);
      return redirect(c, "/login?error=invalid_code");
    }
    setSessionCookie(c, redeemed.session, deps.origin);
    limiter.hold(address, redeemed.session.token);
    return redirect(c, landing);
  });
}
