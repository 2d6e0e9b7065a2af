import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBot, type TestBot } from "../support/test-bot.js";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { waitForRun } from "./support/fixtures.js";

// Workspaces in the browser: an owner makes a shared workspace and invites an editor by a link
// opened in another browser; the editor starts a run there; the owner reads who started it on the
// run's page; a viewer sees nothing to create; a member removed loses the workspace at once.

let server: AppServer;
let owner: Browser;
let guest: Browser;
let bot: TestBot;
let workspaceId = "";
let sharedToken = "";
let setId = "";
let runId = "";

beforeAll(async () => {
  [server, owner, guest, bot] = await Promise.all([
    e2eDatabase().then((databaseUrl) => startAppServer({ databaseUrl })),
    launchBrowser(),
    launchBrowser(),
    startTestBot({ delayMs: 50 }),
  ]);
  const page = await owner.newPage();
  await page.goto(server.loginUrl);
  await page.waitForURL(/\/evaluations\/list$/);
  await page.close();
}, 90_000);

afterAll(async () => {
  await guest?.close();
  await owner?.close();
  await bot?.close();
  await server?.stop();
});

/** Opens an invitation link in the guest browser, joins under `name`, lands in the workspace. */
async function join(link: string, name: string) {
  const page = await guest.newPage();
  await page.goto(link);
  await page.getByLabel(/Your name/).fill(name);
  await page.getByRole("button", { name: "Join" }).click();
  await page.waitForURL(/\/evaluations\/list$/);
  return page;
}

/** As the owner on the members page: a one-time invitation link for `role`. */
async function invite(role: string): Promise<string> {
  const page = await owner.newPage();
  await page.goto(`${server.origin}/members`);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = await page.getByTestId("invitation-link").locator("code").textContent();
  await expect.poll(() => page.getByTestId("invitation").count()).toBeGreaterThan(0);
  await page.close();
  return link ?? "";
}

describe("workspaces in the browser", { timeout: 90_000 }, () => {
  it("lets an owner create a shared workspace and a token for it", async () => {
    const page = await owner.newPage();
    await page.goto(`${server.origin}/members`);
    // One workspace so far: no switcher yet.
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toMatch(/^Members of/);
    expect(await page.getByTestId("workspace-switcher").count()).toBe(0);
    await page.getByRole("button", { name: "New workspace…" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Lanting team");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("Members of Lanting team");
    const switcher = page.getByTestId("workspace-switcher");
    await expect
      .poll(() => switcher.locator("option:checked").textContent())
      .toBe("Lanting team (owner)");
    workspaceId = await switcher.inputValue();

    await page.getByRole("button", { name: "Create an API token for this workspace" }).click();
    sharedToken = (await page.getByTestId("new-token").locator("code").textContent()) ?? "";
    expect(sharedToken).toMatch(/\S{20,}/);
    await page.close();

    // The token acts in the shared workspace: what it makes is the team's.
    const collection = await server.json<{ id: string }>("/api/v1/collections", {
      method: "POST",
      json: { name: "team docs" },
      token: sharedToken,
    });
    const content = [
      { question_text: "When did Line 1 open?", ground_truth: "18 September 2009" },
      { question_text: "Which line is the oldest?", ground_truth: "Line 1" },
    ]
      .map((q) => JSON.stringify(q))
      .join("\n");
    ({ id: setId } = await server.json<{ id: string }>("/api/v1/question-sets/import", {
      method: "POST",
      json: { name: "team questions", format: "jsonl", content, collection_id: collection.id },
      token: sharedToken,
    }));
    const workspace = await server.json<{ id: string }>("/api/v1/workspace", {
      token: sharedToken,
    });
    expect(workspace.id).toBe(workspaceId);
  });

  it("invites an editor by a link who starts a run the owner sees, with who started it", async () => {
    const page = await join(await invite("editor"), "Mei");
    await expect
      .poll(() => page.getByTestId("workspace-switcher").locator("option:checked").textContent())
      .toBe("Lanting team (editor)");

    await page.goto(`${server.origin}/evaluations/new?question_set=${setId}`);
    await page.getByLabel("Name (optional)").fill("team run");
    await page.getByLabel("My bot over HTTP").check();
    await page.getByLabel("Bot URL").fill(bot.url);
    await page.getByRole("button", { name: "Start the evaluation" }).click();
    await page.waitForURL(/\/evaluations\/[0-9a-f-]{36}$/);
    runId = page.url().split("/").at(-1) ?? "";
    // The run is the team's: the owner's personal token does not find it, the team's does.
    expect((await server.api(`/api/v1/evaluations/${runId}`)).status).toBe(404);
    expect(await waitForRun(server, runId, sharedToken)).toBe("COMPLETED");
    await page.close();

    // The owner, in the same workspace, finds the run and reads who started it.
    const ownerPage = await owner.newPage();
    await ownerPage.goto(`${server.origin}/evaluations/list`);
    await expect.poll(() => ownerPage.getByTestId("evaluation-row").count()).toBe(1);
    await ownerPage.getByRole("link", { name: "team run" }).click();
    const started = ownerPage
      .getByTestId("history-row")
      .and(ownerPage.locator('[data-action="evaluation.start"]'));
    await expect
      .poll(async () => (await started.locator("td").allTextContents()).slice(0, 2))
      .toEqual(["Mei", "started the run"]);
    // A file downloads from the shared workspace too (fetched with the workspace's header).
    await ownerPage.goto(`${server.origin}/evaluations/question-sets`);
    const download = ownerPage.waitForEvent("download");
    await ownerPage.getByRole("link", { name: "Download team questions as CSV" }).click();
    const file = readFileSync((await (await download).path())!, "utf8");
    expect(file).toContain("When did Line 1 open?");
    await ownerPage.goBack();
    // And in Chinese.
    await ownerPage.getByRole("button", { name: "Switch the interface to Chinese" }).click();
    await expect
      .poll(() => ownerPage.getByTestId("run-history").textContent())
      .toContain("启动了评估");
    await ownerPage.getByRole("button", { name: "Switch the interface to English" }).click();
    await ownerPage.close();
  });

  it("ends a removed member's access on their next request, back in their personal workspace", async () => {
    const page = await guest.newPage();
    await page.goto(`${server.origin}/evaluations/list`);
    await expect.poll(() => page.getByTestId("evaluation-row").count()).toBe(1);

    const ownerPage = await owner.newPage();
    await ownerPage.goto(`${server.origin}/members`);
    await expect.poll(() => ownerPage.getByTestId("member-row").count()).toBe(2);
    ownerPage.once("dialog", (dialog) => void dialog.accept());
    await ownerPage.getByRole("button", { name: "Remove Mei" }).click();
    await expect.poll(() => ownerPage.getByTestId("member-row").count()).toBe(1);
    await ownerPage.close();

    await page.reload();
    await expect
      .poll(async () => (await page.getByRole("status").allTextContents()).join(" "))
      .toContain("You are no longer a member of the workspace you were in");
    // Mei's personal workspace, empty: not the team's run.
    await expect.poll(() => page.getByText("No evaluation yet.").count()).toBe(1);
    expect(await page.getByTestId("evaluation-row").count()).toBe(0);
    // With one workspace left, there is nothing to switch between.
    expect(await page.getByTestId("workspace-switcher").count()).toBe(0);
    await page.close();
  });

  it("shows a viewer the team's runs with nothing to create, run or delete", async () => {
    await guest.context.clearCookies();
    const page = await join(await invite("viewer"), "Lin");
    await expect.poll(() => page.getByTestId("evaluation-row").count()).toBe(1);
    await expect.poll(() => page.getByRole("link", { name: "New evaluation" }).count()).toBe(0);
    await expect.poll(() => page.getByRole("button", { name: /^Delete/ }).count()).toBe(0);
    await page.goto(`${server.origin}/evaluations/question-sets`);
    await expect
      .poll(() => page.getByRole("link", { name: "team questions", exact: true }).count())
      .toBe(1);
    await expect.poll(() => page.getByRole("button", { name: /Delete/ }).count()).toBe(0);
    await page.goto(`${server.origin}/evaluations/${runId}`);
    await expect.poll(() => page.getByTestId("history-row").count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole("link", { name: "Label this run" }).count()).toBe(0);
    await page.goto(`${server.origin}/production/ingest-keys`);
    await expect
      .poll(() => page.getByRole("heading", { name: "Ingest keys", level: 1 }).count())
      .toBe(1);
    await expect.poll(() => page.getByRole("button", { name: "Create key" }).count()).toBe(0);
    await page.goto(`${server.origin}/members`);
    await expect.poll(() => page.getByText("Only an owner can change roles").count()).toBe(1);
    await expect
      .poll(() => page.getByRole("button", { name: "Create invitation link" }).count())
      .toBe(0);
    await page.close();
  });

  it("tells an annotator in a plain sentence what their role is for", async () => {
    await guest.context.clearCookies();
    const page = await join(await invite("annotator"), "Bo");
    await expect
      .poll(() => page.getByTestId("annotator-note").textContent())
      .toBe("Your role in this workspace is annotator: you label what you are assigned.");
    await expect.poll(() => page.getByRole("link", { name: "Evaluations" }).count()).toBe(0);
    await page.close();
  });
});
