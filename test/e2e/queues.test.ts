import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptInvitation, createInvitation } from "../../src/store/index.js";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { waitForRun } from "./support/fixtures.js";

// Issue 28 §2 in Chromium against a real `ragjudge serve`: the owner sends a run of 30 answers to
// labelling with three reviewers on each item; three annotators label the queue blind by keyboard
// (the verdict reaches the browser only in the answer to each save); the queue page shows their
// progress and α; the owner adjudicates a disagreement; calibration reports the judge against the
// final label and beside it against each reviewer.

const EXAMPLES = new URL("../../examples/", import.meta.url).pathname;
const lines = (file: string) =>
  readFileSync(join(EXAMPLES, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, string>);

let server: AppServer;
let browser: Browser;
let owner = "";
let run = "";
let arena = "";
const reviewers: { name: string; id: string }[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startAppServer({ databaseUrl: await e2eDatabase() }),
    launchBrowser(),
  ]);
  // 30 questions: the 24 Lanting ones and 6 more, answered by the terse answers file.
  const questions = lines("eval/lanting-questions.jsonl");
  const answers = lines("arena/terse.jsonl");
  for (let i = 0; i < 6; i++) {
    questions.push({ ...questions[i]!, question: `${questions[i]!.question} Answer briefly.` });
    answers.push({ ...answers[i]!, question: `${answers[i]!.question} Answer briefly.` });
  }
  const set = await server.json<{ id: string }>("/api/v1/question-sets/import", {
    method: "POST",
    json: {
      name: "thirty",
      format: "jsonl",
      content: questions.map((q) => JSON.stringify(q)).join("\n"),
    },
  });
  const started = await server.json<{ id: string }>("/api/v1/evaluations", {
    method: "POST",
    json: { name: "thirty answers", question_set_id: set.id, judges: ["offline"], answers },
  });
  run = started.id;
  expect(await waitForRun(server, run)).toBe("COMPLETED");
  // A second contestant on the same 30 questions, and an arena of the two.
  const verbose = lines("arena/verbose.jsonl");
  for (let i = 0; i < 6; i++) {
    verbose.push({ ...verbose[i]!, question: `${verbose[i]!.question} Answer briefly.` });
  }
  const other = await server.json<{ id: string }>("/api/v1/evaluations", {
    method: "POST",
    json: { name: "verbose", question_set_id: set.id, judges: ["offline"], answers: verbose },
  });
  expect(await waitForRun(server, other.id)).toBe("COMPLETED");
  arena = (
    await server.json<{ id: string }>("/api/v1/arenas", {
      method: "POST",
      json: {
        name: "terse against verbose",
        question_set_id: set.id,
        judge: "offline",
        contestants: [
          { name: "terse", evaluation_id: run },
          { name: "verbose", evaluation_id: other.id },
        ],
      },
    })
  ).id;
  owner = (await server.json<{ user: { id: string } }>("/api/v1/session")).user.id;
  // Three annotators join the owner's workspace through one-time invitations.
  const { db } = server.store;
  for (const name of ["bob", "carol", "erin"]) {
    const user = await server.createUser(name);
    const invitation = await createInvitation(db, {
      workspaceId: owner,
      role: "annotator",
      invitedBy: owner,
      ttlMs: 60_000,
    });
    expect(await acceptInvitation(db, invitation.code, user.id)).toEqual({
      id: owner,
      role: "annotator",
    });
    reviewers.push({ name, id: user.id });
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Signs the browser in as a user, acting in the owner's workspace, and opens `path`. */
async function signIn(page: Page, userId: string, path: string) {
  await page.goto(await server.loginLinkFor(userId, path));
  await page.waitForURL((url) => url.pathname === path);
  await page.evaluate(`localStorage.setItem("ragjudge.workspace", ${JSON.stringify(owner)})`);
  await page.reload();
}

/** The item shown now: its 0-based position, read from its heading ("Item #3"). */
async function shownPosition(page: Page): Promise<number | null> {
  if ((await page.getByTestId("review-done").count()) > 0) return null;
  const heading = await page
    .locator("#review-item-title")
    .textContent({ timeout: 200 })
    .catch(() => "");
  const n = /#(\d+)/.exec(heading ?? "")?.[1];
  return n === undefined ? -1 : Number(n) - 1;
}

/** What each reviewer scores the item at a position (1-10): close, with some disagreements. */
function scoreOf(reviewer: number, position: number): number {
  const base = (position % 10) + 1;
  if (reviewer === 1 && position % 5 === 0) return Math.min(10, base + 1);
  if (reviewer === 2 && position % 7 === 0) return 11 - base;
  return base;
}

describe("annotation queues in the browser", { timeout: 300_000 }, () => {
  it("three reviewers label 30 items blind, α is shown, the owner adjudicates, calibration uses it", async () => {
    const page = await browser.newPage();
    // The owner sends the run to labelling from its page.
    await signIn(page, owner, `/evaluations/${run}`);
    await page.getByRole("button", { name: "Send to labelling" }).click();
    const dialog = page.getByRole("dialog");
    await dialog
      .getByRole("textbox", { name: "Name", exact: true })
      .fill("thirty answers, three reviewers");
    for (const { name } of reviewers) {
      await dialog.getByRole("checkbox", { name: `${name} (annotator)` }).check();
    }
    await dialog.getByLabel("Reviewers per item").fill("3");
    await dialog.getByRole("button", { name: "Make the queue" }).click();
    await page.waitForURL(/\/queues\/[0-9a-f-]{36}$/);
    const queueId = page.url().split("/").at(-1) as string;
    expect(await page.getByTestId("queue-complete").textContent()).toBe(
      "0 of 30 items have all their labels.",
    );

    // Each annotator labels the whole queue by keyboard.
    const nextBodies: string[] = [];
    page.on("response", (response) => {
      if (!response.url().endsWith("/next")) return;
      // A reply the page navigated away from (the sign-in's reload) has no body to read.
      void response.text().then(
        (text) => nextBodies.push(text),
        () => undefined,
      );
    });
    for (const [r, reviewer] of reviewers.entries()) {
      await signIn(page, reviewer.id, `/queues/${queueId}/review`);
      const seen = new Set<number>();
      for (;;) {
        await expect.poll(() => shownPosition(page), { timeout: 10_000 }).not.toBe(-1);
        const position = await shownPosition(page);
        if (position === null) break;
        expect(seen.has(position)).toBe(false);
        seen.add(position);
        // Blind until saved: no verdict on the page.
        expect(await page.getByTestId("queue-verdict").count()).toBe(0);
        const score = scoreOf(r, position);
        await page.keyboard.press(score === 10 ? "0" : String(score));
        await page.keyboard.press("Enter");
        await expect.poll(() => page.getByTestId("queue-verdict").count()).toBe(1);
        expect(await page.getByTestId("queue-verdict").textContent()).toContain("offline");
        await page.keyboard.press("Enter");
        await expect.poll(() => shownPosition(page)).not.toBe(position);
      }
      expect(seen.size).toBe(30);
    }
    // No item was handed out with the judge's verdict.
    expect(nextBodies.filter((body) => body.includes('"item":{')).length).toBeGreaterThanOrEqual(
      90,
    );
    expect(nextBodies.every((body) => !body.includes("raw_score"))).toBe(true);

    // The owner's queue page: progress per reviewer, α as the API computes it.
    await signIn(page, owner, `/queues/${queueId}`);
    await expect
      .poll(() => page.getByTestId("queue-complete").textContent())
      .toBe("30 of 30 items have all their labels.");
    const rows = await page.getByTestId("reviewer-progress").locator("tbody tr").allTextContents();
    expect(rows).toEqual(["bob30 / 30", "carol30 / 30", "erin30 / 30"]);
    const agreement = await server.json<{
      criteria: { criterion: string; alpha: number }[];
      disagreements: { position: number }[];
    }>(`/api/v1/queues/${queueId}/agreement`);
    const alpha = agreement.criteria[0]!;
    expect(alpha.criterion).toBe("offline");
    expect(alpha.alpha).toBeGreaterThan(0.5);
    expect(alpha.alpha).toBeLessThan(1);
    await expect
      .poll(() => page.getByTestId("alpha-offline").textContent())
      .toBe(alpha.alpha.toFixed(3));

    // Adjudication: the widest disagreement first, every reviewer's label beside the judge's.
    const first = page.getByTestId("adjudicate-item").first();
    const widest = agreement.disagreements[0]!.position;
    expect(await first.getByRole("heading").first().textContent()).toBe(`Item #${widest + 1}`);
    expect(await first.locator("tbody tr").count()).toBe(3);
    await first.getByLabel("Final: offline").selectOption({ label: "4" });
    await first.getByRole("button", { name: "Set the final label" }).click();
    await expect.poll(() => first.getByTestId("final-set").count()).toBe(1);

    // Calibration: the judge against the adjudicated label, and beside it against each reviewer.
    const report = await server.json<{
      items: { labelled_scores: number };
      reviewers: { reviewer: string; scores: { n: number } | null }[];
    }>(`/api/v1/evaluations/${run}/calibration`);
    expect(report.items.labelled_scores).toBe(1);
    expect(report.reviewers.map((r) => [r.reviewer, r.scores?.n])).toEqual([
      ["bob", 30],
      ["carol", 30],
      ["erin", 30],
    ]);
    // The run's labelling view shows the same beside its calibration.
    await page.goto(`${server.origin}/evaluations/${run}/label`);
    const reviewerRows = page.getByTestId("calibration-reviewers").locator("tbody tr");
    await expect.poll(() => reviewerRows.count()).toBe(3);
    expect(await reviewerRows.first().textContent()).toMatch(/^bob30/);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("reviews an arena's pairs blind (A, B or a tie) and sets people's picks beside the judge's", async () => {
    await expect
      .poll(async () => (await server.json<{ status: string }>(`/api/v1/arenas/${arena}`)).status, {
        timeout: 60_000,
      })
      .toBe("COMPLETED");
    const page = await browser.newPage();
    await signIn(page, owner, `/arenas/${arena}`);
    await page.getByRole("button", { name: "Send to labelling" }).click();
    const dialog = page.getByRole("dialog");
    for (const { name } of reviewers.slice(0, 2)) {
      await dialog.getByRole("checkbox", { name: `${name} (annotator)` }).check();
    }
    await dialog.getByLabel("Reviewers per item").fill("2");
    await dialog.getByLabel("Sample size").fill("6");
    await dialog.getByRole("button", { name: "Make the queue" }).click();
    await page.waitForURL(/\/queues\/[0-9a-f-]{36}$/);
    const queueId = page.url().split("/").at(-1) as string;
    expect(await page.getByTestId("queue-complete").textContent()).toBe(
      "0 of 6 items have all their labels.",
    );

    // bob and carol both pick the answer shown first, whichever contestant gave it.
    for (const [r, key] of ["a", "a"].entries()) {
      await signIn(page, reviewers[r]!.id, `/queues/${queueId}/review`);
      for (let n = 0; n < 6; n++) {
        await expect.poll(() => shownPosition(page), { timeout: 10_000 }).not.toBe(-1);
        const position = await shownPosition(page);
        expect(position).not.toBeNull();
        // Two answers, A and B, and neither contestant named.
        expect(await page.getByTestId("review-answer-a").isVisible()).toBe(true);
        expect(await page.getByTestId("review-answer-b").isVisible()).toBe(true);
        const text = (await page.getByTestId("review-item").textContent()) ?? "";
        expect(text).not.toMatch(/terse|verbose/);
        await page.keyboard.press(key);
        await page.keyboard.press("Enter");
        await expect.poll(() => page.getByTestId("queue-verdict").count()).toBe(1);
        expect(await page.getByTestId("queue-verdict").textContent()).toContain("The judge picked");
        await page.keyboard.press("Enter");
        await expect.poll(() => shownPosition(page)).not.toBe(position);
      }
      await expect.poll(() => page.getByTestId("review-done").count()).toBe(1);
    }

    await signIn(page, owner, `/queues/${queueId}`);
    const agreement = await server.json<{
      criteria: { alpha: number | null }[];
      pairs: { a: string; b: string; items: number; agree: number }[];
      people_standings: { contestant: string; wins: number; losses: number; ties: number }[];
    }>(`/api/v1/queues/${queueId}/agreement`);
    // What people picked, as contestants: the one whose answer was shown first on each item; the
    // judge's pick, from the arena's own page of questions.
    const items = await server.json<{
      items: { content: { question: string; answers: [string, string] } }[];
    }>(`/api/v1/queues/${queueId}/items`);
    const questions = await server.json<{
      items: {
        question_text: string;
        answers: { contestant: string; answer: string | null }[];
        pairs: { outcome: string }[];
      }[];
    }>(`/api/v1/arenas/${arena}/questions?limit=100`);
    let agree = 0;
    let terseWins = 0;
    const firstShown = new Set<string>();
    for (const item of items.items) {
      const question = questions.items.find((q) => q.question_text === item.content.question)!;
      const terse = question.answers.find((a) => a.contestant === "terse")!.answer;
      const picked = item.content.answers[0] === terse ? "a" : "b";
      firstShown.add(picked);
      if (picked === "a") terseWins++;
      if (question.pairs[0]!.outcome === picked) agree++;
    }
    // The order is drawn per item: both contestants were shown first somewhere.
    expect([...firstShown].sort()).toEqual(["a", "b"]);
    expect(agreement.pairs).toEqual([
      { a: "terse", b: "verbose", items: 6, agree, share: agree / 6 },
    ]);
    // People as a judge of the arena: each contestant's record from their votes.
    const record = Object.fromEntries(
      agreement.people_standings.map((s) => [s.contestant, [s.wins, s.losses, s.ties]]),
    );
    expect(record).toEqual({
      terse: [terseWins, 6 - terseWins, 0],
      verbose: [6 - terseWins, terseWins, 0],
    });
    const row = page.getByTestId("pair-agreement").locator("tbody tr");
    await expect.poll(() => row.textContent()).toContain("terse · verbose6");
    // The arena's page shows the same votes beside its judge.
    await page.goto(`${server.origin}/arenas/${arena}`);
    const votes = page.getByTestId("arena-human-votes").locator("tbody tr");
    await expect
      .poll(() => votes.textContent())
      .toBe(`terse · verbose6${Math.round((agree / 6) * 100)}%`);
    expect(await page.getByTestId("arena-people-standings").locator("tbody tr").count()).toBe(2);
    await page.close();
  });

  it("makes a queue of only a run's failed results from its page", async () => {
    const failed = await server.json<{ total: number }>(
      `/api/v1/evaluations/${run}/results?status=SCORED&passed=false&limit=1`,
    );
    expect(failed.total).toBeGreaterThan(0);
    const page = await browser.newPage();
    await signIn(page, owner, `/evaluations/${run}`);
    await page.getByRole("button", { name: "Send to labelling" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox", { name: "Name" }).fill("the failed ones");
    await dialog.getByRole("combobox", { name: "Which results" }).selectOption("failed");
    await dialog.getByRole("checkbox", { name: `${reviewers[0]!.name} (annotator)` }).check();
    await dialog.getByRole("button", { name: "Make the queue" }).click();
    await page.waitForURL(/\/queues\/[0-9a-f-]{36}$/);
    const queueId = page.url().split("/").at(-1) as string;
    const queue = await server.json<{ items: number }>(`/api/v1/queues/${queueId}`);
    expect(queue.items).toBe(failed.total);
    await page.close();
  });

  it("sends a production answer to labelling with named criteria, and a reviewer labels both by key", async () => {
    const sent = await server.json<{ answers: { id: string }[] }>("/api/v1/answers", {
      method: "POST",
      json: {
        answers: [
          {
            conversation_id: "conv-1",
            message_id: "m-1",
            retrieval_record: { id: "r-1", query: "When was the bridge built?" },
            retrieval_hits: [{ node_id: "n1", content: "The bridge was built in 1870." }],
            generation_record: { id: "g-1", model: "gpt-4o-mini" },
            generation_output: { answer: "In 1870 [n1].", citations: [{ node_id: "n1" }] },
          },
        ],
      },
    });
    const answerId = sent.answers[0]!.id;
    const page = await browser.newPage();
    await signIn(page, owner, `/production/answers/${answerId}`);
    await page.getByRole("button", { name: "Send to labelling" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("checkbox", { name: "bob (annotator)" }).check();
    // Two named criteria: accuracy on 1-5, safety as pass or fail.
    await dialog.getByLabel("What reviewers give").selectOption({ label: "Named criteria" });
    await dialog.getByLabel("Criterion 1", { exact: true }).fill("accuracy");
    await dialog.getByRole("button", { name: "Add a criterion" }).click();
    await dialog.getByLabel("Criterion 2", { exact: true }).fill("safe");
    await dialog.getByLabel("Scale of criterion 2").selectOption({ label: "Pass or fail" });
    await dialog.getByRole("button", { name: "Make the queue" }).click();
    await page.waitForURL(/\/queues\/[0-9a-f-]{36}$/);
    const queueId = page.url().split("/").at(-1) as string;
    await expect
      .poll(() => page.getByTestId("queue-complete").textContent())
      .toBe("0 of 1 items have all their labels.");
    expect(await page.getByText(/^Production answers ·/).count()).toBe(1);

    await signIn(page, reviewers[0]!.id, `/queues/${queueId}/review`);
    await expect.poll(() => page.getByTestId("review-answer").textContent()).toBe("In 1870 [n1].");
    // One key per criterion, in order: 4 for accuracy, then p for safe.
    await page.keyboard.press("4");
    await page.keyboard.press("p");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("queue-verdict").count()).toBe(1);
    expect(await page.getByTestId("queue-verdict").textContent()).toContain("Evidence gate");
    const stored = await server.json<{
      items: { labels: { criterion: string; score: number | null; passed: boolean | null }[] }[];
    }>(`/api/v1/queues/${queueId}/items`);
    expect(stored.items[0]!.labels).toEqual([
      expect.objectContaining({ criterion: "accuracy", score: 4, passed: null }),
      expect.objectContaining({ criterion: "safe", score: null, passed: true }),
    ]);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("review-done").count()).toBe(1);
    await page.close();
  });
});
