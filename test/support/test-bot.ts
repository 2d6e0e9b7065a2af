// A RAG bot on 127.0.0.1 speaking the HTTP bot contract (docs/bots.md), for the reliability tests:
// it answers after a delay with contexts and citations, fails or hangs on questions that ask for
// it, and counts what it was asked and by whom.

import http from "node:http";
import type { AddressInfo } from "node:net";

export interface TestBotOptions {
  /** Added before every answer; default 150 ms. */
  delayMs?: number;
  /** Token usage every answer reports (the contract's `usage`); default none. */
  usage?: unknown;
}

export interface TestBot {
  /** e.g. "http://127.0.0.1:40123/ask". */
  readonly url: string;
  delayMs: number;
  /** Requests received (counted on arrival, answered or not). */
  readonly requests: number;
  /** Requests per question text. */
  readonly byQuestion: Map<string, number>;
  /** Requests per Authorization header ("" when absent): which worker asked. */
  readonly byAuthorization: Map<string, number>;
  /** Requests being answered now. */
  readonly inFlight: number;
  close(): Promise<void>;
}

/**
 * Behaviour by the question's text: one containing `[500]` gets an HTTP 500, `[hang]` is never
 * answered; any other is answered with its text echoed and two cited contexts.
 */
export async function startTestBot(options: TestBotOptions = {}): Promise<TestBot> {
  let requests = 0;
  let inFlight = 0;
  const byQuestion = new Map<string, number>();
  const byAuthorization = new Map<string, number>();
  const server = http.createServer((req, res) => {
    requests++;
    inFlight++;
    res.on("close", () => inFlight--);
    const auth = req.headers.authorization ?? "";
    byAuthorization.set(auth, (byAuthorization.get(auth) ?? 0) + 1);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const { question } = JSON.parse(Buffer.concat(chunks).toString()) as { question: string };
      byQuestion.set(question, (byQuestion.get(question) ?? 0) + 1);
      if (question.includes("[hang]")) return;
      setTimeout(() => {
        if (res.destroyed) return;
        if (question.includes("[500]")) {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: "scripted failure" }));
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            answer: `The record says: ${question} [doc1#1]. It is confirmed [doc2#2].`,
            citations: ["doc1#1", "doc2#2"],
            contexts: [
              { node_id: "doc1#1", content: `The record says: ${question}`, score: 0.9 },
              { node_id: "doc2#2", content: "It is confirmed by a second source.", score: 0.7 },
            ],
            ...(options.usage !== undefined ? { usage: options.usage } : {}),
          }),
        );
      }, bot.delayMs);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const bot: TestBot = {
    url: `http://127.0.0.1:${port}/ask`,
    delayMs: options.delayMs ?? 150,
    get requests() {
      return requests;
    },
    byQuestion,
    byAuthorization,
    get inFlight() {
      return inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return bot;
}
