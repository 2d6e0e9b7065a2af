// The package as people install it: `npm pack`, install the tarball into a fresh project with the
// integrations' optional peers (scripts/package-check.mjs, from npm's cache where it can), then,
// under the Node running the suite (CI: 20 and 24), import every entry, type-check a file using
// each under two module resolutions, run the installed CLI, and check the types with
// @arethetypeswrong/cli. One install serves every check.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const AI_SUPPORTED = Number(process.versions.node.split(".")[0]) >= 22;
const AI_SKIP = "ai 7 needs Node >= 22; CI's Node 24 leg runs it";

interface EntryGraph {
  entry: string;
  files: number;
  bytes: number;
  packages: string[];
  frameworks: string[];
}
interface Measured {
  package_bytes: number;
  installed_bytes: number;
  installed_packages: number;
  entries: EntryGraph[];
}

const dir = mkdtempSync(join(tmpdir(), "ragjudge-install-"));
let measured: Measured;
let tarball: string;
let packed: string[];

/** Runs `node` in the consumer project; returns stdout. */
const nodeIn = (args: string[]) =>
  execFileSync(process.execPath, args, { cwd: dir, encoding: "utf8" });

beforeAll(() => {
  // The script packs (dist is fresh: the test setup rebuilt it), installs, and prints the sizes
  // table on stderr, which the test run shows.
  const run = spawnSync(
    process.execPath,
    [join(ROOT, "scripts/package-check.mjs"), "--into", dir, "--json"],
    { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  expect(run.status, "scripts/package-check.mjs").toBe(0);
  measured = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as Measured;
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  tarball = join(dir, `ragjudge-${version}.tgz`);
  packed = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((path) => path.replace(/^package\//, ""));
}, 300_000);

// The install is ~150 MiB; the suite runs twice per CI run.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the packed tarball", () => {
  it("holds what the CLI and every entry need", () => {
    for (const path of [
      "package.json",
      "bin/ragjudge.js",
      "dist/cli/ragjudge.js",
      "dist/cli/pglite-host.js",
      "dist/cli/parse-host.js",
      "dist/cli/question-import-host.js",
      "dist/pglite-template.tar.gz",
      "dist/web/index.html",
      "drizzle/0000_init.sql",
      "drizzle/meta/_journal.json",
      "examples/corpus/lanting-history.md",
      "examples/eval/lanting-questions.jsonl",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/gate/index.d.ts",
      "dist/client/index.d.ts",
      "dist/integrations/langgraph/index.d.ts",
      "dist/integrations/langchain/index.d.ts",
      "dist/integrations/ai-sdk/index.d.ts",
    ]) {
      expect(packed, path).toContain(path);
    }
  });

  it("holds no tests, no sources, no stores and no local state", () => {
    const unwanted = packed.filter(
      (path) =>
        /(^|\/)(test|src|node_modules|\.ragjudge|\.git)\//.test(path) ||
        /\.test\.(js|d\.ts|ts|mjs)$/.test(path) ||
        /(^|\/)\.env/.test(path),
    );
    expect(unwanted).toEqual([]);
  });
});

describe("installed in a fresh project", () => {
  it("imports every entry by its name", () => {
    const probes: Record<string, string> = {
      ragjudge: "typeof m.guard + typeof m.startEvaluation + typeof m.review",
      "ragjudge/gate": "typeof m.guard + typeof m.evaluateGate",
      "ragjudge/client": "typeof m.recordAnswer + typeof m.createRecorder",
      "ragjudge/langgraph": "typeof m.buildQualityLoopGraph + typeof m.routeAfterGrading",
      "ragjudge/langchain": "typeof m.RagjudgeCallbackHandler + typeof m.offlineJudgeRunnable",
      // Loads on Node 20 too: it names `ai`'s types only; the app's own `ai` calls it.
      "ragjudge/ai-sdk": "typeof m.ragjudgeGuard + typeof m.RagjudgeBlockedError",
    };
    for (const [entry, probe] of Object.entries(probes)) {
      const out = nodeIn([
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(entry)}); console.log(${probe});`,
      ]);
      expect(out.trim(), entry).toMatch(/^(function)+$/);
    }
  });

  it.skipIf(!AI_SUPPORTED)(
    `wraps a model in ragjudge/ai-sdk's middleware with ai 7${AI_SUPPORTED ? "" : ` (skipped: ${AI_SKIP})`}`,
    () => {
      const out = nodeIn([
        "--input-type=module",
        "-e",
        `import { wrapLanguageModel } from "ai"; import { ragjudgeGuard } from "ragjudge/ai-sdk";
         const guard = ragjudgeGuard({ mode: "annotate" });
         console.log(typeof wrapLanguageModel, typeof guard.wrapGenerate, typeof guard.wrapStream);`,
      ]);
      expect(out.trim()).toBe("function function function");
    },
  );

  it.each(["bundler", "node16"] as const)(
    "type-checks a file using every entry with moduleResolution %s",
    (resolution) => {
      writeFileSync(
        join(dir, "uses-every-entry.ts"),
        `import { EvaluatorInputSchema, guard, type GuardResult } from "ragjudge/gate";
import { offlineJudge, startEvaluation, summarizeResults } from "ragjudge";
import { createRecorder, type AnswerInput } from "ragjudge/client";
import { buildQualityLoopGraph, routeAfterGrading, type QualityNodeState } from "ragjudge/langgraph";
import { ragjudgeGuard, RagjudgeBlockedError } from "ragjudge/ai-sdk";
import { RagjudgeCallbackHandler, offlineJudgeRunnable } from "ragjudge/langchain";
import type { LanguageModelMiddleware } from "ai";

const input = EvaluatorInputSchema.parse({});
const result: GuardResult = guard(input);
const decision: "allow" | "block" | "repair" = result.decision;
const answer: AnswerInput = { ...input, service: decision };
export const recorder = createRecorder({ url: "http://127.0.0.1:1", token: "t" });
export const middleware: LanguageModelMiddleware = ragjudgeGuard({ mode: "block" });
export const isBlocked = (e: unknown): boolean => RagjudgeBlockedError.isInstance(e);
export const route = routeAfterGrading();
export type State = QualityNodeState;
export const handler = new RagjudgeCallbackHandler({ recorder: null });
export const judge = offlineJudgeRunnable;
export { answer, buildQualityLoopGraph, offlineJudge, startEvaluation, summarizeResults };
`,
      );
      const config = join(dir, `tsconfig.${resolution}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          compilerOptions: {
            target: "es2022",
            module: resolution === "bundler" ? "esnext" : "node16",
            moduleResolution: resolution,
            strict: true,
            noEmit: true,
            // The frameworks' own declarations are theirs to check; ragjudge's are checked by
            // @arethetypeswrong/cli below and by the build.
            skipLibCheck: true,
            types: ["node"],
          },
          files: ["uses-every-entry.ts"],
        }),
      );
      const tsc = spawnSync(
        process.execPath,
        [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", config],
        { cwd: dir, encoding: "utf8" },
      );
      expect(tsc.stdout + tsc.stderr).toBe("");
      expect(tsc.status).toBe(0);
    },
  );

  it("runs the CLI from node_modules/.bin", () => {
    const help = execFileSync(join(dir, "node_modules/.bin/ragjudge"), ["--help"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(help).toContain("Usage: ragjudge <command>");
    expect(help).toMatch(/\beval\b/);
  });

  it("has types that resolve for Node and bundlers (@arethetypeswrong/cli)", () => {
    const attw = spawnSync(
      process.execPath,
      [
        join(ROOT, "node_modules/@arethetypeswrong/cli/dist/index.js"),
        tarball,
        "--profile",
        "esm-only",
        "--format",
        "json",
      ],
      { cwd: dir, encoding: "utf8" },
    );
    // The package is ES modules only: require() from CommonJS and node10 resolution are out of
    // scope (the "esm-only" profile); every other problem fails the check.
    const report = JSON.parse(attw.stdout) as {
      problems?: Record<string, { entrypoint: string; resolutionKind?: string }[]>;
    };
    const problems = Object.values(report.problems ?? {})
      .flat()
      .filter((p) => p.resolutionKind !== "node10" && p.resolutionKind !== "node16-cjs");
    expect(problems).toEqual([]);
    expect(attw.status).toBe(0);
    // attw reads the whole tarball: ~10 s alone, 53 s once with the suite under a load of 11.
  }, 120_000);
});

describe("sizes", () => {
  it("measures the install and each entry's import graph", () => {
    expect(measured.installed_packages).toBeGreaterThan(1);
    expect(measured.installed_bytes).toBeGreaterThan(measured.package_bytes);
    const entries = measured.entries.map((e) => e.entry);
    expect(entries).toEqual([
      "ragjudge",
      "ragjudge/gate",
      "ragjudge/client",
      "ragjudge/langgraph",
      "ragjudge/langchain",
      "ragjudge/ai-sdk",
    ]);
  });

  it("loads no framework from the core entries, and LangGraph from ragjudge/langgraph", () => {
    const byEntry = new Map(measured.entries.map((e) => [e.entry, e]));
    // ragjudge/ai-sdk names `ai`'s types only: at run time it loads the gate and no framework.
    for (const entry of ["ragjudge", "ragjudge/gate", "ragjudge/client", "ragjudge/ai-sdk"]) {
      expect(byEntry.get(entry)?.frameworks, entry).toEqual([]);
      expect(byEntry.get(entry)?.files, entry).toBeGreaterThan(0);
    }
    expect(byEntry.get("ragjudge/client")?.packages).toEqual(["ragjudge"]);
    expect(byEntry.get("ragjudge/langgraph")?.frameworks).toContain("@langchain/langgraph");
    expect(byEntry.get("ragjudge/langchain")?.frameworks).toContain("@langchain/core");
    expect(byEntry.get("ragjudge/langchain")?.frameworks).not.toContain("@langchain/langgraph");
  });
});
