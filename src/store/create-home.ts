import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
} from "node:fs";
import { extractTarGz } from "./untar.js";

/** True when `dataDir` holds no database yet (missing or empty). */
export function isNewDataDir(dataDir: string): boolean {
  return !existsSync(dataDir) || readdirSync(dataDir).length === 0;
}

/**
 * Creates a new PGlite data directory, built beside `dataDir` and renamed into place, so a
 * creation that dies leaves no half database. From the template (template.ts: a migrated data
 * directory, dumped) its files are written out as they are, with no PostgreSQL started: 0.3 s,
 * where loading it through PGlite in a child process took 2.2-2.7 s of a new home's first
 * `ragjudge eval` (the caller then opens it, and migrates it if the template is older than the
 * code). Without a template PGlite's initdb runs in a short-lived child process: its WebAssembly
 * memory only grows, and initdb and migrating left the CLI about 80 MB larger for the rest of its
 * life (a 2,000-question `ragjudge eval` held ~425 MB on a new home against ~345 MB on an existing
 * one). In a child, that peak goes away with it.
 */
export async function createDataDir(options: {
  dataDir: string;
  /** The template to unpack (template.ts); absent: initdb. */
  template?: string;
  startParams: string[];
}): Promise<void> {
  const partial = `${options.dataDir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  if (options.template) {
    try {
      mkdirSync(partial, { recursive: true });
      extractTarGz(readFileSync(options.template), partial);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      throw new Error(
        `creating the embedded database in ${options.dataDir} from ${options.template} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  } else {
    await initdbInChild(options.dataDir, partial, options.startParams);
  }
  // An empty directory left in place (e.g. made by hand) gives way; rmdir refuses a full one.
  if (existsSync(options.dataDir)) rmdirSync(options.dataDir);
  renameSync(partial, options.dataDir);
}

/** PGlite's initdb and the migrations, writing `partial`; removed again if the child fails. */
async function initdbInChild(
  dataDir: string,
  partial: string,
  startParams: string[],
): Promise<void> {
  // .js: from source tsx maps it to migrate.ts; compiled, it is dist/store/migrate.js.
  const migrate = new URL("./migrate.js", import.meta.url).href;
  const code = [
    `const { createPglite } = await import(${JSON.stringify(migrate)});`,
    `const { dataDir, startParams } = JSON.parse(process.env.RAGJUDGE_CREATE_HOME);`,
    `const client = await createPglite({ dataDir, startParams, migrate: true });`,
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
        RAGJUDGE_CREATE_HOME: JSON.stringify({ dataDir: partial, startParams }),
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
      `creating the embedded database in ${dataDir} failed (exit ${exitCode}): ${stderr.trim()}`,
    );
  }
}
