import { parseJsonl } from "../formats/index.js";
import {
  draftRecord,
  type EvaluationResult,
  type EvaluatorRepo,
  type PipelineContext,
  runEvaluatorPipelineBatch,
  verdictOfDraft,
} from "./pipeline.js";
import { type EvaluatorInput, EvaluatorInputSchema } from "./schema.js";

export type GatedLine =
  | { line: number; ok: true; input: EvaluatorInput; result: GatedResult }
  | { line: number; ok: false; error: string };

/** A stored result has a record id; without a repository the verdict is computed only. */
export type GatedResult = Omit<EvaluationResult, "id" | "created_at"> & {
  id?: string;
  created_at?: Date;
};

/**
 * Gates a JSONL stream of EvaluatorInputs, in input order. Valid lines are gated and stored in
 * batches (each batch one INSERT); invalid lines are reported with their line number and field.
 */
export async function* gateJsonl(options: {
  source: AsyncIterable<Uint8Array | string>;
  ctx: PipelineContext;
  evaluator_repo?: EvaluatorRepo;
  batchSize?: number;
}): AsyncGenerator<GatedLine> {
  const batchSize = options.batchSize ?? 500;
  let pending: Array<
    { line: number; ok: false; error: string } | { line: number; ok: true; input: EvaluatorInput }
  > = [];

  async function* flush(): AsyncGenerator<GatedLine> {
    const valid = pending.filter((entry) => entry.ok);
    const results: GatedResult[] = options.evaluator_repo
      ? await runEvaluatorPipelineBatch({
          evaluator_repo: options.evaluator_repo,
          inputs: valid.map((entry) => entry.input),
          ctx: options.ctx,
        })
      : valid.map((entry) => verdictOfDraft(draftRecord(entry.input, options.ctx)));
    let next = 0;
    for (const entry of pending) {
      if (!entry.ok) {
        yield entry;
        continue;
      }
      const result = results[next++];
      if (result) yield { line: entry.line, ok: true, input: entry.input, result };
    }
    pending = [];
  }

  for await (const parsed of parseJsonl(options.source, EvaluatorInputSchema)) {
    pending.push(parsed.ok ? { line: parsed.line, ok: true, input: parsed.value } : parsed);
    if (pending.length >= batchSize) yield* flush();
  }
  yield* flush();
}
