// createHttpBot against real HTTP servers on 127.0.0.1: each test scripts the replies.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpBot, displayUrl, type HttpBotOptions, HttpBotOptionsError } from "./http-bot.js";
import { OPEN_BOT_NETWORK, restrictedBotNetwork } from "./network-policy.js";
import { BotError } from "./types.js";

interface Received {
  method: string | undefined;
  headers: IncomingMessage["headers"];
  body: unknown;
}

type Reply = (res: ServerResponse, attempt: number) => void;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server whose n-th request (from 1) gets `reply(res, n)`; `received` lists each request. */
async function serve(reply: Reply): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let data = "";
    req.on("data", (chunk: Buffer) => (data += chunk.toString()));
    req.on("end", () => {
      received.push({ method: req.method, headers: req.headers, body: JSON.parse(data || "null") });
      reply(res, received.length);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/ask`, received };
}

const json = (res: ServerResponse, status: number, body: unknown, headers = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
};

/** A port nothing listens on: bound, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The servers here listen on 127.0.0.1, which only the open policy (the CLI's) may reach. */
const localBot = (options: HttpBotOptions) =>
  createHttpBot({ network: OPEN_BOT_NETWORK, ...options });

const FAST = { baseMs: 5, maxMs: 50 };
const signal = () => AbortSignal.timeout(10_000);

async function botError(promise: Promise<unknown>): Promise<BotError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BotError);
  return error as BotError;
}

describe("createHttpBot: replies", () => {
  it("posts {question} and adapts string contexts, giving them ctx-1..n", async () => {
    const { url, received } = await serve((res) =>
      json(res, 200, {
        answer: "The fire destroyed 412 buildings [ctx-2].",
        citations: ["ctx-2"],
        contexts: ["Lanting began as a salt landing.", "The Great Fire destroyed 412 buildings."],
        tool_calls: [{ name: "search", query: "great fire" }],
      }),
    );
    const bot = localBot({ url, headers: { authorization: "Bearer sk-test-secret-123" } });
    const answer = await bot.ask({ question: "How many buildings burned?", signal: signal() });

    expect(received).toHaveLength(1);
    expect(received[0]?.method).toBe("POST");
    expect(received[0]?.body).toEqual({ question: "How many buildings burned?" });
    expect(received[0]?.headers["content-type"]).toBe("application/json");
    expect(received[0]?.headers.authorization).toBe("Bearer sk-test-secret-123");
    expect(answer.answer).toBe("The fire destroyed 412 buildings [ctx-2].");
    expect(answer.citations).toEqual(["ctx-2"]);
    expect(answer.contexts).toEqual([
      { node_id: "ctx-1", content: "Lanting began as a salt landing." },
      { node_id: "ctx-2", content: "The Great Fire destroyed 412 buildings." },
    ]);
    expect(answer.trace).toEqual([{ name: "search", query: "great fire" }]);
    expect(answer.attempts).toBe(1);
    expect(answer.latency_ms).toBeGreaterThan(0);
  });

  it("adapts object contexts and {node_id} citations; null fields count as absent", async () => {
    const { url } = await serve((res) =>
      json(res, 200, {
        answer: "Since 1811.",
        citations: [{ node_id: "h-3" }, "faq-1"],
        contexts: [
          {
            node_id: "h-3",
            content: "A city charter in 1811.",
            source: "vector",
            score: 0.82,
            title: "History",
            document_id: "history.md",
          },
          { id: "faq-1", text: "The charter dates from 1811.", score: null },
          { text: "No id here." },
        ],
        tool_calls: null,
      }),
    );
    const answer = await localBot({ url }).ask({ question: "Charter?", signal: signal() });
    expect(answer.citations).toEqual(["h-3", "faq-1"]);
    expect(answer.contexts).toEqual([
      {
        node_id: "h-3",
        content: "A city charter in 1811.",
        source: "vector",
        score: 0.82,
        title: "History",
        document_id: "history.md",
      },
      { node_id: "faq-1", content: "The charter dates from 1811." },
      { node_id: "ctx-3", content: "No id here." },
    ]);
    expect(answer.trace).toEqual([]);
  });

  it("a reply with only an answer has no citations, contexts or trace", async () => {
    const { url } = await serve((res) => json(res, 200, { answer: "I don't know." }));
    const answer = await localBot({ url }).ask({ question: "?", signal: signal() });
    expect(answer).toMatchObject({
      answer: "I don't know.",
      citations: [],
      contexts: [],
      trace: [],
    });
  });
});

describe("createHttpBot: retries", () => {
  it("retries a 500 and returns the next success", async () => {
    const { url, received } = await serve((res, n) =>
      n === 1 ? json(res, 500, { error: "boom" }) : json(res, 200, { answer: "ok" }),
    );
    const answer = await localBot({ url, backoff: FAST }).ask({
      question: "q",
      signal: signal(),
    });
    expect(answer.answer).toBe("ok");
    expect(answer.attempts).toBe(2);
    expect(received).toHaveLength(2);
  });

  it("waits as long as a 429's Retry-After asks", async () => {
    const { url, received } = await serve((res, n) =>
      n === 1
        ? json(res, 429, "slow down", { "retry-after": "0.3" })
        : json(res, 200, { answer: "ok" }),
    );
    const started = performance.now();
    const answer = await localBot({ url, backoff: { baseMs: 5, maxMs: 5_000 } }).ask({
      question: "q",
      signal: signal(),
    });
    expect(answer.answer).toBe("ok");
    expect(received).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("caps a long Retry-After at backoff.maxMs", async () => {
    const { url } = await serve((res, n) =>
      n === 1 ? json(res, 429, "", { "retry-after": "3600" }) : json(res, 200, { answer: "ok" }),
    );
    // An hour's wait uncapped: the ask ends within the test's time only at backoff.maxMs.
    const answer = await localBot({ url, backoff: FAST }).ask({ question: "q", signal: signal() });
    expect(answer.answer).toBe("ok");
  });

  it("gives up with http_status after the retries when every reply is a 500", async () => {
    const { url, received } = await serve((res) => json(res, 500, { error: "database down" }));
    const error = await botError(
      localBot({ url, retries: 2, backoff: FAST }).ask({ question: "q", signal: signal() }),
    );
    expect(error.kind).toBe("http_status");
    expect(error.status).toBe(500);
    expect(error.message).toContain("HTTP 500 from bot");
    // Status level only: the body may be an internal service's page.
    expect(error.message).not.toContain("database down");
    expect(error.message).toContain("after 3 attempts");
    expect(received).toHaveLength(3);
  });

  it("does not retry another 4xx", async () => {
    const { url, received } = await serve((res) => json(res, 401, { error: "bad key" }));
    const error = await botError(
      localBot({ url, backoff: FAST }).ask({ question: "q", signal: signal() }),
    );
    expect(error).toMatchObject({ kind: "http_status", status: 401 });
    expect(received).toHaveLength(1);
  });

  it("times out an attempt that hangs, retries it, then throws timeout", async () => {
    const { url, received } = await serve(() => {
      // never replies
    });
    const error = await botError(
      localBot({ url, timeoutMs: 150, retries: 1, backoff: FAST }).ask({
        question: "q",
        signal: signal(),
      }),
    );
    expect(error.kind).toBe("timeout");
    expect(error.message).toContain("no reply within 150 ms");
    expect(received).toHaveLength(2);
  });
});

describe("createHttpBot: invalid replies", () => {
  it("garbage instead of JSON is invalid_response, not retried", async () => {
    const { url, received } = await serve((res) => json(res, 200, "<html>proxy error</html>"));
    const error = await botError(
      localBot({ url, backoff: FAST }).ask({ question: "q", signal: signal() }),
    );
    expect(error.kind).toBe("invalid_response");
    expect(error.message).toMatch(/reply is not JSON \(\d+ characters\)$/);
    expect(error.message).not.toContain("proxy error");
    expect(received).toHaveLength(1);
  });

  it("a reply over the size limit is invalid_response, read no further and not retried", async () => {
    const { url, received } = await serve((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      // Twice the limit, in 1 MiB chunks, without waiting for the client to read them.
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      for (let i = 0; i < 20; i++) res.write(chunk);
      res.end();
    });
    const error = await botError(
      localBot({ url, backoff: FAST }).ask({ question: "q", signal: signal() }),
    );
    expect(error.kind).toBe("invalid_response");
    expect(error.message).toContain("reply larger than 10485760 bytes");
    expect(received).toHaveLength(1);
  });

  it("a missing answer is invalid_response naming the field", async () => {
    const { url } = await serve((res) => json(res, 200, { response: "hi" }));
    const error = await botError(localBot({ url }).ask({ question: "q", signal: signal() }));
    expect(error.kind).toBe("invalid_response");
    expect(error.message).toContain("reply field answer: required string");
  });

  it("a reply nested deeper than 64 levels is invalid_response naming it, not retried", async () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const { url, received } = await serve((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"answer":"a","tool_calls":[{"internal_key":${deep}}]}`);
    });
    const error = await botError(
      localBot({ url, backoff: FAST }).ask({ question: "q", signal: signal() }),
    );
    expect(error.kind).toBe("invalid_response");
    expect(error.message).toMatch(/reply field tool_calls: nested deeper than 64 levels/);
    // The body's own keys stay out of the error.
    expect(error.message).not.toContain("internal_key");
    expect(received).toHaveLength(1);
  });

  it("a NUL in a reply's text is invalid_response naming the field", async () => {
    const { url } = await serve((res) => json(res, 200, { answer: "a\u0000b" }));
    const error = await botError(localBot({ url }).ask({ question: "q", signal: signal() }));
    expect(error.kind).toBe("invalid_response");
    expect(error.message).toContain("reply field answer: contains a NUL character");
  });

  it("a bad context names its index and field", async () => {
    const { url } = await serve((res) =>
      json(res, 200, { answer: "a", contexts: ["fine", { node_id: "x", content: 42 }] }),
    );
    const error = await botError(localBot({ url }).ask({ question: "q", signal: signal() }));
    expect(error.message).toContain("reply field contexts.1.content");
  });
});

describe("createHttpBot: unreachable bots and cancellation", () => {
  it("a refused port is unreachable, for ask and for probe", async () => {
    const port = await freePort();
    const bot = localBot({ url: `http://127.0.0.1:${port}/ask`, retries: 1, backoff: FAST });
    const asked = await botError(bot.ask({ question: "q", signal: signal() }));
    expect(asked.kind).toBe("unreachable");
    expect(asked.message).toContain("ECONNREFUSED");

    const probed = await botError(bot.probe!(signal()));
    expect(probed.kind).toBe("unreachable");
    expect(probed.message).toBe(`cannot connect to 127.0.0.1:${port}: ECONNREFUSED`);
  });

  it("a bot that closes the connection mid-reply is unreachable, retried, and says so", async () => {
    const { url, received } = await serve((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"answer":');
      res.socket?.destroy();
    });
    const asked = await botError(
      localBot({ url, retries: 1, backoff: FAST }).ask({ question: "q", signal: signal() }),
    );
    expect(asked.kind).toBe("unreachable");
    expect(asked.message).toMatch(/connection closed \(UND_ERR_SOCKET\) \(after 2 attempts\)$/);
    expect(received).toHaveLength(2);
  });

  it("a 3xx is an error, never followed to where it points", async () => {
    const elsewhere = await serve((res) => json(res, 200, { answer: "followed" }));
    const { url } = await serve((res) => {
      res.writeHead(307, { location: elsewhere.url });
      res.end();
    });
    const error = await botError(
      localBot({ url, headers: { authorization: "Bearer bot-secret-123456" } }).ask({
        question: "q",
        signal: signal(),
      }),
    );
    expect(error).toMatchObject({ kind: "http_status", status: 307 });
    expect(error.message).toContain("HTTP 307 from bot (redirects are not followed)");
    expect(elsewhere.received).toHaveLength(0);
  });

  it("probe succeeds against a listening bot without asking it anything", async () => {
    const { url, received } = await serve((res) => json(res, 200, { answer: "ok" }));
    await localBot({ url }).probe!(signal());
    expect(received).toHaveLength(0);
  });

  it("the caller's abort stops a hanging ask at once, without retrying", async () => {
    const { url, received } = await serve(() => {
      // never replies
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await localBot({ url, retries: 5, backoff: FAST })
      .ask({ question: "q", signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(BotError);
    expect((error as Error).name).toBe("AbortError");
    expect(received).toHaveLength(1);
  });

  it("the caller's abort during a backoff wait stops it at once", async () => {
    // An hour's wait: only the abort ends the ask within the test's time.
    const { url, received } = await serve((res) =>
      json(res, 503, "busy", { "retry-after": "3600" }),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("run cancelled")), 200);
    const error = await localBot({ url, backoff: { baseMs: 5, maxMs: 7_200_000 } })
      .ask({ question: "q", signal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe("run cancelled");
    expect(received).toHaveLength(1);
  });
});

describe("createHttpBot: the network policy", () => {
  it("refuses a loopback bot under the server's policy: nothing is sent, for ask or probe", async () => {
    const { url, received } = await serve((res) => json(res, 200, { answer: "reached" }));
    for (const target of [url, url.replace("127.0.0.1", "localhost")]) {
      const bot = createHttpBot({
        url: target,
        retries: 2,
        backoff: FAST,
        headers: { authorization: "Bearer bot-secret-123456" },
        network: restrictedBotNetwork(),
      });
      const asked = await botError(bot.ask({ question: "q", signal: signal() }));
      expect(asked.kind).toBe("unreachable");
      expect(asked.message).toMatch(/bot network policy does not allow .*loopback/);
      // Refused once, not retried: the address would be refused again.
      expect(asked.message).not.toContain("attempts");
      const probed = await botError(bot.probe!(signal()));
      expect(probed.message).toMatch(/bot network policy does not allow .*loopback/);
    }
    expect(received).toHaveLength(0);
  });

  it("refuses loopback when no policy is passed: the restrictive one is the default", async () => {
    const { url, received } = await serve((res) => json(res, 200, { answer: "reached" }));
    for (const target of [url, url.replace("127.0.0.1", "localhost"), "http://[::7f00:1]:9/ask"]) {
      const bot = createHttpBot({ url: target, retries: 0 });
      const asked = await botError(bot.ask({ question: "q", signal: signal() }));
      expect(asked.kind).toBe("unreachable");
      expect(asked.message).toMatch(/bot network policy does not allow/);
      await expect(bot.probe!(signal())).rejects.toThrow(/bot network policy does not allow/);
    }
    expect(received).toHaveLength(0);
  });

  it("reaches a host the operator allows", async () => {
    const { url, received } = await serve((res) => json(res, 200, { answer: "reached" }));
    for (const network of [
      restrictedBotNetwork({ allow_networks: ["127.0.0.1/32"] }),
      restrictedBotNetwork({ allow_hosts: ["localhost"] }),
    ]) {
      const target =
        network.mode === "restricted" && network.allow_hosts.length
          ? url.replace("127.0.0.1", "localhost")
          : url;
      const bot = createHttpBot({ url: target, network });
      await bot.probe!(signal());
      expect((await bot.ask({ question: "q", signal: signal() })).answer).toBe("reached");
    }
    expect(received).toHaveLength(2);
  });

  it("refuses a port fetch never connects to, once and by name, for ask and probe", async () => {
    const bot = localBot({ url: "http://127.0.0.1:6000/ask", retries: 2, backoff: FAST });
    const asked = await botError(bot.ask({ question: "q", signal: signal() }));
    expect(asked.kind).toBe("unreachable");
    expect(asked.message).toContain("port 6000 is one that fetch never connects to");
    expect(asked.message).not.toContain("attempts");
    await expect(bot.probe!(signal())).rejects.toThrow(/port 6000 is one that fetch never/);
  });
});

describe("createHttpBot: secrets", () => {
  it("describe() shows the URL without userinfo or credential parameters", () => {
    const bot = localBot({
      url: "https://alice:hunter22@bots.example.com:8443/ask?api_key=sk-abcdef&collection=lanting",
      headers: { "x-api-key": "sk-live-0123456789" },
    });
    const { kind, name } = bot.describe();
    expect(kind).toBe("http");
    expect(name).toBe("https://bots.example.com:8443/ask?api_key=REDACTED&collection=lanting");
    expect(name).not.toContain("hunter22");
    expect(name).not.toContain("sk-");
    expect(localBot({ url: "http://127.0.0.1:1/ask", name: "acme-rag" }).describe()).toEqual({
      kind: "http",
      name: "acme-rag",
    });
  });

  it("an error echoing a header's value does not carry it", async () => {
    const { url } = await serve((res, n) =>
      json(res, 403, `key Bearer sk-live-0123456789 is not allowed (request ${n})`),
    );
    const error = await botError(
      localBot({ url, headers: { authorization: "Bearer sk-live-0123456789" } }).ask({
        question: "q",
        signal: signal(),
      }),
    );
    // The body never reaches the message, so neither does the key it echoes.
    expect(error.message).toMatch(/HTTP 403 from bot$/);
    expect(error.message).not.toContain("sk-live-0123456789");
  });

  it("rejects a bad URL without repeating it", () => {
    const make = () => localBot({ url: "ftp://user:s3cret-pass@host/x" });
    expect(make).toThrow(HttpBotOptionsError);
    expect(make).toThrow(/url: expected an http:\/\/ or https:\/\/ URL/);
    expect(make).not.toThrow(/s3cret/);
    expect(displayUrl("http://u:p@h/a?token=t&x=1")).toBe("http://h/a?token=REDACTED&x=1");
  });
});
