import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Three projects (issue 27 §6): `unit` needs no database, no build and no child process, so
// `npm run test:unit` is the inner loop; `integration` (test/, and beside the code the
// `*.store.test.ts` files, which open a store, and the `*.process.test.ts` files, which start
// processes or threads under limits) and `e2e` (Chromium) share the global setup that checks the
// build and starts PostgreSQL. `npm test` runs all three.

const BESIDE_THE_CODE = ["src/**/*.store.test.ts", "src/**/*.process.test.ts"];

const shared = {
  // PGlite is WebAssembly with a large heap: child processes isolate it better than threads.
  pool: "forks" as const,
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
  // `expect.poll` gives up after 1 s by default: on a loaded 2-core CI machine a page's re-render
  // or a server's answer can take longer than that, and the test fails though nothing is wrong.
  // A poll still ends as soon as its condition holds, so passing tests are no slower.
  expect: { poll: { timeout: 15_000 } },
  // Every JSON answer a test's server sends is checked against its route's declared schema.
  env: { RAGJUDGE_VALIDATE_RESPONSES: "1" },
  // Removes each file's test/support/temp-dir.ts directories when the file ends.
  setupFiles: ["test/support/temp-dir-cleanup.ts"],
};

export default defineConfig({
  test: {
    // Most integration files spend their time waiting on child processes, PostgreSQL or Chromium,
    // so one worker more than there are cores keeps the cores busy (vitest's default is one less:
    // a single worker on this 2-core machine, 561 s for the suite against 375 s with three).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        test: {
          ...shared,
          name: "unit",
          include: ["src/**/*.test.ts", "web/**/*.test.ts", "web/**/*.test.tsx"],
          exclude: BESIDE_THE_CODE,
        },
      },
      {
        test: {
          ...shared,
          name: "integration",
          include: ["test/**/*.test.ts", ...BESIDE_THE_CODE],
          exclude: ["test/e2e/**"],
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
      {
        test: {
          ...shared,
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
    ],
  },
});
