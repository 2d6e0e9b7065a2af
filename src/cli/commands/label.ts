import { createReadStream, existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { importLabels, LabelScaleSchema } from "../../evals/calibration/index.js";
import { openStoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";

export const LABEL_HELP = `Usage: ragjudge label import --evaluation ID FILE.jsonl [options]

Imports people's scores of a run's answers (the manual golden set). Each line:
  {"question": "...", "human_score": 7, "note": "optional"}   a score on the judge's scale
  {"question": "...", "human_passed": false}                   or a pass/fail verdict (or both)
Lines are matched to the run's results by question. Every bad or unmatched line is named with its
line number and field, and then nothing is imported. Labels replace earlier ones on the same
result and scale, and survive re-judging (retry).

Options:
  --evaluation ID      the run whose results are labelled (required)
  --judge NAME         human_score is on this judge's scale (rubric, offline: 1-10; reference: 1-5)
  --scale 1-10|1-5     or name the scale (default: the scale of the run's first judge that has one)
  --by NAME            who labelled (default: the local user; a line's labelled_by wins)
  -h, --help           show this help

Exit code: 0 when imported, 2 for bad lines or usage errors.`;

export async function labelCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      evaluation: { type: "string" },
      judge: { type: "string" },
      scale: { type: "string" },
      by: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${LABEL_HELP}\n`);
    return 0;
  }
  const [action, file, ...extra] = positionals;
  if (action !== "import") throw new UsageError(`expected "label import"; see --help`);
  if (!values.evaluation) throw new UsageError("--evaluation ID is required");
  if (!file || extra.length > 0) throw new UsageError("give one label file");
  if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
  let scale: "1-10" | "1-5" | undefined;
  if (values.scale !== undefined) {
    const parsed = LabelScaleSchema.exclude(["pass_fail"]).safeParse(values.scale);
    if (!parsed.success)
      throw new UsageError(`--scale: expected 1-10 or 1-5, got "${values.scale}"`);
    scale = parsed.data;
  }
  const session = await openStoreSession();
  try {
    const result = await importLabels(
      session.store.db,
      { ...session.actor, name: values.by ?? session.user.name },
      values.evaluation,
      createReadStream(file),
      { ...(values.judge ? { judge: values.judge } : {}), ...(scale ? { scale } : {}) },
    );
    process.stdout.write(
      `Imported ${result.written} labels from ${result.lines} lines of ${file}` +
        (result.scale ? ` (scores on ${result.scale})` : "") +
        ` into evaluation ${values.evaluation}\n`,
    );
    return 0;
  } finally {
    await session.close();
  }
}
