// The tests run what the build made: the CLI tests spawn the bundled CLI (dist/cli/ragjudge.js),
// whose new-home child runs dist/store/; the browser tests load dist/web; new embedded homes and
// the test stores load the PGlite template. Rebuild whichever is older than its sources, so a test
// never runs yesterday's build. After `npm ci` (which builds) nothing is stale: ~300 stats.

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

const mtime = (path: string) => (existsSync(path) ? statSync(path).mtimeMs : -1);

/**
 * The first source file under src/ whose compiled dist/ file is missing or older, or that is newer
 * than the CLI bundle (dist/cli/ragjudge.js, scripts/bundle-cli.mjs), if any.
 */
export function staleServerSource(root = ROOT): string | undefined {
  const bundle = mtime(join(root, "dist/cli/ragjudge.js"));
  for (const path of filesUnder(join(root, "src"))) {
    if (!path.endsWith(".ts") || path.endsWith(".test.ts") || path.endsWith(".d.ts")) continue;
    const out = join(root, "dist", relative(join(root, "src"), path).replace(/\.ts$/, ".js"));
    const source = mtime(path);
    if (mtime(out) < source || bundle < source) return relative(root, path);
  }
  return undefined;
}

/**
 * The first migration newer than the template new embedded homes start from
 * (dist/pglite-template.tar.gz, which the CLI tests' new homes and the test stores load), or the
 * template's own path when it is missing.
 */
export function staleTemplate(root = ROOT): string | undefined {
  const template = join(root, "dist/pglite-template.tar.gz");
  const built = mtime(template);
  if (built < 0) return relative(root, template);
  const newer = [...filesUnder(join(root, "drizzle"))].find((path) => mtime(path) > built);
  return newer && relative(root, newer);
}

/** The first web source newer than the built web app (dist/web/index.html), if any. */
export function staleWebSource(root = ROOT): string | undefined {
  const built = mtime(join(root, "dist/web/index.html"));
  const sources = [
    ...filesUnder(join(root, "web/src")),
    join(root, "web/index.html"),
    join(root, "web/vite.config.ts"),
    // The files of src/ the web app imports (docs/architecture.md, the web/ row).
    join(root, "src/text/landing-path.ts"),
    join(root, "src/gate/explain.ts"),
    join(root, "src/text/user-messages.ts"),
    join(root, "src/evals/questions/rules.ts"),
    // The question file reader and what it imports.
    ...["parse-file", "schema", "duplicates", "errors"].map((name) =>
      join(root, `src/evals/questions/${name}.ts`),
    ),
    // The answers file reader and its schema (the rest is the question reader's).
    ...["parse-file", "schema"].map((name) => join(root, `src/evals/answers/${name}.ts`)),
    join(root, "src/text/strict-json.ts"),
    join(root, "src/formats/spreadsheet-cells.ts"),
  ];
  const newer = sources.find((path) => !path.includes(".test.") && mtime(path) > built);
  return newer && relative(root, newer);
}

function run(what: string, command: string, args: string[]) {
  try {
    execFileSync(process.execPath, [join(ROOT, command), ...args], { cwd: ROOT, stdio: "pipe" });
  } catch (error) {
    // tsc still emits on a type error (`npm run typecheck` reports those); anything else is fatal.
    const output = String((error as { stdout?: Buffer }).stdout ?? error);
    console.warn(`test setup: ${what} reported:\n${output.slice(0, 4000)}`);
  }
}

export function ensureFreshBuild(): void {
  const server = staleServerSource();
  if (server) {
    console.log(`test setup: ${server} is newer than dist/; compiling the CLI (tsc, esbuild)`);
    run("tsc", "node_modules/typescript/bin/tsc", ["-p", "tsconfig.build.json"]);
    run("the CLI bundle", "scripts/bundle-cli.mjs", []);
    const still = staleServerSource();
    if (still)
      throw new Error(`test setup: the build did not update ${still}; run \`npm run build\``);
  }
  const template = staleTemplate();
  if (template) {
    console.log(`test setup: ${template} is newer than the PGlite template; rebuilding it`);
    run("the template build", "dist/store/build-template.js", []);
    if (staleTemplate()) throw new Error("test setup: the PGlite template was not rebuilt");
  }
  const web = staleWebSource();
  if (web) {
    console.log(`test setup: ${web} is newer than dist/web; building the web app (vite)`);
    run("vite", "node_modules/vite/bin/vite.js", [
      "build",
      "--config",
      "web/vite.config.ts",
      "--logLevel",
      "warn",
    ]);
    if (staleWebSource()) throw new Error("test setup: vite did not rebuild dist/web");
  }
}
