import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LLM_DEFAULTS, LlmConfigSchema, resolveModelConfig } from "../llm/index.js";
import { loadConfig } from "./load.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ragjudge-config-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeConfig(content: unknown, name = "ragjudge.config.json") {
  await writeFile(join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
}

describe("loadConfig: the llm section", () => {
  it("uses defaults when there is no file and no environment", async () => {
    const config = (await loadConfig({ cwd: dir, env: {} })).llm;
    expect(config).toEqual(LlmConfigSchema.parse({}));
  });

  it("reads the llm section of ragjudge.config.json", async () => {
    await writeConfig({ gate: {}, llm: { roles: { judge: { model: "gpt-4o" } } } });
    const config = (await loadConfig({ cwd: dir, env: {} })).llm;
    expect(config.roles.judge.model).toBe("gpt-4o");
  });

  it("applies the environment: role variables beat the file, which beats OPENAI_*", async () => {
    await writeConfig({
      llm: {
        base_url: "http://file-global/v1",
        roles: { judge: { base_url: "http://file-judge/v1" }, rewriter: { model: "file-model" } },
      },
    });
    const { llm: config } = await loadConfig({
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
    await expect(loadConfig({ cwd: dir, env: {} })).rejects.toThrow(
      /ragjudge\.config\.json.*valid JSON/,
    );
  });

  it("reads ragjudge.config.yaml when there is no JSON file", async () => {
    await writeConfig("llm:\n  seed: 7\njudges:\n  repeat: 3\n", "ragjudge.config.yaml");
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config.llm.seed).toBe(7);
    expect(config.judges.repeat).toBe(3);
  });

  it("reports invalid YAML with the file name", async () => {
    await writeConfig("llm: [unclosed\n", "ragjudge.config.yml");
    await expect(loadConfig({ cwd: dir, env: {} })).rejects.toThrow(
      /ragjudge\.config\.yml.*valid YAML/,
    );
  });

  it("accepts an explicit path", async () => {
    const path = join(dir, "custom.json");
    await writeFile(path, JSON.stringify({ llm: { seed: 3 } }));
    expect((await loadConfig({ path, env: {} })).llm.seed).toBe(3);
  });
});

describe("loadConfig: other sections", () => {
  it("names the field of an invalid gate, judges or rag setting", async () => {
    await writeConfig({ gate: { checks: { citation_coverage: { threshold: 2 } } } });
    await expect(loadConfig({ cwd: dir, env: {} })).rejects.toThrow(
      /gate\.checks\.citation_coverage\.threshold/,
    );
    await writeConfig({ judges: { rubric: { pass_min_accuracy: 11 } } });
    await expect(loadConfig({ cwd: dir, env: {} })).rejects.toThrow(
      /judges\.rubric\.pass_min_accuracy/,
    );
  });

  it("keeps production answers 30 days unless the production section says otherwise", async () => {
    expect((await loadConfig({ cwd: dir, env: {} })).production.retention_days).toBe(30);
    await writeConfig({ production: { retention_days: 7 } });
    expect((await loadConfig({ cwd: dir, env: {} })).production.retention_days).toBe(7);
    await writeConfig({ production: { retention_days: 0 } });
    await expect(loadConfig({ cwd: dir, env: {} })).rejects.toThrow(/production\.retention_days/);
  });

  it("waits 10 s for more spans of a trace unless production.trace_wait_ms says otherwise", async () => {
    expect((await loadConfig({ cwd: dir, env: {} })).production.trace_wait_ms).toBe(10_000);
    await writeConfig({ production: { trace_wait_ms: 2_500 } });
    expect((await loadConfig({ cwd: dir, env: {} })).production.trace_wait_ms).toBe(2_500);
    await writeConfig({ production: { trace_wait_ms: 10 } });
    await expect(loadConfig({ cwd: dir, env: {} })).rejects.toThrow(/production\.trace_wait_ms/);
  });

  it("evaluates alert rules every 30 s unless production.alert_interval_ms says otherwise", async () => {
    expect((await loadConfig({ cwd: dir, env: {} })).production.alert_interval_ms).toBe(30_000);
    await writeConfig({ production: { alert_interval_ms: 200 } });
    expect((await loadConfig({ cwd: dir, env: {} })).production.alert_interval_ms).toBe(200);
    await writeConfig({ production: { alert_interval_ms: 10 } });
    await expect(loadConfig({ cwd: dir, env: {} })).rejects.toThrow(
      /production\.alert_interval_ms/,
    );
  });

  it("prices models from the dated defaults, with the prices section over them", async () => {
    const defaults = await loadConfig({ cwd: dir, env: {} });
    expect(defaults.prices["gpt-4o-mini"]).toEqual({
      input: 0.15,
      cached_input: 0.075,
      output: 0.6,
    });
    expect(defaults.prices["llama3:8b"]).toBeUndefined();
    await writeConfig({
      prices: { "gpt-4o-mini": { input: 0.1, output: 0.5 }, "llama3:8b": { input: 0, output: 0 } },
    });
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config.prices["gpt-4o-mini"]).toEqual({ input: 0.1, output: 0.5 });
    expect(config.prices["llama3:8b"]).toEqual({ input: 0, output: 0 });
    expect(config.prices["gpt-4o"]).toEqual(defaults.prices["gpt-4o"]);
    await writeConfig({ prices: { "gpt-4o": { input: "cheap", output: 1 } } });
    await expect(loadConfig({ cwd: dir, env: {} })).rejects.toThrow(/prices\.gpt-4o\.input/);
  });

  it("applies the gate section over the defaults", async () => {
    await writeConfig({ gate: { checks: { min_answer_length: { min_chars: 40 } } } });
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config.gate.checks.min_answer_length.min_chars).toBe(40);
    expect(config.gate.checks.require_citations.enabled).toBe(true);
  });
});

describe("loadConfig: the observations file", () => {
  it("is private per user and rotated by default; the environment turns it off or moves it", async () => {
    const defaults = await loadConfig({ cwd: dir, env: {} });
    expect(defaults.rag.loops.observations).toEqual({
      path: ".ragjudge/observational_data.jsonl",
      per_user: true,
      max_bytes: 10 * 1024 * 1024,
      max_files: 3,
    });
    await writeConfig({ rag: { loops: { observations: { max_bytes: 1_000_000 } } } });
    const off = await loadConfig({ cwd: dir, env: { RAGJUDGE_OBSERVATIONS_FILE: "off" } });
    expect(off.rag.loops.observations).toMatchObject({ path: null, max_bytes: 1_000_000 });
    const moved = await loadConfig({
      cwd: dir,
      env: { RAGJUDGE_OBSERVATIONS_FILE: "/var/lib/ragjudge/observations.jsonl" },
    });
    expect(moved.rag.loops.observations.path).toBe("/var/lib/ragjudge/observations.jsonl");
    await writeConfig({ rag: { loops: { observations: { max_bytes: 10 } } } });
    await expect(loadConfig({ cwd: dir, env: {} })).rejects.toThrow(
      /rag\.loops\.observations\.max_bytes/,
    );
  });
});

describe("loadConfig: the bots section", () => {
  it("defaults to public addresses only, and reads the file and the environment", async () => {
    expect((await loadConfig({ cwd: dir, env: {} })).bots).toEqual({
      allow_hosts: [],
      allow_networks: [],
      allow_public: true,
    });
    await writeConfig({ bots: { allow_hosts: ["bot.internal"], allow_networks: ["10.0.0.0/8"] } });
    const { bots } = await loadConfig({
      cwd: dir,
      env: {
        RAGJUDGE_BOTS_ALLOW_NETWORKS: "127.0.0.1/32, fd00::/8",
        RAGJUDGE_BOTS_ALLOW_HOSTS: "*.corp.example",
        RAGJUDGE_BOTS_ALLOW_PUBLIC: "false",
      },
    });
    expect(bots).toEqual({
      allow_hosts: ["bot.internal", "*.corp.example"],
      allow_networks: ["10.0.0.0/8", "127.0.0.1/32", "fd00::/8"],
      allow_public: false,
    });
  });

  it("names the entry at fault", async () => {
    await writeConfig({ bots: { allow_networks: ["10.0.0.0/8", "not-a-cidr"] } });
    await expect(loadConfig({ cwd: dir, env: {} })).rejects.toThrow(
      /bots\.allow_networks\.1: expected a CIDR/,
    );
  });
});

describe("loadConfig: RAGJUDGE_SECRET_KEY", () => {
  it("reads the operator's key from the environment; it never shows when the config is printed", async () => {
    const text = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=";
    expect((await loadConfig({ cwd: dir, env: {} })).secret_key).toBeUndefined();
    const config = await loadConfig({ cwd: dir, env: { RAGJUDGE_SECRET_KEY: text } });
    expect(config.secret_key?.id).toMatch(/^[0-9a-f]{8}$/);
    expect(JSON.stringify(config)).not.toContain(text);
    expect(JSON.stringify(config)).toContain('"secret_key":"[secret key]"');
  });

  it("names the variable when the key is malformed, without repeating it", async () => {
    const load = loadConfig({ cwd: dir, env: { RAGJUDGE_SECRET_KEY: "hunter2-too-short" } });
    await expect(load).rejects.toThrow(
      /environment: RAGJUDGE_SECRET_KEY: expected 32 random bytes as base64 or 64 hex digits/,
    );
    await expect(
      loadConfig({ cwd: dir, env: { RAGJUDGE_SECRET_KEY: "hunter2-too-short" } }),
    ).rejects.not.toThrow(/hunter2/);
  });
});
