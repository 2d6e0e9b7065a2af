// Question generation as a job (seed 003 QuestionGenerationTask): request, then preview the row.
export {
  type GenerateQuestionsRequest,
  GenerateQuestionsRequestSchema,
  type GenerationConfig,
  type GenerationJob,
  getGeneration,
  MAX_GENERATED_QUESTIONS,
  QuestionGenerationNotFoundError,
  requestQuestionGeneration,
} from "./request.js";
export {
  type QuestionGenerationWorker,
  type QuestionGenerationWorkerOptions,
  startQuestionGenerationWorker,
} from "./worker.js";
