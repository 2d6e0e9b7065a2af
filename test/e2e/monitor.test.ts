import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppServer, startAppServer } from "./support/app-server.js";
import { type Browser, launchBrowser } from "./support/browser.js";
import { e2eDatabase } from "./support/database.js";
import { shoot } from "./support/screenshots.js";

// Issue 24 §2-§3 in real Chromium against a real `ragjudge serve` (its in-process worker runs the
// monitors): a monitor made with the form, changed, its day's counts shown, its judges' results
// on the answer page; and the monitor page of one service, read from rollups, with its choices
// kept in the URL, a breakdown by a metadata key, and a link to the answer list.

let server: AppServer;
let browser: Browser;

const HIT = "The Lanting bridge was built in 1870 by the river guild.";

function answer(message: string, text: string, tenant: string) {
  return {
    conversation_id: "conv-mon",
    message_id: message,
    retrieval_record: { id: `r-${message}`, query: `When was the bridge built? (${message})` },
    retrieval_hits: [{ node_id: "n1", content: HIT }],
    generation_record: { id: `g-${message}`, model: "gpt-4o-mini" },
    generation_output: { answer: text, citations: [{ node_id: "n1" }] },
    service: "shop-mon",
    collection: "bridges",
    latency_ms: 420,
    usage: { prompt_tokens: 900, completion_tokens: 40 },
    metadata: { tenant },
  };
}

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startAppServer({
      databaseUrl: await e2eDatabase(),
      config: { production: { breakdown_keys: ["tenant"] } },
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
});

it("makes a monitor with the form, changes it, and shows what its judges made of an answer", async () => {
  const page = await browser.newPage();
  await page.goto(`${server.origin}/production/answers`);
  await page.getByRole("link", { name: "Monitors" }).click();
  await page.waitForURL(/\/production\/monitors$/);
  await page.getByRole("button", { name: "New monitor" }).click();
  await page.getByLabel("Name").fill("Unsupported shop answers");
  await page.getByLabel("Service").fill("shop-mon");
  await page.getByLabel("Not supported").check();
  await page.getByLabel("Metadata (key=value, one a line)").fill("tenant");
  await page.getByRole("button", { name: "Save monitor" }).click();
  // A metadata line that is not key=value is named before anything is sent.
  await expect
    .poll(() => page.getByRole("alert").textContent())
    .toContain("Line 1: write key=value");
  await page.getByLabel("Metadata (key=value, one a line)").fill("tenant=acme");
  await page.getByLabel("Share of matching answers judged (%)").fill("150");
  await page.getByRole("button", { name: "Save monitor" }).click();
  // The server's refusal names the field, by its label.
  await expect
    .poll(() => page.getByTestId("monitor-form-issues").textContent())
    .toContain("Share of matching answers judged (%)");
  await page.getByLabel("Share of matching answers judged (%)").fill("100");
  await page.getByRole("button", { name: "Save monitor" }).click();
  await expect.poll(() => page.getByTestId("monitor-row").count()).toBe(1);
  const [stored] = (
    await server.json<{ items: { id: string; filter: unknown; judges: string[] }[] }>(
      "/api/v1/monitors",
    )
  ).items;
  expect(stored?.filter).toEqual({
    service: "shop-mon",
    gate: ["fail"],
    metadata: { tenant: "acme" },
  });
  expect(stored?.judges).toEqual(["offline"]);

  // Edit: add the token-precision judge.
  await page.getByRole("button", { name: "Edit" }).click();
  expect(await page.getByLabel("Service").inputValue()).toBe("shop-mon");
  await page.getByLabel("Offline: words found in the passages (no LLM)").check();
  await page.getByRole("button", { name: "Save monitor" }).click();
  await expect
    .poll(
      async () =>
        (await server.json<{ judges: string[] }>(`/api/v1/monitors/${stored?.id}`)).judges,
    )
    .toEqual(["offline", "token_precision"]);

  // Answers arrive: one supported (not matched), one not (judged by the worker in `serve`).
  const sent = await server.json<{ answers: { id: string }[] }>("/api/v1/answers", {
    method: "POST",
    json: {
      answers: [
        answer(
          "form-good",
          "The Lanting bridge was built in 1870 by the river guild [n1].",
          "acme",
        ),
        answer(
          "form-wrong",
          "The Lanting bridge was built in 1875 by the river guild [n1].",
          "acme",
        ),
      ],
    },
  });
  const wrong = sent.answers[1]?.id ?? "";
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId("monitor-counts").textContent();
      },
      { timeout: 30_000 },
    )
    .toContain("1 matched");
  await expect
    .poll(() => page.getByTestId("monitor-counts").textContent(), { timeout: 30_000 })
    .toContain("1 judged");
  await shoot(page, "production-monitors");

  await page.goto(`${server.origin}/production/answers/${wrong}`);
  await expect.poll(() => page.getByTestId("judgment").count()).toBe(1);
  const judgment = page.getByTestId("judgment");
  expect(await judgment.textContent()).toContain("Unsupported shop answers");
  expect(await judgment.textContent()).toContain("Judged");
  expect(await page.locator('[data-judge="offline"]').textContent()).toMatch(/offline: \d\.\d\d/);
  expect(await page.locator('[data-judge="token_precision"]').count()).toBe(1);
  const offlineJudge = page.locator('[data-judge="offline"]');
  expect(await offlineJudge.textContent()).toContain("Heuristic (no LLM)");
  // In Chinese, the offline judge's reason and analysis read in Chinese; then back to English.
  await page.getByRole("button", { name: "Switch the interface to Chinese" }).click();
  await expect.poll(() => offlineJudge.textContent()).toContain("启发式评判（未用 LLM）：");
  const words = (await offlineJudge.textContent()) ?? "";
  expect(words).toMatch(/拒答 (无|部分|完全)；/);
  expect(words).not.toMatch(/Heuristic|abstention|sub-questions/);
  await page.getByRole("button", { name: "Switch the interface to English" }).click();
  await expect.poll(() => offlineJudge.textContent()).toContain("Heuristic (no LLM)");
  await page.close();
}, 90_000);

it("shows a service's monitor from rollups beside the period before, with its choices in the URL", async () => {
  await server.json("/api/v1/answers", {
    method: "POST",
    json: {
      answers: [
        answer("page-1", "The Lanting bridge was built in 1870 by the river guild [n1].", "acme"),
        answer("page-2", "The Lanting bridge was built in 1870 by the river guild [n1].", "globex"),
        answer("page-3", "The Lanting bridge was built in 1999 by the river guild [n1].", "globex"),
      ],
    },
  });
  const page = await browser.newPage();
  await page.goto(`${server.origin}/production/answers`);
  await page.getByRole("link", { name: "Monitor", exact: true }).click();
  await page.waitForURL(/\/production\/monitor$/);
  await page.getByLabel("Show").selectOption("service:shop-mon");
  await page.waitForURL(/service=shop-mon/);
  await page.getByLabel("Bucket").selectOption("minute");
  await page.waitForURL(/bucket=minute/);
  const totals = page.getByTestId("monitor-totals");
  // The two answers of the first test and these three.
  await expect
    .poll(() => totals.locator("tr", { hasText: "Answers" }).textContent())
    .toContain("5");
  expect(await totals.locator("tr", { hasText: "Supported by evidence" }).textContent()).toContain(
    "60.0%",
  );
  expect(await totals.locator("tr", { hasText: "Mean latency" }).textContent()).toContain("420");
  // Each chart has its data as a table, with this period beside the one before.
  for (const chart of [
    "chart-pass-rate",
    "chart-latency",
    "chart-tokens",
    "chart-feedback",
    "chart-judges",
  ]) {
    expect(await page.getByTestId(chart).count()).toBe(1);
  }
  const passTable = await page.getByTestId("chart-pass-rate").locator("th").allTextContents();
  expect(passTable).toEqual(
    expect.arrayContaining([
      "Supported by evidence · This period",
      "Supported by evidence · Period before",
    ]),
  );

  await page.getByLabel("Break down by").selectOption("metadata.tenant");
  await page.waitForURL(/breakdown=metadata.tenant/);
  await expect
    .poll(async () =>
      (await page.getByTestId("breakdown-row").all()).length > 0
        ? await Promise.all(
            (await page.getByTestId("breakdown-row").all()).map((row) =>
              row.getAttribute("data-value"),
            ),
          )
        : [],
    )
    .toEqual(["acme", "globex"]);
  // Reloaded (or shared), the page shows the same choices.
  await page.reload();
  await expect.poll(() => page.getByLabel("Break down by").inputValue()).toBe("metadata.tenant");
  expect(await page.getByLabel("Bucket").inputValue()).toBe("minute");
  await shoot(page, "production-monitor", true);
  await page.getByTestId("see-answers").click();
  await page.waitForURL(/\/production\/answers\?service=shop-mon/);
  await expect.poll(() => page.getByTestId("answer-row").count()).toBe(5);
  await page.close();
});

/** An OTLP/JSON trace: a root, a retriever and an LLM span, 40 ms and 300 ms into a 500 ms request. */
function otlpTrace(traceId: string) {
  const start = BigInt(Date.now()) * 1_000_000n;
  const at = (ms: number) => String(start + BigInt(ms) * 1_000_000n);
  const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const span = (
    spanId: string,
    parent: string | undefined,
    name: string,
    from: number,
    to: number,
    attributes: object[],
  ) => ({
    traceId,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name,
    startTimeUnixNano: at(from),
    endTimeUnixNano: at(to),
    attributes,
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [attr("service.name", "shop-spans")] },
        scopeSpans: [
          {
            spans: [
              span("a".repeat(16), undefined, "rag.request", 0, 500, [
                attr("openinference.span.kind", "CHAIN"),
                attr("input.value", "When was the bridge built?"),
              ]),
              span("b".repeat(16), "a".repeat(16), "retrieve", 10, 40, [
                attr("openinference.span.kind", "RETRIEVER"),
                attr("retrieval.documents.0.document.id", "kb-1"),
                attr("retrieval.documents.0.document.content", HIT),
              ]),
              span("c".repeat(16), "a".repeat(16), "chat gpt-4o-mini", 60, 480, [
                attr("gen_ai.operation.name", "chat"),
                attr("llm.output_messages.0.message.content", "It was built in 1870 [kb-1]."),
              ]),
            ],
          },
        ],
      },
    ],
  };
}

it("shows an OpenTelemetry answer's spans as a tree with their timings", async () => {
  const traceId = "d".repeat(32);
  const sent = await server.api("/v1/traces", { method: "POST", json: otlpTrace(traceId) });
  expect(sent.status).toBe(200);
  const list = await server.json<{ items: { id: string; trace_id: string }[] }>(
    "/api/v1/answers?service=shop-spans",
  );
  const id = list.items.find((item) => item.trace_id === traceId)?.id;
  expect(id).toBeDefined();
  const page = await browser.newPage();
  await page.goto(`${server.origin}/production/answers/${id}`);
  await expect.poll(() => page.getByTestId("span").count()).toBe(3);
  const root = page.locator('[data-testid="span"][data-name="rag.request"]');
  // The retriever and the LLM span are nested under the root, in start order.
  expect(
    await root
      .locator('[data-testid="span"]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-name"))),
  ).toEqual(["retrieve", "chat gpt-4o-mini"]);
  expect(await root.locator(":scope > div.muted").textContent()).toContain(
    "starts at 0 ms · takes 500 ms",
  );
  expect(
    await page.locator('[data-testid="span"][data-name="chat gpt-4o-mini"]').textContent(),
  ).toContain("starts at 60 ms · takes 420 ms");
  await page.close();
});
