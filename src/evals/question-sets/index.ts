// Question sets' service (seed 003 QuestionSetService): the store-backed operations the API and
// the CLI call. Parsing, export and duplicate keys are evals/questions' pure functions.
export { QuestionNotFoundError, QuestionSetRequestError, type RequestIssue } from "./errors.js";
export {
  type AddQuestions,
  AddQuestionsSchema,
  type CreateQuestionSet,
  CreateQuestionSetSchema,
  type ImportQuestionSet,
  ImportQuestionSetSchema,
  type UpdateQuestion,
  UpdateQuestionSchema,
  type UpdateQuestionSet,
  UpdateQuestionSetSchema,
} from "./schema.js";
export {
  appendQuestions,
  createQuestionSetWithQuestions,
  editQuestion,
  exportQuestionSet,
  getQuestionSetWithQuestions,
  importQuestionSet,
  type QuestionSetFile,
  type QuestionSetWithQuestions,
  removeQuestion,
  removeQuestionSet,
  resolveCollectionId,
  updateQuestionSetMeta,
} from "./service.js";
