import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  promptText,
  type ScriptedLlm,
  startScriptedLlm,
  startScriptedLlmProcess,
} from "./scripted-llm.js";

let server: ScriptedLlm;
beforeAll(async () => {
  server = await startScriptedLlm();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
  server.latencyMs = 0;
  server.unsupportedFormats.clear();
});

async function chat(body: Record<string, unknown>, signal?: AbortSignal) {
  const response = await fetch(`${server.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], ...body }),
    signal,
  });
  const json = (await response.json()) as {
    choices?: { message: { content: string } }[];
    error?: { message: string };
  };
  return { response, json, content: json.choices?.[0]?.message.content };
}

describe("scripted LLM server", () => {
  it("listens on 127.0.0.1 and records requests", async () => {
    server.on({ reply: { json: { a: 1 } } });
    const { response, content } = await chat({ seed: 3 });
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(response.status).toBe(200);
    expect(content).toBe('{"a":1}');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: "POST", path: "/v1/chat/completions" });
    expect(server.requests[0]?.body.seed).toBe(3);
    expect(promptText(server.requests[0] as never)).toBe("hi");
  });

  it("answers chatty (prose + fenced JSON) and auto by response_format", async () => {
    server.on({ times: 1, reply: { chatty: { a: 1 } } });
    server.on({ reply: { auto: { b: 2 } } });
    expect((await chat({})).content).toMatch(
      /Here is my evaluation:\n\n```json\n\{\n {2}"a": 1\n\}\n```/,
    );
    expect((await chat({})).content).toContain("```json");
    expect((await chat({ response_format: { type: "json_object" } })).content).toBe('{"b":2}');
  });

  it("rejects unsupported response formats with a 400", async () => {
    server.unsupportedFormats.add("json_schema");
    server.on({ reply: { json: {} } });
    const { response, json } = await chat({
      response_format: { type: "json_schema", json_schema: {} },
    });
    expect(response.status).toBe(400);
    expect(json.error?.message).toContain("json_schema");
    expect((await chat({ response_format: { type: "json_object" } })).response.status).toBe(200);
  });

  it("returns statuses with and without Retry-After, and malformed content", async () => {
    server.on({ times: 1, reply: { status: 429, retryAfter: "2" } });
    server.on({ times: 1, reply: { status: 429 } });
    server.on({ times: 1, reply: { status: 500 } });
    server.on({ reply: { content: '{"broken": ' } });
    const first = await chat({});
    expect(first.response.status).toBe(429);
    expect(first.response.headers.get("retry-after")).toBe("2");
    const second = await chat({});
    expect(second.response.status).toBe(429);
    expect(second.response.headers.get("retry-after")).toBeNull();
    expect((await chat({})).response.status).toBe(500);
    expect((await chat({})).content).toBe('{"broken": ');
  });

  it("can hang until the client gives up", async () => {
    server.on({ reply: { hang: true } });
    await expect(chat({}, AbortSignal.timeout(50))).rejects.toThrow();
  });

  it("adds configurable latency and tracks concurrency", async () => {
    // Long enough that the three requests overlap even on a busy machine.
    server.latencyMs = 250;
    server.on({ reply: { content: "x" } });
    const started = performance.now();
    await Promise.all([chat({}), chat({}), chat({})]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    expect(server.maxInFlight).toBe(3);
  });

  it("answers embeddings with deterministic vectors and unmatched chats with 418", async () => {
    const response = await fetch(`${server.baseUrl}/embeddings`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "e", input: ["a", "b"] }),
    });
    const json = (await response.json()) as { data: { embedding: number[] }[] };
    expect(json.data).toHaveLength(2);
    expect(json.data[0]?.embedding).toHaveLength(8);
    expect((await chat({})).response.status).toBe(418);
  });
});

describe("scripted LLM server in a child process", () => {
  it("answers static replies, changes latency and exits on close", async () => {
    const child = await startScriptedLlmProcess({ replies: [{ reply: { json: { ok: true } } }] });
    try {
      const ask = () =>
        fetch(`${child.baseUrl}/chat/completions`, {
          method: "POST",
          body: JSON.stringify({ model: "m", messages: [] }),
        }).then(
          (r) =>
            r.json() as Promise<{ model: string; choices: { message: { content: string } }[] }>,
        );
      const first = await ask();
      expect(first.choices[0]?.message.content).toBe('{"ok":true}');
      expect(first.model).toBe("m");
      await child.setLatency(60);
      const started = performance.now();
      await ask();
      expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    } finally {
      await child.close();
    }
  });
});
