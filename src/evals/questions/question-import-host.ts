import { parentPort } from "node:worker_threads";
import type { ThreadReply, ThreadRequest } from "../../rag/index.js";
import { questionKey } from "./duplicates.js";
import type { KeyedQuestion, QuestionImportJob } from "./import-thread.js";
import { parseQuestionFile } from "./import.js";

// The parse thread's module for question files (started by import-thread.ts).

const port = parentPort;
if (!port) throw new Error("question-import-host.ts runs as a worker thread only");
port.on("message", ({ id, job }: ThreadRequest<QuestionImportJob>) => {
  let reply: ThreadReply<KeyedQuestion[]>;
  try {
    const questions: KeyedQuestion[] = parseQuestionFile(job.content, job.format).map(
      (question) => ({ ...question, question_key: questionKey(question.question_text) }),
    );
    reply = { id, ok: true, outcome: questions };
  } catch (error) {
    // A QuestionImportError's rows travel with it, to be named in the 400.
    const { name, message } = error as Error;
    const rows = (error as { rows?: unknown }).rows;
    reply = { id, ok: false, error: { name, message, ...(rows ? { rows } : {}) } };
  }
  port.postMessage(reply);
});
