// `ragjudge/langgraph`: seed 001's quality loop and seed 000's answer loop for LangGraph.js, node
// by node (for your own StateGraph) and as ready-made graphs over your retriever and models.
// @langchain/langgraph and @langchain/core are optional peer dependencies that the core entry
// never imports.
export {
  type AnswerGraphNode,
  evaluateAnswer,
  type EvaluateAnswerNodeOptions,
  gateAnswer,
  type GateAnswerNodeOptions,
  generateAnswer,
  type GenerateAnswerNodeOptions,
  routeAfterEvaluation,
} from "./answer-nodes.js";
export { type ChatModelLike, chatModelClient } from "../chat-model-client.js";
export {
  type AnswerLoopGraphOptions,
  buildAnswerLoopGraph,
  buildQualityLoopGraph,
  type GenerateFunction,
  type QualityLoopGraphOptions,
} from "./graphs.js";
export {
  DEFAULT_COLLECTION,
  type GradedState,
  gradeDocuments,
  type LoopOptions,
  type QualityGraphNode,
  questionRouter,
  type QuestionRouterNodeOptions,
  retrieve,
  type RetrieveNodeOptions,
  rewriteQuery,
  type RewriteQueryNodeOptions,
  routeAfterGrading,
} from "./quality-nodes.js";
export {
  hitsFromPassages,
  type PassageLike,
  type RetrieveFunction,
  type RetrieveInput,
  type RetrieverLike,
  toRetriever,
} from "./retriever.js";
export {
  AnswerLoopAnnotation,
  type AnswerLoopGraphState,
  type AnswerNodeState,
  type GateOutcome,
  QualityLoopAnnotation,
  type QualityLoopGraphState,
  type QualityNodeState,
  RagLoopsAnnotation,
} from "./state.js";
