// Issue 24 §4 in real Chromium against a real `ragjudge serve` (alert rules evaluated every
// 200 ms): a rule made in the web app fires from ingested answers, its webhook receiver on
// 127.0.0.1 (allowed by the bot network policy) gets a signed firing and then a resolution, and
// the rule's history shows the episode firing, then resolved. A refused webhook address is named
// beside its field. Choosing a judge's mean shows the judge field, and the rule reads with its judge.

import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser, PHONE } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { shoot } from "./support/screenshots.js";

const HIT = "The Lanting bridge was built in 1870 by the river guild.";

let server: AppServer;
let browser: Browser;
let receiver: Server;
let hookUrl = "";
const received: { headers: IncomingMessage["headers"]; body: string }[] = [];

let counter = 0;
function answer(good: boolean) {
  const id = `alert-${++counter}`;
  return {
    conversation_id: "conv-alerts",
    message_id: id,
    retrieval_record: { id: `r-${id}`, query: "When was the bridge built?" },
    retrieval_hits: [{ node_id: "n1", content: HIT }],
    generation_record: { id: `g-${id}`, model: "gpt-4o-mini" },
    generation_output: {
      answer: `The Lanting bridge was built in ${good ? "1870" : "1875"} by the river guild [n1].`,
      citations: [{ node_id: "n1" }],
    },
    service: "shop-alerts",
  };
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  [server, browser] = await Promise.all([
    startAppServer({
      databaseUrl: await e2eDatabase(),
      config: { production: { alert_interval_ms: 200 } },
    }),
    launchBrowser(),
  ]);
  const page = await browser.newPage();
  await page.goto(server.loginUrl);
  await page.waitForURL(/\/evaluations\/list$/);
  await page.close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const states = () => received.map((r) => (JSON.parse(r.body) as { state: string }).state);

it("a rule made in the web app fires from ingested answers, then resolves, and its history shows both", async () => {
  const page = await browser.newPage();
  await page.goto(`${server.origin}/production/answers`);
  await page.getByRole("link", { name: "Alerts" }).click();
  await page.waitForURL(/\/production\/alerts$/);

  // A refused webhook address is named beside its field, in words.
  await page.getByLabel("Name", { exact: true }).fill("Shop pass rate");
  await page.getByLabel("Webhook URL").fill("http://10.0.0.1/hook");
  await page.getByRole("button", { name: "Create rule" }).click();
  await expect
    .poll(async () => (await page.locator("#alert-webhook_url-error").textContent()) ?? "")
    .toContain("does not allow 10.0.0.1");

  await page.getByLabel("Threshold (%)").fill("90");
  await page.getByLabel("Over the last (minutes)").fill("15");
  await page.getByLabel("Only with at least (answers)").fill("5");
  await page.getByLabel("Service (optional)").fill("shop-alerts");
  await page.getByLabel("Webhook URL").fill(hookUrl);
  await page.getByRole("button", { name: "Create rule" }).click();
  const notice = page.getByTestId("new-rule-secret");
  await expect.poll(() => notice.isVisible()).toBe(true);
  const secret = ((await notice.locator("code").textContent()) ?? "").trim();
  expect(secret).toMatch(/^rjw_/);
  await expect.poll(() => page.getByTestId("alert-rule-row").count()).toBe(1);
  expect(await page.getByTestId("alert-rule-row").textContent()).toContain(
    "Gate pass rate below 90% over the last 15 minutes, with at least 5 answers",
  );

  await shoot(page, "alert-rules", true);

  // Five unsupported answers: the pass rate is 0 over 5 answers, so the rule fires once.
  await server.json("/api/v1/answers", {
    method: "POST",
    json: { answers: Array.from({ length: 5 }, () => answer(false)) },
  });
  await expect.poll(states, { timeout: 20_000 }).toEqual(["firing"]);
  const firing = received[0];
  const timestamp = String(firing?.headers["x-ragjudge-timestamp"]);
  expect(firing?.headers["x-ragjudge-signature"]).toBe(
    `v1=${createHmac("sha256", secret).update(`${timestamp}.${firing?.body}`).digest("hex")}`,
  );
  expect((JSON.parse(firing?.body ?? "{}") as { text: string }).text).toContain(
    'Alert "Shop pass rate" is firing: the gate pass rate is 0%, below the threshold of 90%',
  );

  await page.getByRole("link", { name: "Shop pass rate" }).click();
  await page.waitForURL(/\/production\/alerts\/[0-9a-f-]{36}$/);
  const row = page.getByTestId("alert-event");
  await expect.poll(() => row.getAttribute("data-state"), { timeout: 20_000 }).toBe("firing");
  expect(await row.textContent()).toContain("still firing");
  expect(await row.textContent()).toContain("Firing: delivered");
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain("Firing");

  // Fifty supported answers lift the rate to 50/55, above 90%: the episode resolves.
  await server.json("/api/v1/answers", {
    method: "POST",
    json: { answers: Array.from({ length: 50 }, () => answer(true)) },
  });
  await expect.poll(states, { timeout: 20_000 }).toEqual(["firing", "resolved"]);
  await expect.poll(() => row.getAttribute("data-state"), { timeout: 20_000 }).toBe("resolved");
  expect(await row.textContent()).toContain("Resolved: delivered");
  expect(await row.textContent()).not.toContain("still firing");
  expect(await page.getByTestId("alert-event").count()).toBe(1);
  await shoot(page, "alert-history");
  await page.close();
}, 120_000);

it("the alert pages fit a 390×844 phone without sideways scrolling", async () => {
  const phone = await launchBrowser({ phone: true });
  try {
    const me = await server.json<{ user: { id: string } }>("/api/v1/session");
    const page = await phone.newPage();
    await page.goto(await server.loginLinkFor(me.user.id, "/production/alerts"));
    await page.waitForURL(/\/production\/alerts$/);
    await expect.poll(() => page.getByTestId("alert-rule-row").count()).toBe(1);
    const width = () => page.evaluate<number>("document.scrollingElement.scrollWidth");
    expect(await width()).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole("link", { name: "Shop pass rate" }).click();
    await expect.poll(() => page.getByTestId("alert-event").count()).toBe(1);
    expect(await width()).toBeLessThanOrEqual(PHONE.width);
    await page.close();
  } finally {
    await phone.close();
  }
}, 120_000);

it("a judge's mean shows a judge field in the form, and the rule reads with its judge", async () => {
  const page = await browser.newPage();
  await page.goto(`${server.origin}/production/alerts`);
  await expect.poll(() => page.getByLabel("Watch").isVisible()).toBe(true);
  // A select's name is its label and its chosen option: "Judge offline".
  const judge = page.getByRole("combobox", { name: /^Judge/ });
  expect(await judge.count()).toBe(0);

  await page.getByLabel("Watch").selectOption({ label: "A judge's mean score" });
  await expect.poll(() => judge.isVisible()).toBe(true);
  expect(await judge.inputValue()).toBe("offline");
  await judge.selectOption({ label: "review" });
  expect(await page.getByLabel("Threshold (%)").inputValue()).toBe("60");
  await page.getByLabel("Name", { exact: true }).fill("Review mean");
  await page.getByLabel("Webhook URL").fill(hookUrl);
  await page.getByRole("button", { name: "Create rule" }).click();
  await expect.poll(() => page.getByTestId("new-rule-secret").isVisible()).toBe(true);
  await expect
    .poll(async () => (await page.getByTestId("alert-rule-row").allTextContents()).join("\n"))
    .toContain(
      "Mean score of the review judge below 60% over the last 15 minutes, with at least 50 judged answers",
    );
  const rules = await server.json<{ items: { name: string; metric: string; judge: string }[] }>(
    "/api/v1/alert-rules",
  );
  expect(rules.items.find((r) => r.name === "Review mean")).toMatchObject({
    metric: "judge_mean",
    judge: "review",
  });
  await page.close();
}, 120_000);
