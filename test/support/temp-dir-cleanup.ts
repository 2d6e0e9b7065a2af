import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dir.js";

// A setup file (vitest.config.ts): runs before each test file, so this hook is the file's own.
afterAll(removeTempDirs);
