import { parseArgs } from "node:util";
import { writeConfigSetting } from "../../config/index.js";
import {
  calibrateEvaluation,
  calibrateMonitor,
  renderCalibrationTable,
  suggestFewshot,
} from "../../evals/calibration/index.js";
import { wordMessage } from "../../text/index.js";
import { LANG_OPTION, languageOption } from "../lang-option.js";
import { openStoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";

export const CALIBRATE_HELP = `Usage: ragjudge calibrate --evaluation ID [options]
       ragjudge calibrate --monitor ID [--judge NAME] [--format table|json]

Compares a judge's scores with people's labels on the same results (see ragjudge label import):
n, MAE, share within ±1 (target 90%), quadratic-weighted κ, Krippendorff's α (ordinal),
Spearman ρ, Kendall τ-b; for pass/fail the confusion matrix, accuracy, TPR, TNR; the same for the
constant baseline (always the most common human score); the judge-only, human-only and
prediction-powered (PPI++) pass rates; and the largest disagreements. Formulas: docs/calibration.md.

The golden-set verdict passes only when the ±1 share meets --target, κ meets --kappa, and the
judge's MAE beats the constant baseline's.

With --monitor, a production monitor's judge is compared with people's thumbs on the same live
answers (a thumbs up is a pass, a thumbs down a fail; docs/production.md): pass/fail statistics
and the PPI++ pass rate over the answers nobody rated.

Options:
  --evaluation ID       the run
  --monitor ID          a production monitor, instead of a run
  --judge NAME          the judge to calibrate (default: the run's first judge with labels)
  --format table|json   output (default: table)
  --target X            the ±1 share to reach (default 0.9)
  --kappa X             the κ to reach (default 0.6)
  --disagreements N     how many disagreements to list (default 10)
  --suggest-fewshot     instead, pick person-scored examples spanning the 1-10 scale (with a
                        confident fabrication scored low) and write them to judges.rubric.fewshot
  --count N             how many examples (default 3, at most 8)
  --config FILE         the configuration file written (default: ./ragjudge.config.json or .yaml)
  --dry-run             print the examples, write nothing
  --lang en|zh          the language of the table and its warnings (default: en)
  -h, --help            show this help

Exit code: 0 when the verdict passes (or examples were written), 1 when it fails, 2 for usage
errors.`;

const ROLE_TEXT = {
  confident_low: "scored low by a person, though the answer does not abstain",
  lowest: "the lowest score people gave",
  spanning: "spanning the scale",
} as const;

function fraction(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number < -1 || number > 1) {
    throw new UsageError(`--${name}: expected a number from -1 to 1, got "${value}"`);
  }
  return number;
}

function count(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max) {
    throw new UsageError(`--${name}: expected a whole number from 1 to ${max}, got "${value}"`);
  }
  return number;
}

export async function calibrateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      evaluation: { type: "string" },
      monitor: { type: "string" },
      judge: { type: "string" },
      format: { type: "string", default: "table" },
      target: { type: "string" },
      kappa: { type: "string" },
      disagreements: { type: "string" },
      "suggest-fewshot": { type: "boolean", default: false },
      count: { type: "string" },
      config: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      lang: LANG_OPTION,
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${CALIBRATE_HELP}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (!values.evaluation && !values.monitor) {
    throw new UsageError("--evaluation ID or --monitor ID is required");
  }
  if (values.evaluation && values.monitor) {
    throw new UsageError("give --evaluation or --monitor, not both");
  }
  const format = values.format;
  if (format !== "table" && format !== "json") {
    throw new UsageError(`--format: expected table or json, got "${format}"`);
  }
  const options = {
    target: fraction("target", values.target, 0.9),
    kappaMin: fraction("kappa", values.kappa, 0.6),
    disagreements: count("disagreements", values.disagreements, 10, 1000),
  };
  const examples = count("count", values.count, 3, 8);
  const lang = languageOption(values.lang);
  const warningLabel = lang === "zh" ? "警告：" : "warning: ";
  const session = await openStoreSession();
  try {
    const db = session.store.db;
    const { workspaceId } = session.actor;
    const judge = values.judge ? { judge: values.judge } : {};
    if (values.monitor) {
      if (values["suggest-fewshot"]) {
        throw new UsageError("--suggest-fewshot needs a run's 1-10 labels: use --evaluation");
      }
      const report = await calibrateMonitor(db, workspaceId, values.monitor, {
        ...options,
        ...judge,
      });
      process.stdout.write(
        format === "json"
          ? `${JSON.stringify(report, null, 2)}\n`
          : renderCalibrationTable(report, lang),
      );
      if (report.verdict.passed) return 0;
      for (const failure of report.verdict.failed) process.stderr.write(`FAILED: ${failure}\n`);
      return 1;
    }
    const evaluationId = values.evaluation ?? "";
    if (values["suggest-fewshot"]) {
      const suggestion = await suggestFewshot(db, workspaceId, evaluationId, {
        count: examples,
        ...judge,
      });
      for (const warning of suggestion.warnings) {
        process.stderr.write(`${warningLabel}${wordMessage(warning, lang)}\n`);
      }
      if (format === "json") process.stdout.write(`${JSON.stringify(suggestion, null, 2)}\n`);
      else {
        for (const example of suggestion.examples) {
          process.stdout.write(
            `${example.score}/10 (${ROLE_TEXT[example.role]}): ${example.question}\n` +
              `  answer: ${example.answer.replace(/\s+/g, " ").slice(0, 160)}\n` +
              (example.note ? `  note: ${example.note}\n` : ""),
          );
        }
      }
      if (suggestion.examples.length === 0) return 1;
      if (values["dry-run"]) return 0;
      const fewshot = suggestion.examples.map(
        ({ result_id: _r, role: _role, ...example }) => example,
      );
      const path = await writeConfigSetting(["judges", "rubric", "fewshot"], fewshot, {
        ...(values.config ? { path: values.config } : {}),
      });
      process.stderr.write(
        `Wrote ${fewshot.length} examples to judges.rubric.fewshot in ${path}; the rubric judge's prompt version changes with them.\n`,
      );
      return 0;
    }
    const report = await calibrateEvaluation(db, workspaceId, evaluationId, {
      ...options,
      ...judge,
    });
    process.stdout.write(
      format === "json"
        ? `${JSON.stringify(report, null, 2)}\n`
        : renderCalibrationTable(report, lang),
    );
    if (!report.verdict.passed) {
      for (const failure of report.verdict.failed) process.stderr.write(`FAILED: ${failure}\n`);
      return 1;
    }
    return 0;
  } finally {
    await session.close();
  }
}
