// `ragjudge/langchain`: ragjudge in a LangChain.js app. A callback handler records each answer of
// a chain or graph (and can gate it), the judges run as runnables, and a ragjudge collection
// serves as a retriever. @langchain/core is an optional peer dependency the core entry never
// imports; nothing here loads LangGraph or a database until asked.
export {
  answerRecordOf,
  hitOf,
  questionOf,
  type RecordLabels,
  type RootRunTrace,
} from "./answer-record.js";
export {
  RagjudgeCallbackHandler,
  type RagjudgeCallbackHandlerOptions,
} from "./callback-handler.js";
export { ragjudgeRetriever, type RagjudgeRetrieverOptions } from "./collection-retriever.js";
export {
  contextsOf,
  type JudgeRunnableInput,
  type LlmJudgeRunnableOptions,
  offlineJudgeRunnable,
  referenceJudgeRunnable,
  reviewJudgeRunnable,
  rubricJudgeRunnable,
} from "./judge-runnables.js";
export { type ChatModelLike, chatModelClient } from "../chat-model-client.js";
