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
 * A batch the database refuses for a value in it (the repository's `rowErrorOf`) is written again
 * line by line: each line is one INSERT, stored whole or reported by number with the database's
 * reason, and the others are kept. Any other write error (the database is down) is thrown.
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
    const results: Array<GatedResult | { refused: string }> = options.evaluator_repo
      ? await store(
          options.evaluator_repo,
          valid.map((entry) => entry.input),
        )
      : valid.map((entry) => verdictOfDraft(draftRecord(entry.input, options.ctx)));
    let next = 0;
    for (const entry of pending) {
      if (!entry.ok) {
        yield entry;
        continue;
      }
      const result = results[next++];
      if (!result) continue;
      if ("refused" in result) {
        yield { line: entry.line, ok: false, error: `not stored: ${result.refused}` };
      } else {
        yield { line: entry.line, ok: true, input: entry.input, result };
      }
    }
    pending = [];
  }

  async function store(
    repo: EvaluatorRepo,
    inputs: EvaluatorInput[],
  ): Promise<Array<GatedResult | { refused: string }>> {
    const write = (batch: EvaluatorInput[]) =>
      runEvaluatorPipelineBatch({ evaluator_repo: repo, inputs: batch, ctx: options.ctx });
    const refusal = (error: unknown) => {
      const reason = repo.rowErrorOf?.(error);
      if (reason === undefined) throw error;
      return { refused: `the database refused the record: ${reason}` };
    };
    try {
      return await write(inputs);
    } catch (error) {
      const refused = refusal(error);
      if (inputs.length === 1) return [refused];
    }
    const results: Array<GatedResult | { refused: string }> = [];
    for (const input of inputs) {
      try {
        results.push(...(await write([input])));
      } catch (error) {
        results.push(refusal(error));
      }
    }
    return results;
  }

  for await (const parsed of parseJsonl(options.source, EvaluatorInputSchema)) {
    pending.push(parsed.ok ? { line: parsed.line, ok: true, input: parsed.value } : parsed);
    if (pending.length >= batchSize) yield* flush();
  }
  yield* flush();
}
