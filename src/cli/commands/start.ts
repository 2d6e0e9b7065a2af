import { loadConfig, type RagjudgeConfig } from "../../config/index.js";
import { buildReport, renderTableReport } from "../../evals/reports/index.js";
import { startEvaluation } from "../../evals/runs/index.js";
import { createBuiltinBot } from "../../rag/index.js";
import { listReportRows } from "../../store/index.js";
import { followEvaluation, startEvaluationRuntime } from "../evaluation-runtime.js";
import { EXAMPLE_ANSWERS, EXAMPLE_CORPUS, EXAMPLE_QUESTIONS } from "../examples.js";
import { EXIT, incompleteReason } from "../exit-codes.js";
import { sessionClients, sessionLoopsConfig } from "../llm-session.js";
import { findQuestionSetByName, readQuestionFile, storeQuestionFile } from "../question-file.js";
import { openStoreSession } from "../store-session.js";

const COLLECTION = "lanting";

/**
 * The main job on the embedded store with no API key: ingest the bundled corpus (unchanged
 * documents are skipped), import the bundled question set once, evaluate the built-in bot with
 * the offline judges, and print the report. Low scores are findings here, not errors: exit 0.
 */
export async function startCommand(): Promise<number> {
  const loaded = await loadConfig({});
  const session = await openStoreSession();
  const config: RagjudgeConfig = {
    ...loaded,
    rag: { ...loaded.rag, loops: sessionLoopsConfig(loaded, session) },
  };
  const out = process.stdout;
  let runtime: Awaited<ReturnType<typeof startEvaluationRuntime>> | undefined;
  try {
    const { workspaceId } = session.actor;
    const db = session.store.db;
    const bot = createBuiltinBot({
      db,
      workspaceId,
      llm: sessionClients(config, session),
      retrieval: config.rag.retrieval,
    });
    const ingested = await bot.ingestPaths([EXAMPLE_CORPUS], { name: COLLECTION });
    const collectionId = await bot.resolveCollection(COLLECTION);
    out.write(
      `1. Collection "${COLLECTION}" from ${EXAMPLE_CORPUS}: ${ingested.documents.added} documents added, ${ingested.documents.unchanged} unchanged\n`,
    );

    const file = await readQuestionFile(EXAMPLE_QUESTIONS);
    const existing = await findQuestionSetByName(db, workspaceId, file.name);
    const set = existing ?? (await storeQuestionFile(db, session.actor, file, collectionId));
    out.write(
      `2. Question set "${set.name}" (${set.id}): ${set.question_count} questions${existing ? ", already imported" : " imported"}\n`,
    );

    runtime = await startEvaluationRuntime(session, config, { worker: true, concurrency: 8 });
    const started = await startEvaluation(
      runtime.deps,
      session.actor,
      { question_set_id: set.id, collection_id: collectionId, judges: ["offline"] },
      config,
      { via: "cli" },
    );
    out.write(
      `3. Evaluating the built-in bot with the offline judges (evaluation ${started.id})\n\n`,
    );
    const { row, interrupted } = await followEvaluation(runtime, workspaceId, started.id);
    if (interrupted) {
      process.stderr.write(`\nPaused. Resume with: npx ragjudge eval --resume ${row.id}\n`);
      return EXIT.interrupted;
    }
    const report = buildReport(row, await listReportRows(db, workspaceId, row.id));
    out.write(`${renderTableReport(report)}\n`);
    out.write(
      `The run and every answer, source and score are kept in ${session.store.location}.\n` +
        `Open this run in the browser: \`npx ragjudge serve --open --path /evaluations/${row.id}\`\n` +
        "  (or `npx ragjudge serve` and open the login URL it prints; the run is at\n" +
        `  /evaluations/${row.id}). Over HTTP: GET /api/v1/evaluations/${row.id} with the token in\n` +
        `  ${session.tokenPath}.\n` +
        `Report again in any format: \`npx ragjudge eval --resume ${row.id} --format markdown\`\n` +
        "Evaluate your own bot or questions: `npx ragjudge eval --help` (docs/evaluations.md);\n" +
        `gate answers you already have: \`npx ragjudge gate ${EXAMPLE_ANSWERS}\` (docs/gate.md).\n`,
    );
    return incompleteReason(report) === undefined ? EXIT.done : EXIT.incomplete;
  } finally {
    await runtime?.stop();
    await session.close();
  }
}
