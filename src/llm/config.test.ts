import { describe, expect, it } from "vitest";
import {
  applyLlmEnv,
  LLM_DEFAULTS,
  LlmConfigSchema,
  parseLlmConfig,
  redactLlmConfig,
  resolveModelConfig,
} from "./config.js";
import { LlmConfigError } from "./errors.js";
import { REDACTED } from "./redact.js";

describe("LlmConfigSchema", () => {
  it("parses {} into the documented defaults", () => {
    const config = LlmConfigSchema.parse({});
    const judge = resolveModelConfig(config, "judge");
    expect(judge).toEqual({
      role: "judge",
      model: LLM_DEFAULTS.models.judge,
      base_url: "https://api.openai.com/v1",
      api_key: undefined,
      timeout_ms: 60_000,
      max_retries: 3,
      backoff_ms: 500,
      max_backoff_ms: 30_000,
      max_concurrency: 64,
      temperature: 0,
      seed: 42,
      max_tokens: undefined,
      structured_output: "json_object",
    });
    expect(resolveModelConfig(config, "embedder").model).toBe("text-embedding-3-small");
  });

  it("lets a role override the shared settings", () => {
    const config = parseLlmConfig({
      base_url: "http://localhost:11434/v1/",
      structured_output: "prompt",
      roles: { judge: { model: "qwen2.5:14b", structured_output: "json_schema", seed: 7 } },
    });
    expect(resolveModelConfig(config, "judge")).toMatchObject({
      model: "qwen2.5:14b",
      base_url: "http://localhost:11434/v1",
      structured_output: "json_schema",
      seed: 7,
    });
    expect(resolveModelConfig(config, "generator").structured_output).toBe("prompt");
  });

  it("rejects unknown keys and bad values, naming the field", () => {
    expect(() => parseLlmConfig({ roles: { judge: { modle: "x" } } })).toThrow(
      /llm\.roles\.judge: expected no unknown keys \(found modle\)/,
    );
    const error = (() => {
      try {
        parseLlmConfig({ structured_output: "xml" });
      } catch (e) {
        return e;
      }
    })();
    expect(LlmConfigError.isInstance(error)).toBe(true);
    expect((error as LlmConfigError).field).toBe("llm.structured_output");
    expect(() => parseLlmConfig({ base_url: "localhost:1234" })).toThrow(/llm\.base_url/);
    expect(() => parseLlmConfig({ max_concurrency: 0 })).toThrow(/llm\.max_concurrency/);
  });
});

describe("redactLlmConfig", () => {
  it("removes every api_key value, at any depth, and leaves the rest", async () => {
    const config = parseLlmConfig(
      applyLlmEnv(
        { api_key: "sk-file", roles: { judge: { api_key: "sk-judge" } } },
        { RAGJUDGE_EMBEDDER_API_KEY: "sk-embed" },
      ),
    );
    const redacted = redactLlmConfig(config);
    const text = JSON.stringify(redacted);
    for (const secret of ["sk-file", "sk-judge", "sk-embed"]) expect(text).not.toContain(secret);
    expect(redacted.api_key).toBe(REDACTED);
    expect(redacted.roles.judge.api_key).toBe(REDACTED);
    expect(redacted.roles.generator.api_key).toBeUndefined();
    expect(redacted.roles.judge.model).toBe(config.roles.judge.model);
    // the original is untouched
    expect(config.roles.judge.api_key).toBe("sk-judge");
    // credentials inside a base URL too
    expect(redactLlmConfig({ base_url: "https://user:pw@host/v1" }).base_url).toBe(
      `https://${REDACTED}@host/v1`,
    );
    // resolved model configs too
    expect(redactLlmConfig(resolveModelConfig(config, "embedder")).api_key).toBe(REDACTED);
  });
});
