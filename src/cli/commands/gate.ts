import { createReadStream } from "node:fs";
import { parseArgs } from "node:util";
import { loadConfig } from "../../config/index.js";
import { type GatedLine, gateJsonl } from "../../gate/index.js";
import { evaluationRecordRepo } from "../../store/index.js";
import {
  renderJunit,
  renderSummaryTable,
  renderVerdictTable,
  summarize,
} from "../render/gate-report.js";
import { openStoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";

export const GATE_HELP = `Usage: ragjudge gate FILE.jsonl [options]

Gates each answer (one EvaluatorInput per line) on its evidence and stores every record.

Options:
  --format table|json|jsonl|junit   output format (default: table)
  --config FILE.json                configuration file whose "gate" section overrides the check
                                    defaults (default: ./ragjudge.config.json if present; docs/gate.md)
  --no-store                        evaluate only; write nothing to the database
  -h, --help                        show this help

Use - as FILE to read standard input.
Exit code: 0 when no answer fails, 1 when any answer fails, 2 for invalid lines or usage errors.`;

const FORMATS = ["table", "json", "jsonl", "junit"] as const;
type Format = (typeof FORMATS)[number];

/** Machine-readable form of one line: the verdict and record id, or the error. */
function lineJson(entry: GatedLine) {
  if (!entry.ok) return { line: entry.line, error: entry.error };
  const { result } = entry;
  return {
    line: entry.line,
    record_id: result.id ?? null,
    conversation_id: result.conversation_id,
    message_id: result.message_id,
    status: result.status,
    action: result.action,
    rule_version: result.rule_version,
    scores: result.scores,
    checks: result.checks,
  };
}

export async function gateCommand(
  argv: string[],
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: "string", default: "table" },
      config: { type: "string" },
      "no-store": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    out.write(`${GATE_HELP}\n`);
    return 0;
  }
  const format = values.format as Format;
  if (!FORMATS.includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}`);
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError("gate takes exactly one FILE.jsonl (or -)");
  const { gate: config } = await loadConfig(values.config ? { path: values.config } : {});
  const source = file === "-" ? process.stdin : createReadStream(file);

  const session = values["no-store"] ? undefined : await openStoreSession();
  const lines: GatedLine[] = [];
  try {
    const gated = gateJsonl({
      source,
      ctx: { workspace_id: session?.actor.workspaceId ?? "", config },
      ...(session ? { evaluator_repo: evaluationRecordRepo(session.store.db) } : {}),
    });
    for await (const entry of gated) {
      if (format === "jsonl") out.write(`${JSON.stringify(lineJson(entry))}\n`);
      if (!entry.ok && format === "table")
        process.stderr.write(`line ${entry.line}: ${entry.error}\n`);
      lines.push(entry);
    }
  } finally {
    await session?.close();
  }

  const summary = summarize(lines);
  if (format === "table") {
    out.write(`${renderVerdictTable(lines)}\n\n${renderSummaryTable(summary)}\n`);
    if (session)
      out.write(
        `\nStored ${summary.total - summary.invalid} evaluation records in ${session.store.location}.\n`,
      );
  } else if (format === "json") {
    out.write(`${JSON.stringify({ summary, results: lines.map(lineJson) }, null, 2)}\n`);
  } else if (format === "junit") {
    out.write(renderJunit(lines));
  }
  if (summary.fail > 0) return 1;
  return summary.invalid > 0 ? 2 : 0;
}
