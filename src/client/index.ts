// `ragjudge/client`: record a production app's answers on a ragjudge server, with nothing but fetch.
export {
  type AnswerInput,
  createRecorder,
  type FeedbackInput,
  type FlushResult,
  flushAnswers,
  type Recorder,
  type RecorderError,
  type RecorderOptions,
  recordAnswer,
  recordFeedback,
} from "./recorder.js";
