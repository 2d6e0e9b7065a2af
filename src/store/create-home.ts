import { spawn } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs";

/** True when `dataDir` holds no database yet (missing or empty). */
export function isNewDataDir(dataDir: string): boolean {
  return !existsSync(dataDir) || readdirSync(dataDir).length === 0;
}

/**
 * Creates and migrates a new PGlite data directory in a short-lived child process. PGlite's
 * WebAssembly memory only grows: loading the template (or initdb) and migrating left the CLI about
 * 80 MB larger for the rest of its life (a 2,000-question `ragjudge eval` held ~425 MB on a new
 * home against ~345 MB on an existing one). In a child, that peak goes away with it. The child
 * builds beside `dataDir` and renames into place, so a creation that dies leaves no half database.
 */
export async function createDataDirInChild(options: {
  dataDir: string;
  /** The template to load (template.ts); absent: initdb. */
  template?: string;
  startParams: string[];
}): Promise<void> {
  const partial = `${options.dataDir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  // .js: from source tsx maps it to migrate.ts; compiled, it is dist/store/migrate.js.
  const migrate = new URL("./migrate.js", import.meta.url).href;
  const code = [
    `const { readFileSync } = await import("node:fs");`,
    `const { createPglite } = await import(${JSON.stringify(migrate)});`,
    `const { dataDir, template, startParams } = JSON.parse(process.env.RAGJUDGE_CREATE_HOME);`,
    `const loadDataDir = template ? new Blob([readFileSync(template)]) : undefined;`,
    `const client = await createPglite({ dataDir, startParams, migrate: true, ...(loadDataDir ? { loadDataDir } : {}) });`,
    `await client.close();`,
  ].join("\n");
  const fromSource = import.meta.url.endsWith(".ts");
  const child = spawn(
    process.execPath,
    [
      ...(fromSource ? ["--import", import.meta.resolve("tsx")] : []),
      "--input-type=module",
      "-e",
      code,
    ],
    {
      env: {
        ...process.env,
        RAGJUDGE_CREATE_HOME: JSON.stringify({
          dataDir: partial,
          template: options.template,
          startParams: options.startParams,
        }),
      },
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
  if (exitCode !== 0) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(
      `creating the embedded database in ${options.dataDir} failed (exit ${exitCode}): ${stderr.trim()}`,
    );
  }
  // An empty directory left in place (e.g. made by hand) gives way; rmdir refuses a full one.
  if (existsSync(options.dataDir)) rmdirSync(options.dataDir);
  renameSync(partial, options.dataDir);
}
