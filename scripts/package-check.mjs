// The package as people install it: `npm pack` this project, install the tarball into a fresh
// project (with the integrations' optional peers), and print the installed size and the size of
// each entry's import graph, measured by loading the entry in a child Node and listing every file
// it loaded (ES modules through a resolve hook, CommonJS from require.cache).
//
//   npm run package:check                     # packs and installs into a temporary folder
//   node scripts/package-check.mjs --into DIR # packs and installs into DIR (an empty folder)
//   node scripts/package-check.mjs DIR        # measures a project that has ragjudge installed
// The table goes to stderr; --json adds the measurements as one JSON object on stdout.
//
// Used by test/package-install.test.ts, which runs it once and checks the same install further.

import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

export const ENTRIES = [
  "ragjudge",
  "ragjudge/gate",
  "ragjudge/client",
  "ragjudge/langgraph",
  "ragjudge/langchain",
  "ragjudge/ai-sdk",
];
/** The entries that must load no framework: the CLI's and most users' way in. */
export const CORE_ENTRIES = ["ragjudge", "ragjudge/gate", "ragjudge/client"];
/** Optional peers (and @types/node for type checks), at the versions this project tests. */
const PEERS = ["@langchain/core", "@langchain/langgraph", "ai", "@types/node"];
const FRAMEWORK = /^(@langchain\/|ai$|@ai-sdk\/)/;

function installedVersion(name) {
  return JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).version;
}

/** Packs the project (no build: dist is built already) and installs the tarball into `dir`. */
export function packAndInstall(dir) {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const packed = JSON.parse(
    execFileSync(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  )[0];
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "ragjudge-consumer", private: true, type: "module" }, null, 2),
  );
  // From npm's cache where it can: the same versions as this project's lock.
  execFileSync(
    npm,
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      join(dir, packed.filename),
      ...PEERS.map((name) => `${name}@${installedVersion(name)}`),
    ],
    { cwd: dir, stdio: ["ignore", "inherit", "inherit"] },
  );
  return { tarball: join(dir, packed.filename), files: packed.files.map((f) => f.path) };
}

function dirSize(path) {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += dirSize(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

/** ragjudge and every package it depends on, found as Node would from `dir`'s node_modules. */
function dependencyClosure(dir) {
  const seen = new Map();
  const visit = (name, from) => {
    for (let at = from; ; at = dirname(at)) {
      const candidate = join(at, "node_modules", name);
      if (existsSync(join(candidate, "package.json"))) {
        if (seen.has(candidate)) return;
        seen.set(candidate, name);
        const pkg = JSON.parse(readFileSync(join(candidate, "package.json"), "utf8"));
        for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
          visit(dep, candidate);
        }
        return;
      }
      if (dirname(at) === at) return; // an optional dependency for another platform
    }
  };
  visit("ragjudge", dir);
  return seen;
}

// Registered in the child: posts every file URL an ES module import resolves to.
const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith("file:")) port.postMessage(result.url);
  return result;
}`;
const PROBE = (entry) => `
import { createRequire, register } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
const files = new Set();
port1.on("message", (url) => files.add(url));
register("data:text/javascript," + encodeURIComponent(${JSON.stringify(HOOKS)}), import.meta.url, {
  data: { port: port2 },
  transferList: [port2],
});
await import(${JSON.stringify(entry)});
// The hooks' thread posts asynchronously: one more round trip flushes what it sent.
await new Promise((resolve) => setImmediate(resolve));
// CommonJS modules required by CommonJS packages (pg) pass no ES hook: they are in require.cache.
for (const path of Object.keys(createRequire(import.meta.url).cache)) files.add("file://" + path);
port1.close();
console.log(JSON.stringify([...files]));
`;

/** The files `entry` loads, its total size, and the packages they come from. */
function importGraph(dir, entry) {
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", PROBE(entry)], {
    cwd: dir,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`importing ${entry} failed:\n${run.stderr}`);
  const urls = JSON.parse(run.stdout.trim().split("\n").at(-1));
  const files = urls.map((url) => fileURLToPath(url)).filter((path) => existsSync(path));
  const packages = new Set();
  for (const path of files) {
    const parts = relative(dir, path).split(sep);
    const at = parts.lastIndexOf("node_modules");
    if (at < 0) continue;
    const name = parts[at + 1]?.startsWith("@")
      ? `${parts[at + 1]}/${parts[at + 2]}`
      : parts[at + 1];
    packages.add(name);
  }
  return {
    entry,
    files: files.length,
    bytes: files.reduce((sum, path) => sum + statSync(path).size, 0),
    packages: [...packages].sort(),
  };
}

/** Sizes of the install in `dir` and of each entry's import graph. */
export function measure(dir) {
  const closure = dependencyClosure(dir);
  const ragjudgeDir = [...closure].find(([, name]) => name === "ragjudge")?.[0];
  if (!ragjudgeDir) throw new Error(`ragjudge is not installed in ${dir}`);
  const entries = ENTRIES.map((entry) => importGraph(dir, entry));
  return {
    node: process.version,
    package_bytes: dirSize(ragjudgeDir),
    installed_bytes: [...closure.keys()].reduce((sum, path) => sum + dirSize(path), 0),
    installed_packages: closure.size,
    entries: entries.map((e) => ({
      ...e,
      frameworks: e.packages.filter((name) => FRAMEWORK.test(name)),
    })),
  };
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function printTable(result) {
  const say = (line) => process.stderr.write(`${line}\n`);
  say(`node ${result.node}`);
  say(`ragjudge itself:            ${mib(result.package_bytes)}`);
  say(
    `installed with dependencies: ${mib(result.installed_bytes)} in ${result.installed_packages} packages`,
  );
  say("\nentry                 files      size  packages  frameworks");
  for (const e of result.entries) {
    say(
      `${e.entry.padEnd(20)}  ${String(e.files).padStart(5)}  ${mib(e.bytes).padStart(9)}  ` +
        `${String(e.packages.length).padStart(8)}  ${e.frameworks.join(", ") || "none"}`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const into = args.indexOf("--into");
  let dir = into >= 0 ? args[into + 1] : args.find((arg) => !arg.startsWith("--"));
  if (into >= 0 || !dir) {
    dir ??= mkdtempSync(join(tmpdir(), "ragjudge-package-"));
    packAndInstall(dir);
    process.stderr.write(`installed into ${dir}\n\n`);
  }
  const result = measure(dir);
  printTable(result);
  if (args.includes("--json")) console.log(JSON.stringify(result));
}
