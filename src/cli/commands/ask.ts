import { parseArgs } from "node:util";
import { loadConfig } from "../../config/index.js";
import {
  type AskResult,
  answerLoopMermaid,
  createBuiltinBot,
  qualityLoopMermaid,
} from "../../rag/index.js";
import { sessionClients, sessionLoopsConfig } from "../llm-session.js";
import { renderTable } from "../../formats/index.js";
import { openStoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";

export const ASK_HELP = `Usage: ragjudge ask --collection NAME "question" [options]

Answers with the built-in agentic RAG bot: retrieval graded and rewritten, the answer reviewed
and regenerated, then the evidence gate. Without an LLM configured it answers
extractively and reviews offline.

Options:
  --collection NAME   the collection (name or id; required)
  --json              print the full state: hits with sources, grades, rewrites, epochs, evaluations
  --mermaid           print both loops as Mermaid diagrams with this run's path highlighted
  --config FILE.json  configuration file (default: ./ragjudge.config.json if present)
  --no-cache          do not use the LLM response cache
  -h, --help          show this help

Exit code: 0 when the answer is shown, 1 when the gate refuses it.`;

function renderAnswer(result: AskResult): string {
  const lines: string[] = [];
  if (result.response.answer !== null) lines.push(result.response.answer, "");
  if (result.response.notice) lines.push(`[${result.action}] ${result.response.notice}`, "");
  const byId = new Map(result.hits.map((hit) => [hit.node_id, hit]));
  if (result.citations.length > 0) {
    lines.push("Sources:");
    for (const id of result.citations) {
      const hit = byId.get(id);
      lines.push(`  [${id}] ${hit?.title ?? hit?.document_id ?? ""}`);
    }
    lines.push("");
  }
  lines.push(
    `Gate: ${result.gate.status} -> ${result.action}` +
      ` | retrieval ${result.quality.quality_grade} (${result.quality.quality_score.toFixed(2)}), ` +
      `${result.quality.retry_count} rewrite(s) | ${result.answer.epoch} generation(s), exit ${result.answer_exit}`,
    "",
  );
  lines.push(
    renderTable(
      ["loop", "node", "ms", "next", "what changed"],
      result.trace.map((step) => [
        step.machine,
        step.node,
        step.duration_ms.toFixed(1),
        step.next,
        step.summary,
      ]),
      { maxCell: 70, alignRight: [2] },
    ),
  );
  return `${lines.join("\n")}\n`;
}

export async function askCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      collection: { type: "string" },
      json: { type: "boolean", default: false },
      mermaid: { type: "boolean", default: false },
      config: { type: "string" },
      "no-cache": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${ASK_HELP}\n`);
    return 0;
  }
  if (!values.collection) throw new UsageError("--collection NAME is required");
  const question = positionals.join(" ").trim();
  if (!question)
    throw new UsageError('ask takes a question: ragjudge ask --collection NAME "question"');
  const config = await loadConfig(values.config ? { path: values.config } : {});
  const session = await openStoreSession();
  try {
    const bot = createBuiltinBot({
      db: session.store.db,
      workspaceId: session.actor.workspaceId,
      llm: sessionClients(config, session, { noCache: values["no-cache"] }),
      loops: sessionLoopsConfig(config, session),
      retrieval: config.rag.retrieval,
      gate: config.gate,
      judges: config.judges,
    });
    const result = await bot.ask({ question, collection: values.collection });
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else process.stdout.write(renderAnswer(result));
    if (values.mermaid) {
      process.stdout.write(
        `\n${qualityLoopMermaid(result.trace, config.rag.loops)}\n${answerLoopMermaid(result.trace, config.rag.loops)}`,
      );
    }
    return result.action === "refuse" ? 1 : 0;
  } finally {
    await session.close();
  }
}
