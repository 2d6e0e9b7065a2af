import { describe, expect, it } from "vitest";
import { ProviderLimiters } from "../../src/llm/index.js";
import { scriptedClient, useScriptedLlm } from "./use-scripted-llm.js";

const hello = [{ role: "user" as const, content: "hi" }];

const server = useScriptedLlm({
  latencyMs: 5,
  unsupportedFormats: ["json_schema"],
  rules: [{ times: 1, reply: { content: "from the start rule" } }],
});

// Read at module load, before beforeAll has started the server.
let earlyRead: unknown;
try {
  earlyRead = server.baseUrl;
} catch (error) {
  earlyRead = error;
}

// Tests in a file run in order: the second sees what the hooks made of the first's changes.
describe("useScriptedLlm", () => {
  it("refuses to be read before the server starts, naming the hooks", () => {
    expect(earlyRead).toBeInstanceOf(Error);
    expect((earlyRead as Error).message).toMatch(/useScriptedLlm.*beforeAll/);
  });

  it("answers with its start rule, then lets a test change it", async () => {
    const client = scriptedClient(server, "judge", { max_retries: 0 });
    expect((await client.chat({ messages: hello })).content).toBe("from the start rule");

    server.on({ reply: { content: "from the test" } });
    server.latencyMs = 0;
    server.unsupportedFormats.clear();
    expect((await client.chat({ messages: hello })).content).toBe("from the test");
    expect(server.requests).toHaveLength(2);
  });

  it("puts the server back as it started before each test", async () => {
    expect(server.requests).toHaveLength(0);
    expect(server.latencyMs).toBe(5);
    expect([...server.unsupportedFormats]).toEqual(["json_schema"]);
    const client = scriptedClient(server, "judge", { max_retries: 0 });
    expect((await client.chat({ messages: hello })).content).toBe("from the start rule");
  });

  it("builds a role's client from the settings, sharing limiters only when given", async () => {
    const limiters = new ProviderLimiters();
    const judge = scriptedClient(
      server,
      "judge",
      { roles: { judge: { model: "judge-model" } } },
      { limiters },
    );
    expect(judge.role).toBe("judge");
    expect(judge.model).toBe("judge-model");
    await judge.chat({ messages: hello });
    expect(server.requests[0]?.body.model).toBe("judge-model");
    expect(limiters.snapshot().map((limit) => limit.provider)).toEqual([server.baseUrl]);
  });
});
