import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "web/**/*.test.ts", "web/**/*.test.tsx"],
    globalSetup: ["test/support/global-setup.ts"],
    // PGlite is WebAssembly with a large heap: child processes isolate it better than threads.
    pool: "forks",
    // Most integration files spend their time waiting on child processes, PostgreSQL or Chromium,
    // so one worker more than there are cores keeps the cores busy (vitest's default is one less:
    // a single worker on this 2-core machine, 561 s for the suite against 375 s with three).
    maxWorkers: availableParallelism() + 1,
    // A worker runs its files one after another in one process instead of a fresh process each:
    // each file no longer re-imports drizzle, openai, hono and PGlite (import time 123 s -> 19 s
    // summed over the suite). Module state is shared, so a test must not depend on a fresh module
    // (the one that did was hiding a redaction bug: src/llm/redact.ts).
    isolate: false,
    // PGlite's WebAssembly on V8's baseline compiler only, as a one-command `ragjudge` process runs
    // it (src/store/wasm-tiers.ts): the workers spent ~10 s of CPU recompiling it with TurboFan.
    execArgv: ["--liftoff-only"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every JSON answer a test's server sends is checked against its route's declared schema.
    env: { RAGJUDGE_VALIDATE_RESPONSES: "1" },
  },
});
