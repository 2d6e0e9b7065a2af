import { parseArgs } from "node:util";
import { loadConfig } from "../../config/index.js";
import { createBuiltinBot } from "../../rag/index.js";
import { sessionClients } from "../llm-session.js";
import { renderTable } from "../../formats/index.js";
import { openStoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";

export const INGEST_HELP = `Usage: ragjudge ingest PATH... --collection NAME [options]

Ingests Markdown, text, HTML, PDF and JSONL ({id?, title?, text, metadata?} per line) files, or
directories of them, into a collection (created when new). Unchanged content is skipped.
Chunks are embedded when an embedder role is configured (RAGJUDGE_EMBEDDER_MODEL and a base URL).

Options:
  --collection NAME   the collection (required)
  --config FILE.json  configuration file (default: ./ragjudge.config.json if present)
  --json              print the result as JSON
  -h, --help          show this help`;

export async function ingestCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      collection: { type: "string" },
      config: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${INGEST_HELP}\n`);
    return 0;
  }
  if (!values.collection) throw new UsageError("--collection NAME is required");
  if (positionals.length === 0) throw new UsageError("ingest takes at least one PATH");
  const config = await loadConfig(values.config ? { path: values.config } : {});
  const session = await openStoreSession();
  try {
    const bot = createBuiltinBot({
      db: session.store.db,
      workspaceId: session.actor.workspaceId,
      llm: sessionClients(config, session),
      retrieval: config.rag.retrieval,
    });
    const result = await bot.ingestPaths(
      positionals,
      { name: values.collection },
      {
        onProgress: (p) => {
          if (!values.json && process.stderr.isTTY) {
            process.stderr.write(
              `\r${p.documents_seen} documents read, ${p.chunks_added} chunks written`,
            );
          }
        },
      },
    );
    if (!values.json && process.stderr.isTTY) process.stderr.write("\n");
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      process.stdout.write(
        `${renderTable(
          [
            "collection",
            "documents added",
            "unchanged",
            "replaced",
            "chunks added",
            "removed",
            "embedded",
          ],
          [
            [
              values.collection,
              result.documents.added,
              result.documents.unchanged,
              result.documents.replaced,
              result.chunks.added,
              result.chunks.removed,
              result.chunks.embedded,
            ],
          ],
          { alignRight: [1, 2, 3, 4, 5, 6] },
        )}\n`,
      );
      for (const problem of result.problems) {
        process.stderr.write(
          `${problem.source}${problem.line ? `:${problem.line}` : ""}: ${problem.message}\n`,
        );
      }
    }
    return result.problems.length > 0 ? 2 : 0;
  } finally {
    await session.close();
  }
}
