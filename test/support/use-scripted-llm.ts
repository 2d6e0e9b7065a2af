/**
 * The scripted OpenAI-compatible server as a vitest fixture, so test files stop repeating the
 * start/close/reset hooks and the client construction. Kept apart from scripted-llm.ts, which
 * also runs as a child process and in benchmarks, outside vitest.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import {
  createLlmClient,
  type LlmClient,
  type LlmClientDeps,
  type LlmConfigInput,
  type LlmRole,
  ProviderLimiters,
  parseLlmConfig,
  resolveModelConfig,
} from "../../src/llm/index.js";
import { type ScriptedLlm, type ScriptedLlmOptions, startScriptedLlm } from "./scripted-llm.js";

/**
 * Registers hooks that start a scripted server before the file's (or describe block's) tests,
 * close it after them, and before each test put it back as it started: recorded requests
 * cleared, only `options.rules` (fresh) as rules, the starting latency and unsupported formats.
 * Call it at module or describe level.
 *
 * The returned object stands for the server once it runs: its fields work inside tests and
 * hooks registered after this call, and throw a clear error when read earlier.
 */
export function useScriptedLlm(options: ScriptedLlmOptions = {}): ScriptedLlm {
  let live: ScriptedLlm | undefined;
  beforeAll(async () => {
    live = await startScriptedLlm(options);
  });
  afterAll(async () => {
    await live?.close();
    live = undefined;
  });
  beforeEach(() => {
    const server = running();
    server.reset();
    for (const rule of options.rules ?? []) server.on(rule);
    server.latencyMs = options.latencyMs ?? 0;
    server.unsupportedFormats.clear();
    for (const format of options.unsupportedFormats ?? []) server.unsupportedFormats.add(format);
  });

  function running(): ScriptedLlm {
    if (live) return live;
    throw new Error(
      "useScriptedLlm: the server runs only between its beforeAll and afterAll hooks; " +
        "read it inside a test or a later hook, not at module load or in a describe body",
    );
  }
  return new Proxy({} as ScriptedLlm, {
    get(_, key) {
      const server = running();
      const value: unknown = Reflect.get(server, key);
      return typeof value === "function" ? value.bind(server) : value;
    },
    set(_, key, value) {
      return Reflect.set(running(), key, value);
    },
  });
}

/**
 * An LLM client for one role that talks to the scripted server, with its own limiters unless
 * `deps` passes shared ones. `settings` is the llm config without `base_url`.
 */
export function scriptedClient(
  server: ScriptedLlm,
  role: LlmRole,
  settings: Omit<LlmConfigInput, "base_url"> = {},
  deps: LlmClientDeps = {},
): LlmClient {
  const config = parseLlmConfig({ ...settings, base_url: server.baseUrl });
  return createLlmClient(resolveModelConfig(config, role), {
    limiters: new ProviderLimiters(),
    ...deps,
  });
}
