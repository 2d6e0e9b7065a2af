import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  LLM_DEFAULTS,
  LlmConfigSchema,
  loadLlmConfig,
  parseLlmConfig,
  REDACTED,
  redactLlmConfig,
  resolveModelConfig,
} from "./config.js";
import { LlmConfigError } from "./errors.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ragjudge-llm-config-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeConfig(content: unknown, name = "ragjudge.config.json") {
  await writeFile(join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
}

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
      max_concurrency: 8,
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

describe("loadLlmConfig", () => {
  it("uses defaults when there is no file and no environment", async () => {
    const config = await loadLlmConfig({ cwd: dir, env: {} });
    expect(config).toEqual(LlmConfigSchema.parse({}));
  });

  it("reads the llm section of ragjudge.config.json", async () => {
    await writeConfig({ gate: {}, llm: { roles: { judge: { model: "gpt-4o" } } } });
    const config = await loadLlmConfig({ cwd: dir, env: {} });
    expect(config.roles.judge.model).toBe("gpt-4o");
  });

  it("applies the environment: role variables beat the file, which beats OPENAI_*", async () => {
    await writeConfig({
      llm: {
        base_url: "http://file-global/v1",
        roles: { judge: { base_url: "http://file-judge/v1" }, rewriter: { model: "file-model" } },
      },
    });
    const config = await loadLlmConfig({
      cwd: dir,
      env: {
        OPENAI_BASE_URL: "http://env-global/v1",
        OPENAI_API_KEY: "sk-global",
        RAGJUDGE_JUDGE_MODEL: "env-judge-model",
        RAGJUDGE_JUDGE_API_KEY: "sk-judge",
        RAGJUDGE_EMBEDDER_BASE_URL: "http://env-embedder/v1",
        RAGJUDGE_GENERATOR_MODEL: "  ",
      },
    });
    expect(resolveModelConfig(config, "judge")).toMatchObject({
      model: "env-judge-model",
      base_url: "http://file-judge/v1",
      api_key: "sk-judge",
    });
    expect(resolveModelConfig(config, "generator")).toMatchObject({
      model: LLM_DEFAULTS.models.generator,
      base_url: "http://env-global/v1",
      api_key: "sk-global",
    });
    expect(resolveModelConfig(config, "rewriter").model).toBe("file-model");
    expect(resolveModelConfig(config, "embedder").base_url).toBe("http://env-embedder/v1");
  });

  it("reports invalid JSON with the file name", async () => {
    await writeConfig("{ nope");
    await expect(loadLlmConfig({ cwd: dir, env: {} })).rejects.toThrow(
      /ragjudge\.config\.json.*valid JSON/,
    );
  });

  it("says YAML is unsupported instead of ignoring the file", async () => {
    await writeConfig("llm:\n  seed: 1\n", "ragjudge.config.yaml");
    await expect(loadLlmConfig({ cwd: dir, env: {} })).rejects.toThrow(/YAML is not supported/);
  });

  it("accepts an explicit path", async () => {
    const path = join(dir, "custom.json");
    await writeFile(path, JSON.stringify({ llm: { seed: 3 } }));
    expect((await loadLlmConfig({ path, env: {} })).seed).toBe(3);
  });
});

describe("redactLlmConfig", () => {
  it("removes every api_key value, at any depth, and leaves the rest", async () => {
    await writeConfig({ llm: { api_key: "sk-file", roles: { judge: { api_key: "sk-judge" } } } });
    const config = await loadLlmConfig({
      cwd: dir,
      env: { RAGJUDGE_EMBEDDER_API_KEY: "sk-embed" },
    });
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
