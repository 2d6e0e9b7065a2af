import { spawn } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { wasmTierArgs } from "./wasm-tiers.js";

/** True when `dataDir` holds no database yet (missing or empty). */
export function isNewDataDir(dataDir: string): boolean {
  return !existsSync(dataDir) || readdirSync(dataDir).length === 0;
}

/**
 * Creates a new PGlite data directory in a short-lived child process, built beside `dataDir` and
 * renamed into place, so a creation that dies leaves no half database. From the template
 * (template.ts: a migrated data directory, dumped) its files are written out as they are, with no
 * PostgreSQL started: 0.3 s, where loading it through PGlite took 2.2-2.7 s of a new home's first
 * `ragjudge eval` (the caller then opens it, and migrates it if the template is older than the
 * code). Without a template PGlite's initdb and the migrations run there. In a child, the peak of
 * either goes away with it: PGlite's WebAssembly memory only grows (initdb left the CLI ~80 MB
 * larger for the rest of its life), and the unpacked template is a 41 MB buffer that kept a
 * 2,000-question `ragjudge eval` at 391-404 MB peak RSS when unpacked in process, against 369 MB.
 */
export async function createDataDir(options: {
  dataDir: string;
  /** The template to unpack (template.ts); absent: initdb. */
  template?: string;
  startParams: string[];
}): Promise<void> {
  const partial = `${options.dataDir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  // .js: from source tsx maps them to .ts; compiled, they are dist/store/*.js, from this module or
  // from the bundle in dist/cli/ (scripts/bundle-cli.mjs), hence "../store/".
  const code = options.template
    ? [
        `const { mkdirSync, readFileSync } = await import("node:fs");`,
        `const { extractTarGz } = await import(${JSON.stringify(new URL("../store/untar.js", import.meta.url).href)});`,
        `const { dataDir, template } = JSON.parse(process.env.RAGJUDGE_CREATE_HOME);`,
        `mkdirSync(dataDir, { recursive: true });`,
        `extractTarGz(readFileSync(template), dataDir);`,
      ]
    : [
        `const { createPglite } = await import(${JSON.stringify(new URL("../store/migrate.js", import.meta.url).href)});`,
        `const { dataDir, startParams } = JSON.parse(process.env.RAGJUDGE_CREATE_HOME);`,
        `const client = await createPglite({ dataDir, startParams, migrate: true });`,
        `await client.close();`,
      ];
  const exit = await runInChild(code.join("\n"), {
    dataDir: partial,
    template: options.template,
    startParams: options.startParams,
  });
  if (exit.code !== 0) {
    rmSync(partial, { recursive: true, force: true });
    const from = options.template ? ` from ${options.template}` : "";
    throw new Error(
      `creating the embedded database in ${options.dataDir}${from} failed (exit ${exit.code}): ${exit.stderr.trim()}`,
    );
  }
  // An empty directory left in place (e.g. made by hand) gives way; rmdir refuses a full one.
  if (existsSync(options.dataDir)) rmdirSync(options.dataDir);
  renameSync(partial, options.dataDir);
}

/** Runs an ES module's code in a child node process with `input` in its environment. */
async function runInChild(
  code: string,
  input: object,
): Promise<{ code: number | null; stderr: string }> {
  const fromSource = import.meta.url.endsWith(".ts");
  const child = spawn(
    process.execPath,
    [
      ...(fromSource ? ["--import", import.meta.resolve("tsx")] : []),
      ...wasmTierArgs(),
      "--input-type=module",
      "-e",
      code,
    ],
    {
      env: { ...process.env, RAGJUDGE_CREATE_HOME: JSON.stringify(input) },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", resolve);
  });
  return { code: exitCode, stderr };
}
