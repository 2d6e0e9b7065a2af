// examples/bots/http-bot.ts asked through createHttpBot, in-process and as the runnable script.
// It lives here because vitest only collects tests under src/ and test/.

import { type ChildProcess, spawn } from "node:child_process";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, loadCorpus } from "../../../examples/bots/http-bot.js";
import { createHttpBot } from "./http-bot.js";
// The example listens on 127.0.0.1, which only the open policy (the CLI's) may reach.
import { OPEN_BOT_NETWORK } from "./network-policy.js";

const signal = () => AbortSignal.timeout(10_000);

describe("the example HTTP bot, in-process", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ask`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("reads every format of examples/corpus", () => {
    const documents = new Set(loadCorpus().map((p) => p.node_id.split("#")[0]));
    expect([...documents].sort()).toEqual([
      "extra",
      "lanting-economy",
      "lanting-education",
      "lanting-faq",
      "lanting-festivals",
      "lanting-flood-2016",
      "lanting-history",
      "lanting-transport",
    ]);
  });

  it("answers with cited sentences, every citation among its contexts", async () => {
    const bot = createHttpBot({ url, network: OPEN_BOT_NETWORK });
    await bot.probe!(signal());
    const answer = await bot.ask({
      question: "When did the Lanting Metro open its Line 1?",
      signal: signal(),
    });
    expect(answer.answer).toContain("18 September 2009 [lanting-transport#3].");
    expect(answer.citations).toContain("lanting-transport#3");
    const ids = answer.contexts.map((c) => c.node_id);
    for (const id of answer.citations) expect(ids).toContain(id);
    expect(answer.contexts.length).toBeLessThanOrEqual(3);
    expect(answer.contexts.find((c) => c.node_id === "lanting-transport#3")).toMatchObject({
      document_id: "lanting-transport.md",
      source: "keyword",
      score: expect.any(Number),
      title: expect.any(String),
    });
    expect(answer.trace).toEqual([
      { tool: "keyword_search", query: "When did the Lanting Metro open its Line 1?", hits: 3 },
    ]);
  });

  it("abstains, citing nothing, when no paragraph shares a word with the question", async () => {
    const answer = await createHttpBot({ url, network: OPEN_BOT_NETWORK }).ask({
      question: "Explain quantum chromodynamics",
      signal: signal(),
    });
    expect(answer).toMatchObject({
      answer: "The corpus does not say.",
      citations: [],
      contexts: [],
    });
  });

  it("rejects a request without a question with a 400, which the bot does not retry", async () => {
    const response = await fetch(url, { method: "POST", body: "{}" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "question: expected a non-empty string" });
  });
});

describe("the example HTTP bot, run as `tsx examples/bots/http-bot.ts --port 0`", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill();
  });

  it("listens on 127.0.0.1 and answers through createHttpBot", async () => {
    const script = fileURLToPath(new URL("../../../examples/bots/http-bot.ts", import.meta.url));
    child = spawn(process.execPath, ["--import", "tsx", script, "--port", "0"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child!.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /http:\/\/127\.0\.0\.1:\d+\/ask/.exec(out);
        if (match) resolve(match[0]);
      });
      child!.once("exit", (code) => reject(new Error(`the example exited with ${code}: ${out}`)));
    });
    const answer = await createHttpBot({ url, network: OPEN_BOT_NETWORK }).ask({
      question: "How much is the Gull Island ferry?",
      signal: signal(),
    });
    expect(answer.answer).toContain("6 yuan");
    expect(answer.citations.length).toBeGreaterThan(0);
  });
});
