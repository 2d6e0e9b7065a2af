import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "web/**/*.test.ts", "web/**/*.test.tsx"],
    globalSetup: ["test/support/global-setup.ts"],
    // PGlite is WebAssembly with a large heap: child processes isolate it better than threads.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every JSON answer a test's server sends is checked against its route's declared schema.
    env: { RAGJUDGE_VALIDATE_RESPONSES: "1" },
  },
});
