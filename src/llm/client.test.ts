import { describe, expect, it } from "vitest";
import { z } from "zod";
import { promptText, startScriptedLlm } from "../../test/support/scripted-llm.js";
import { useScriptedLlm } from "../../test/support/use-scripted-llm.js";
import type { CachedResponse, ResponseCache } from "./cache.js";
import {
  type CallRecord,
  createLlmClient,
  createLlmClients,
  type LlmClientDeps,
} from "./client.js";
import {
  type LlmConfigInput,
  type ModelConfig,
  parseLlmConfig,
  resolveModelConfig,
} from "./config.js";
import {
  LlmAbortError,
  LlmConnectionError,
  LlmError,
  LlmHttpError,
  LlmResponseError,
  LlmTimeoutError,
} from "./errors.js";
import { ProviderLimiters } from "./limiter.js";
import { generateObject, REPAIR_PROMPT } from "./structured.js";

const SECRET = "sk-test-very-secret-key-123";

const server = useScriptedLlm();

function config(overrides: LlmConfigInput = {}, base = server.baseUrl): ModelConfig {
  return resolveModelConfig(
    parseLlmConfig({
      base_url: base,
      api_key: SECRET,
      max_retries: 2,
      backoff_ms: 5,
      max_backoff_ms: 2_000,
      timeout_ms: 2_000,
      ...overrides,
    }),
    "judge",
  );
}

/** Each test gets its own limiter registry so AIMD state does not leak between tests. */
function client(overrides: LlmConfigInput = {}, deps: LlmClientDeps = {}) {
  return createLlmClient(config(overrides), { limiters: new ProviderLimiters(), ...deps });
}

const Verdict = z.object({ passed: z.boolean(), suggestions: z.array(z.string()) });
const verdict = { passed: false, suggestions: ["Cite a source for the 2021 launch date"] };
const hello = [{ role: "user" as const, content: "Say hello as JSON" }];

describe("chat", () => {
  it("sends temperature 0, the fixed seed, the model and the key, and records usage", async () => {
    server.on({ reply: { content: "hello" } });
    const records: CallRecord[] = [];
    const llm = client({}, { onCall: (r) => records.push(r) });
    const result = await llm.chat({ messages: hello });

    expect(result.content).toBe("hello");
    expect(result.finish_reason).toBe("stop");
    expect(result.usage.total_tokens).toBeGreaterThan(0);
    expect(result.call).toMatchObject({ kind: "chat", cached: false, attempts: 1, outcome: "ok" });
    expect(result.call.latency_ms).toBeGreaterThan(0);
    expect(records).toEqual([result.call]);

    const request = server.requests[0];
    expect(request?.body).toMatchObject({ model: "gpt-4o-mini", temperature: 0, seed: 42 });
    expect(request?.body.response_format).toBeUndefined();
    expect(request?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(llm.usage()).toMatchObject({ calls: 1, attempts: 1, failed_calls: 0 });
    expect(llm.usage().total_tokens).toBe(result.usage.total_tokens);
  });

  it("records the prompt tokens the provider served from its cache, in the call and the totals", async () => {
    server.on({
      reply: {
        content: "hi",
        usage: { prompt_tokens: 1200, completion_tokens: 30, cached_tokens: 1024 },
      },
    });
    const llm = client();
    const result = await llm.chat({ messages: hello });
    expect(result.usage).toEqual({
      prompt_tokens: 1200,
      completion_tokens: 30,
      total_tokens: 1230,
      cached_tokens: 1024,
    });
    expect(result.call.usage.cached_tokens).toBe(1024);
    expect(llm.usage()).toMatchObject({ prompt_tokens: 1200, cached_tokens: 1024 });
  });

  it("lets a call override temperature, seed and max_tokens", async () => {
    server.on({ reply: { content: "x" } });
    await client().chat({ messages: hello, temperature: 0.7, seed: 7, maxTokens: 50 });
    expect(server.requests[0]?.body).toMatchObject({ temperature: 0.7, seed: 7, max_tokens: 50 });
  });

  it("never puts the API key in a call record or an error", async () => {
    server.on({ reply: { status: 401, message: "invalid api key" } });
    const records: CallRecord[] = [];
    const error = await client({}, { onCall: (r) => records.push(r) })
      .chat({ messages: hello })
      .catch((e: unknown) => e);
    expect(LlmHttpError.isInstance(error)).toBe(true);
    expect((error as LlmHttpError).status).toBe(401);
    expect((error as LlmHttpError).attempts).toBe(1);
    expect(String(error)).not.toContain(SECRET);
    expect(JSON.stringify(records)).not.toContain(SECRET);
    expect(records[0]?.outcome).toBe("error");
  });
});

describe("structured output modes", () => {
  it("json_schema: sends the zod schema as a strict JSON Schema", async () => {
    server.on({ reply: { json: verdict } });
    const result = await generateObject({
      client: client({ structured_output: "json_schema" }),
      messages: hello,
      schema: Verdict,
      schemaName: "review",
    });
    expect(result).toMatchObject({ ok: true, value: verdict });
    const format = server.requests[0]?.body.response_format;
    expect(format?.type).toBe("json_schema");
    expect(format?.json_schema).toMatchObject({ name: "review", strict: true });
    expect(format?.json_schema?.schema.required).toEqual(["passed", "suggestions"]);
    expect(format?.json_schema?.schema.$schema).toBeUndefined();
  });

  it("json_object (the default): asks for a JSON object", async () => {
    server.on({ reply: { json: verdict } });
    const llm = client();
    expect(llm.structuredOutput).toBe("json_object");
    const result = await generateObject({
      client: llm,
      messages: hello,
      schema: Verdict,
      schemaName: "v",
    });
    expect(result.ok).toBe(true);
    expect(server.requests[0]?.body.response_format).toEqual({ type: "json_object" });
  });

  it("prompt: sends no response_format and digs the JSON out of a chatty reply", async () => {
    server.on({ reply: { auto: verdict } });
    const result = await generateObject({
      client: client({ structured_output: "prompt" }),
      messages: hello,
      schema: Verdict,
      schemaName: "v",
    });
    expect(result).toMatchObject({ ok: true, value: verdict });
    expect(result.ok && result.raw).toContain("Here is my evaluation");
    expect(server.requests[0]?.body.response_format).toBeUndefined();
  });

  it("steps down to json_object when the server rejects json_schema with a 400, and remembers", async () => {
    server.unsupportedFormats.add("json_schema");
    server.on({ reply: { auto: verdict } });
    const llm = client({ structured_output: "json_schema" });
    const first = await generateObject({
      client: llm,
      messages: hello,
      schema: Verdict,
      schemaName: "v",
    });
    expect(first.ok).toBe(true);
    expect(first.calls[0]).toMatchObject({ attempts: 2, response_format: "json_object" });
    expect(server.requests.map((r) => r.body.response_format?.type)).toEqual([
      "json_schema",
      "json_object",
    ]);

    server.requests.length = 0;
    await generateObject({ client: llm, messages: hello, schema: Verdict, schemaName: "v" });
    expect(server.requests.map((r) => r.body.response_format?.type)).toEqual(["json_object"]);
  });

  it("steps down to prompt mode when neither response_format is supported", async () => {
    server.unsupportedFormats.add("json_schema");
    server.unsupportedFormats.add("json_object");
    server.on({ reply: { auto: verdict } });
    const result = await generateObject({
      client: client({ structured_output: "json_schema" }),
      messages: hello,
      schema: Verdict,
      schemaName: "v",
    });
    expect(result).toMatchObject({ ok: true, value: verdict });
    expect(server.requests.map((r) => r.body.response_format?.type ?? "none")).toEqual([
      "json_schema",
      "json_object",
      "none",
    ]);
  });

  it("re-asks once with the validation error when the reply is malformed", async () => {
    server.on({ times: 1, reply: { content: '{"passed": "nope", ' } });
    server.on({ reply: { json: verdict } });
    const result = await generateObject({
      client: client(),
      messages: hello,
      schema: Verdict,
      schemaName: "v",
    });
    expect(result).toMatchObject({ ok: true, value: verdict });
    expect(result.calls).toHaveLength(2);
    const reask = server.requests[1]?.body.messages;
    expect(reask?.at(-2)).toEqual({ role: "assistant", content: '{"passed": "nope", ' });
    expect(reask?.at(-1)?.content).toContain(REPAIR_PROMPT.split("{error}")[0]);
    expect(reask?.at(-1)?.content).toContain("invalid JSON");
  });

  it("re-asks with the zod error when the JSON has the wrong shape", async () => {
    server.on({ times: 1, reply: { json: { passed: "yes" } } });
    server.on({ reply: { json: verdict } });
    const result = await generateObject({
      client: client(),
      messages: hello,
      schema: Verdict,
      schemaName: "v",
    });
    expect(result.ok).toBe(true);
    expect(promptText(server.requests[1] as never)).toMatch(/passed[\s\S]*suggestions/);
  });

  it("gives up after the re-ask, keeping both raw replies", async () => {
    server.on({ reply: { content: "I cannot produce JSON today." } });
    const result = await generateObject({
      client: client(),
      messages: hello,
      schema: Verdict,
      schemaName: "v",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.raw).toEqual(["I cannot produce JSON today.", "I cannot produce JSON today."]);
    expect(result.error).toContain("no JSON");
    expect(result.calls).toHaveLength(2);
  });
});

describe("retries", () => {
  it("honours Retry-After (seconds) on a 429 instead of its own backoff", async () => {
    server.on({ times: 1, reply: { status: 429, retryAfter: "1" } });
    server.on({ reply: { content: "ok" } });
    const started = performance.now();
    const result = await client({ backoff_ms: 1 }).chat({ messages: hello });
    const elapsed = performance.now() - started;
    expect(result.content).toBe("ok");
    expect(result.call.attempts).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(950);
  });

  it("honours retry-after-ms, which beats a long backoff", async () => {
    server.on({ times: 1, reply: { status: 429, retryAfterMs: "10" } });
    server.on({ reply: { content: "ok" } });
    // The backoff would wait at least half an hour: the call ends within the test's time only by
    // waiting what the server asked.
    const result = await client({ backoff_ms: 3_600_000, max_backoff_ms: 7_200_000 }).chat({
      messages: hello,
    });
    expect(result.content).toBe("ok");
    expect(result.call.attempts).toBe(2);
  });

  it("backs off on a 429 without Retry-After", async () => {
    server.on({ times: 2, reply: { status: 429 } });
    server.on({ reply: { content: "ok" } });
    const result = await client({ backoff_ms: 10 }).chat({ messages: hello });
    expect(result.call.attempts).toBe(3);
  });

  it("fails at once when Retry-After exceeds max_backoff_ms", async () => {
    server.on({ reply: { status: 429, retryAfter: "3600" } });
    const error = await client()
      .chat({ messages: hello })
      .catch((e: unknown) => e);
    expect(LlmHttpError.isInstance(error) && error.status).toBe(429);
    expect((error as LlmHttpError).attempts).toBe(1);
    expect((error as Error).message).toContain("Retry-After");
  });

  it("retries 500s, then reports the last status with the attempt count", async () => {
    server.on({ reply: { status: 500, message: "boom" } });
    const error = await client({ max_retries: 2 })
      .chat({ messages: hello })
      .catch((e: unknown) => e);
    expect(LlmHttpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 500, attempts: 3, retryable: true });
    expect(server.requests).toHaveLength(3);
  });

  it("recovers from a transient 500", async () => {
    server.on({ times: 1, reply: { status: 503 } });
    server.on({ reply: { content: "ok" } });
    expect((await client().chat({ messages: hello })).call.attempts).toBe(2);
  });

  it("does not retry other 4xx", async () => {
    server.on({ reply: { status: 404, message: "model not found" } });
    const error = await client()
      .chat({ messages: hello })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, attempts: 1, retryable: false });
  });

  it("times out a hanging server per attempt and retries", async () => {
    server.on({ reply: { hang: true } });
    const error = await client({ timeout_ms: 100, max_retries: 1 })
      .chat({ messages: hello })
      .catch((e: unknown) => e);
    expect(LlmTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ timeoutMs: 100, attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it("takes the timeout from the call options", async () => {
    server.on({ reply: { content: "late", latencyMs: 300 } });
    const error = await client({ max_retries: 0 })
      .chat({ messages: hello, timeoutMs: 50 })
      .catch((e: unknown) => e);
    expect(LlmTimeoutError.isInstance(error)).toBe(true);
  });

  it("reports an unreachable server as a connection error", async () => {
    const gone = await startScriptedLlm();
    const base = gone.baseUrl;
    await gone.close();
    const llm = createLlmClient(config({ max_retries: 1 }, base), {
      limiters: new ProviderLimiters(),
    });
    const error = await llm.chat({ messages: hello }).catch((e: unknown) => e);
    expect(LlmConnectionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ attempts: 2 });
  });

  it("rejects a 2xx body that is not a chat completion", async () => {
    server.on({ reply: { rawBody: JSON.stringify({ hello: "world" }) } });
    const error = await client()
      .chat({ messages: hello })
      .catch((e: unknown) => e);
    expect(LlmResponseError.isInstance(error)).toBe(true);
    expect(LlmError.isInstance(error)).toBe(true);
  });

  it("checks every choice and the usage counts of a 2xx body", async () => {
    const message = { role: "assistant", content: "ok" };
    const invalid = [
      [],
      { choices: [] },
      { model: 7, choices: [{ message }] },
      { choices: [{ message }, { message: { content: 3 } }] },
      { choices: [{ message, finish_reason: 1 }] },
      { choices: [{ message: null }] },
      { choices: [{ message }], usage: { prompt_tokens: -1 } },
      { choices: [{ message }], usage: { total_tokens: 1.5 } },
      { choices: [{ message }], usage: [] },
    ];
    for (const body of invalid) {
      server.on({ reply: { rawBody: JSON.stringify(body) }, times: 1 });
      const error = await client()
        .chat({ messages: hello, noCache: true })
        .catch((e: unknown) => e);
      expect(LlmResponseError.isInstance(error), JSON.stringify(body)).toBe(true);
    }
    server.on({
      reply: {
        rawBody: JSON.stringify({
          choices: [{ message: { content: null }, finish_reason: null }, { message: {} }],
          usage: null,
        }),
      },
    });
    const result = await client().chat({ messages: hello });
    expect(result).toMatchObject({
      content: "",
      finish_reason: null,
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  });
});

describe("cancellation", () => {
  it("aborts an in-flight call", async () => {
    server.on({ reply: { hang: true } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    // The server never answers and the call's own timeout is an hour: only the abort ends it.
    const error = await client({ timeout_ms: 3_600_000 })
      .chat({ messages: hello, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(LlmAbortError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("aborts during backoff", async () => {
    server.on({ reply: { status: 429, retryAfter: "20" } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await client({ max_backoff_ms: 60_000 })
      .chat({ messages: hello, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(LlmAbortError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("refuses to start with an already-aborted signal", async () => {
    const error = await client()
      .chat({ messages: hello, signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(LlmAbortError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});

describe("concurrency per provider", () => {
  it("never has more than max_concurrency calls in flight", async () => {
    server.latencyMs = 60;
    server.on({ reply: { content: "ok" } });
    const llm = client({ max_concurrency: 3 });
    await Promise.all(Array.from({ length: 9 }, () => llm.chat({ messages: hello })));
    expect(server.maxInFlight).toBeLessThanOrEqual(3);
    expect(server.maxInFlight).toBeGreaterThan(1);
  });

  it("halves the limit on a 429 and grows back on success", async () => {
    const limiters = new ProviderLimiters();
    const llm = createLlmClient(config({ max_concurrency: 8 }), { limiters });
    const limiter = limiters.forProvider(server.baseUrl, 8);
    server.on({ times: 1, reply: { status: 429, retryAfterMs: "1" } });
    server.on({ reply: { content: "ok" } });
    await llm.chat({ messages: hello });
    // halved to 4 by the 429, then +1 for the retry's success (below the level that drew the 429)
    expect(limiter.limit).toBe(5);
    for (let i = 0; i < 40; i++) await llm.chat({ messages: hello });
    expect(limiter.limit).toBe(8);
  });

  it("shares one limiter between roles on the same provider, with separate clients", () => {
    const limiters = new ProviderLimiters();
    const clients = createLlmClients(
      parseLlmConfig({
        base_url: server.baseUrl,
        roles: { generator: { model: "same" }, judge: { model: "same" } },
      }),
      { limiters },
    );
    expect(clients.judge).not.toBe(clients.generator);
    expect(clients.judge.model).toBe(clients.generator.model);
    expect(clients.judge.role).toBe("judge");
    expect(limiters.forProvider(server.baseUrl, 1000).max).toBe(64);
  });
});

describe("cache", () => {
  function mapCache() {
    const map = new Map<string, CachedResponse>();
    const cache: ResponseCache = {
      get: async (key) => map.get(key),
      set: async (key, value) => {
        map.set(key, value);
      },
    };
    return { map, cache };
  }

  it("answers a repeated request from the cache without a call", async () => {
    server.on({ reply: { json: verdict } });
    const { map, cache } = mapCache();
    const llm = client({}, { cache });
    const first = await generateObject({
      client: llm,
      messages: hello,
      schema: Verdict,
      schemaName: "v",
    });
    const second = await generateObject({
      client: llm,
      messages: hello,
      schema: Verdict,
      schemaName: "v",
    });
    expect(server.requests).toHaveLength(1);
    expect(map.size).toBe(1);
    expect(second).toMatchObject({ ok: true, value: verdict });
    expect(first.calls[0]?.cached).toBe(false);
    expect(second.calls[0]).toMatchObject({ cached: true, attempts: 0 });
    expect(llm.usage()).toMatchObject({ calls: 2, cached_calls: 1, attempts: 1 });
    // The cache hit spent nothing: the totals hold the first call's tokens once, the hit's apart.
    expect(first.calls[0]?.usage.total_tokens).toBeGreaterThan(0);
    expect(llm.usage()).toMatchObject({
      total_tokens: first.calls[0]?.usage.total_tokens,
      prompt_tokens: first.calls[0]?.usage.prompt_tokens,
      cache_hit_tokens: first.calls[0]?.usage.total_tokens,
    });
  });

  it("survives a new client (a re-run) and keys on model, messages and parameters", async () => {
    server.on({ reply: { content: "ok" } });
    const { cache } = mapCache();
    await client({}, { cache }).chat({ messages: hello });
    await client({}, { cache }).chat({ messages: hello });
    expect(server.requests).toHaveLength(1);
    await client({}, { cache }).chat({ messages: hello, seed: 1 });
    await client({ roles: { judge: { model: "other" } } }, { cache }).chat({ messages: hello });
    await client({}, { cache }).chat({ messages: [{ role: "user", content: "different" }] });
    expect(server.requests).toHaveLength(4);
  });

  it("keys on the provider too: one model name on another server is another model", async () => {
    server.on({ reply: { content: "ok" } });
    const other = await startScriptedLlm({ rules: [{ reply: { content: "other" } }] });
    try {
      const { cache } = mapCache();
      await client({}, { cache }).chat({ messages: hello });
      const elsewhere = await createLlmClient(config({}, other.baseUrl), { cache }).chat({
        messages: hello,
      });
      expect(elsewhere.content).toBe("other");
      expect(other.requests).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it("noCache bypasses the cache: no lookup and no write", async () => {
    server.on({ times: 1, reply: { content: "old" } });
    server.on({ reply: { content: "new" } });
    const { map, cache } = mapCache();
    const llm = client({}, { cache });
    await llm.chat({ messages: hello });
    expect((await llm.chat({ messages: hello, noCache: true })).content).toBe("new");
    expect((await llm.chat({ messages: hello })).content).toBe("old");
    expect(map.size).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it("returns the answer when the cache write fails, and records why", async () => {
    server.on({ reply: { content: "kept" } });
    const cache: ResponseCache = {
      get: async () => undefined,
      set: async () => {
        throw new Error("database is down");
      },
    };
    const result = await client({}, { cache }).chat({ messages: hello });
    expect(result.content).toBe("kept");
    expect(result.call).toMatchObject({ outcome: "ok", cache_error: "database is down" });
  });

  it("ignores a corrupt cache entry", async () => {
    server.on({ reply: { content: "fresh" } });
    const cache: ResponseCache = {
      get: async () => ({ content: 42 }) as unknown as CachedResponse,
      set: async () => {},
    };
    expect((await client({}, { cache }).chat({ messages: hello })).content).toBe("fresh");
  });

  it("keeps the requested key when json_schema was downgraded, so a re-run still hits", async () => {
    server.unsupportedFormats.add("json_schema");
    server.on({ reply: { json: verdict } });
    const { cache } = mapCache();
    const run = () =>
      generateObject({
        client: client({ structured_output: "json_schema" }, { cache }),
        messages: hello,
        schema: Verdict,
        schemaName: "v",
      });
    await run();
    const before = server.requests.length;
    const again = await run();
    expect(server.requests.length).toBe(before);
    expect(again.calls[0]?.cached).toBe(true);
  });
});

describe("embeddings", () => {
  it("returns one float vector per input, in order", async () => {
    const llm = createLlmClient(
      resolveModelConfig(parseLlmConfig({ base_url: server.baseUrl }), "embedder"),
      { limiters: new ProviderLimiters() },
    );
    const result = await llm.embed({ input: ["alpha", "beta"] });
    expect(result.embeddings).toHaveLength(2);
    expect(result.embeddings[0]).toHaveLength(8);
    expect(result.call).toMatchObject({ kind: "embedding", attempts: 1, role: "embedder" });
    expect(server.requests[0]?.body).toMatchObject({
      model: "text-embedding-3-small",
      encoding_format: "float",
      input: ["alpha", "beta"],
    });
  });

  it("retries a 429 on embeddings too", async () => {
    server.on({ times: 1, when: (r) => r.path.endsWith("/embeddings"), reply: { status: 429 } });
    const result = await client().embed({ input: ["x"] });
    expect(result.call.attempts).toBe(2);
  });
});
