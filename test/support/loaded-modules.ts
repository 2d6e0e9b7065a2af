// Which modules an import loads: a child Node imports `entry` with a resolve hook that prints
// each module's URL. Node 22.15+ runs the hook in the importing thread (`registerHooks`), so no
// line is lost when the child exits; Node 20 has only `register`, whose hooks thread writes its
// lines before the child's own work finishes.

import { spawnSync } from "node:child_process";

const ROOT = new URL("../../", import.meta.url).pathname;

const HOOK_THREAD = `export async function resolve(s, c, next) {
  const r = await next(s, c); process.stderr.write(r.url + "\\n"); return r; }`;

const REGISTER = `import * as mod from "node:module";
if (typeof mod.registerHooks === "function") {
  mod.registerHooks({ resolve(s, c, next) { const r = next(s, c); process.stderr.write(r.url + "\\n"); return r; } });
} else {
  mod.register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK_THREAD)}`)});
}`;

/** Imports `entry` in a child Node from the project's root and runs `probe` (a statement using `m`). */
export function loadedModules(entry: string, probe: string): { stdout: string; loaded: string[] } {
  const run = spawnSync(
    process.execPath,
    [
      "--import",
      `data:text/javascript,${encodeURIComponent(REGISTER)}`,
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(entry)}); ${probe}`,
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  return {
    stdout: run.stdout,
    loaded: run.stderr.split("\n").filter((url) => url.startsWith("file:")),
  };
}

/**
 * The modules among `loaded` that open the database: ragjudge's store, evals, server, cli and
 * database bot, and PGlite, drizzle and pg-boss, plus any `also` packages.
 */
export function databaseModules(loaded: readonly string[], also: readonly string[] = []): string[] {
  const own = `file://${ROOT}dist/`;
  const packages = new RegExp(
    `/node_modules/(${["@electric-sql", "drizzle-orm", "pg-boss", ...also].join("|")})/`,
  );
  return loaded.filter(
    (url) =>
      (url.startsWith(own) &&
        /^(store|evals|server|cli)\/|^rag\/(bot|index)\.js$/.test(url.slice(own.length))) ||
      packages.test(url),
  );
}
