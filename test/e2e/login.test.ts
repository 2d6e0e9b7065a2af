import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";

// Logging in by the link `ragjudge serve` prints and by a pasted token, a foreign page refused,
// and a second user who sees none of the first user's data.

let server: AppServer;
let browser: Browser;
let evaluationId = "";
let setName = "";

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startAppServer({ databaseUrl: await e2eDatabase() }),
    launchBrowser(),
  ]);
  // The first user's data: a question set and a run on it.
  const collection = await server.json<{ id: string }>("/api/v1/collections", {
    method: "POST",
    json: { name: "docs" },
  });
  await server.api(`/api/v1/collections/${collection.id}/documents`, {
    method: "POST",
    json: {
      documents: [
        {
          name: "metro.md",
          content: "# Metro\n\nThe Lanting Metro opened its Line 1 on 18 September 2009.",
        },
      ],
    },
  });
  setName = "first user's questions";
  const set = await server.json<{ id: string }>("/api/v1/question-sets", {
    method: "POST",
    json: {
      name: setName,
      questions: [{ question_text: "When did Line 1 open?", ground_truth: "18 September 2009" }],
    },
  });
  const run = await server.json<{ id: string }>("/api/v1/evaluations", {
    method: "POST",
    json: { question_set_id: set.id, collection_id: collection.id, judges: ["offline"] },
  });
  evaluationId = run.id;
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("login", { timeout: 60_000 }, () => {
  // Logged-out pages log their 401s, and the refused post its 403: each test reads its own.
  beforeEach(() => {
    browser.errors.length = 0;
  });

  it("logs in by the printed link, drops the code from the address bar, and cannot reuse it", async () => {
    const page = await browser.newPage();
    await page.goto(server.loginUrl);
    await page.waitForURL(/\/evaluations\/list$/);
    expect(page.url()).not.toContain("code=");
    await expect.poll(() => page.getByTestId("evaluation-row").count()).toBe(1);
    const cookies = await browser.context.cookies(server.origin);
    expect(cookies.find((c) => c.name === "ragjudge_session")).toMatchObject({
      httpOnly: true,
      sameSite: "Strict",
    });

    // Sign out, then the used link only leads to the login page with its reason.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/login/);
    await page.goto(server.loginUrl);
    await page.waitForURL(/\/login\?error=invalid_code/);
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toContain("expired or was already used");
    // No token or session ever lands in the page's storage.
    const stored = await page.evaluate<string>(
      "JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })",
    );
    expect(stored).not.toContain(server.token);
    await page.close();
  });

  it("logs in with a pasted token and comes back to the page asked for", async () => {
    await browser.context.clearCookies();
    const page = await browser.newPage();
    await page.goto(`${server.origin}/evaluations/${evaluationId}`);
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel("API token").fill("rj_not_a_token");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("not accepted");
    await page.getByLabel("API token").fill(server.token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(new RegExp(`/evaluations/${evaluationId}$`));
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toContain(setName);
    await page.close();
  });

  it("stays on this server after a pasted token, whatever host `next` spells", async () => {
    // Another port is another origin: if the login page followed `next` there, this would see it.
    const visits: string[] = [];
    const foreign = http.createServer((req, res) => {
      visits.push(req.url ?? "");
      res.end("stolen");
    });
    await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
    const host = `127.0.0.1:${(foreign.address() as AddressInfo).port}`;
    try {
      // Each starts with one `/` and not `//`, and each is `//host` to a browser's URL parser.
      for (const next of [`/\\${host}/x`, `/\t/${host}/x`, `/\n/${host}/x`, `/\\/${host}/x`]) {
        await browser.context.clearCookies();
        const page = await browser.newPage();
        await page.goto(`${server.origin}/login?next=${encodeURIComponent(next)}`);
        await page.getByLabel("API token").fill(server.token);
        await page.getByRole("button", { name: "Sign in" }).click();
        // The full navigation after the login leaves the login page: for this server's default
        // page, not the other host.
        await page.waitForURL((url) => url.pathname !== "/login");
        expect(new URL(page.url()).origin, JSON.stringify(next)).toBe(server.origin);
        await page.waitForURL(`${server.origin}/evaluations/list`);
        await expect.poll(() => page.getByTestId("evaluation-row").count()).toBe(1);
        await page.close();
      }
    } finally {
      foreign.close();
    }
    expect(visits).toEqual([]);
  });

  it("refuses a state change posted from a foreign page with the session cookie", async () => {
    // Another port is another origin but the same site, so the browser sends the cookie: the
    // server's Origin check is what must refuse it.
    const foreign = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `<form method="post" action="${server.origin}/api/v1/evaluations/${evaluationId}/cancel"><button>go</button></form>`,
      );
    });
    await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
    const page = await browser.newPage();
    try {
      await page.goto(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`);
      const [response] = await Promise.all([
        page.waitForResponse(/\/cancel$/),
        page.getByRole("button", { name: "go" }).click(),
      ]);
      expect(response.status()).toBe(403);
      expect(await response.json()).toMatchObject({ error: "forbidden_origin" });
    } finally {
      await page.close();
      foreign.close();
    }
    // The run was not touched by it.
    const run = await server.json<{ status: string }>(`/api/v1/evaluations/${evaluationId}`);
    expect(run.status).not.toBe("CANCELLED");
  });

  it("shows a second user none of the first user's data", async () => {
    await browser.context.clearCookies();
    const bob = await server.createUser("bob");
    const page = await browser.newPage();
    await page.goto(await server.loginLinkFor(bob.id));
    await page.waitForURL(/\/evaluations\/list$/);
    await expect.poll(() => page.getByText("No evaluation yet").isVisible()).toBe(true);
    expect(await page.getByTestId("evaluation-row").count()).toBe(0);

    await page.goto(`${server.origin}/evaluations/question-sets`);
    await expect.poll(() => page.getByText("No question set yet").isVisible()).toBe(true);
    expect(await page.getByText(setName).count()).toBe(0);

    // The first user's run by its id is simply not there.
    await page.goto(`${server.origin}/evaluations/${evaluationId}`);
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("No such evaluation");
    await page.close();
    // The 404 above is the one error this test expects the browser to log.
    const unexpected = browser.errors.filter(
      (e) => !(e.includes(evaluationId) && e.includes("404")),
    );
    expect(unexpected).toEqual([]);
  });

  it("lets no other page lock the login link out or use it", async () => {
    await browser.context.clearCookies();
    const me = await server.json<{ user: { id: string } }>("/api/v1/session");
    const link = await server.loginLinkFor(me.user.id);
    // A page on another port (Chromium marks its requests `Sec-Fetch-Site: same-site`): more
    // wrong codes as images than the limit allows, and the person's own link to click.
    const foreign = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      const images = Array.from(
        { length: 12 },
        (_, i) => `<img src="${server.origin}/login?code=lc_${i}">`,
      );
      res.end(`${images.join("")}<a href="${link}">open ragjudge</a>`);
    });
    await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
    const page = await browser.newPage();
    try {
      // `load` waits for every image's request to be answered.
      await page.goto(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`);
      expect(await page.evaluate("[...document.images].every((img) => img.complete)")).toBe(true);
      // Followed from that page, the link only shows its page: nothing is sent until the person
      // presses the button (no other site can log the browser in to a session of its choosing).
      await page.getByRole("link", { name: "open ragjudge" }).click();
      await page.waitForURL(/\/login\?code=/);
      await page.getByRole("button", { name: "Log in" }).waitFor();
      expect(await browser.context.cookies(server.origin)).toEqual([]);
    } finally {
      foreign.close();
    }
    // Pressed, it logs in: the twelve wrong codes neither spent the link nor blocked the address.
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${server.origin}/evaluations/list`);
    await expect.poll(() => page.getByTestId("evaluation-row").count()).toBe(1);
    await page.close();
  });

  // Last: it leaves this address blocked from logging in for the rest of the server's life.
  it("tells a person blocked by the login limit how long to wait", async () => {
    await browser.context.clearCookies();
    const page = await browser.newPage();
    await page.goto(`${server.origin}/login`);
    const alert = page.getByRole("alert");
    for (let attempt = 0; attempt < 12; attempt++) {
      await page.getByLabel("API token").fill(`rj_wrong_${attempt}`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect.poll(() => alert.textContent()).toMatch(/not accepted|Too many/);
      if ((await alert.textContent())?.includes("Too many")) break;
      // Clear the message so the next answer is read, not this one.
      await page.reload();
    }
    expect(await alert.textContent()).toMatch(/Too many failed sign-ins .* Try again in \d+ min/);
    await page.close();
  });
});
