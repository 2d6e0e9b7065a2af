import {
  PARSE_LIMITS,
  ParseLimitError,
  type ParseLimits,
  parseThread,
  threadModuleUrl,
} from "../../rag/index.js";
import { QuestionImportError, type RowError } from "./errors.js";
import type { QuestionFormat } from "./import.js";
import type { QuestionInput } from "./schema.js";

// An uploaded question file is read on a parse thread too (rag/ingest/parse-thread.ts), not on
// the thread that answers requests: 10,000 CSV rows took 0.7 s to read and a 4 MB cell 1.5 s.

export interface QuestionImportJob {
  content: string | Uint8Array;
  format: QuestionFormat;
}

// Beside this module: compiled in dist/evals/questions/, or bundled in dist/cli/.
const importThread = parseThread<QuestionImportJob, KeyedQuestion[]>(
  threadModuleUrl(import.meta.url, "question-import-host"),
);

/**
 * A question read on the parse thread, with its duplicate key (questionKey) computed there too:
 * 5,000 long questions' keys cost ~100 ms, which the thread answering requests no longer pays.
 */
export type KeyedQuestion = QuestionInput & { question_key: string };

/** parseQuestionFile, on the parse thread within `limits`; every refusal a QuestionImportError. */
export async function parseQuestionFileOffThread(
  content: string | Uint8Array,
  format: QuestionFormat,
  limits: ParseLimits = PARSE_LIMITS,
): Promise<KeyedQuestion[]> {
  try {
    return await importThread({ content, format }, limits);
  } catch (error) {
    if (ParseLimitError.isInstance(error)) {
      throw QuestionImportError.file(`the file ${error.message}`);
    }
    const { name, message, rows } = error as Error & { rows?: RowError[] };
    if (name === "QuestionImportError") throw new QuestionImportError(rows ?? [], message);
    throw error;
  }
}
