// Seed 001's quality loop and seed 000's answer loop, node by node, in your own LangGraph
// StateGraph: ragjudge grades the retrieval, rewrites a weak query (at most twice), reviews the
// answer with a separate judge model, regenerates from its suggestions, and gates the result.
//   OPENAI_BASE_URL=http://127.0.0.1:8000/v1 OPENAI_API_KEY=... MODEL=gpt-4o-mini node examples/langgraph/rag-graph.mjs
// Needs `npm install @langchain/langgraph @langchain/core @langchain/openai`, and ragjudge.

import { END, START, StateGraph } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import {
  evaluateAnswer,
  gateAnswer,
  generateAnswer,
  gradeDocuments,
  questionRouter,
  RagLoopsAnnotation,
  retrieve,
  rewriteQuery,
  routeAfterEvaluation,
  routeAfterGrading,
} from "ragjudge/langgraph";
import { searchPassages } from "./passages.mjs";

const chatModel = () =>
  new ChatOpenAI({
    model: process.env.MODEL ?? "gpt-4o-mini",
    apiKey: process.env.OPENAI_API_KEY,
    configuration: { baseURL: process.env.OPENAI_BASE_URL },
  });

const graph = new StateGraph(RagLoopsAnnotation)
  .addNode("question_router", questionRouter())
  .addNode("retrieve", retrieve({ retrieve: searchPassages }))
  .addNode("grade_documents", gradeDocuments())
  .addNode("rewrite_query", rewriteQuery({ model: chatModel() }))
  .addNode("generate_answer", generateAnswer({ model: chatModel() }))
  // The review judge is a model instance of its own (seed 000).
  .addNode("eval_answer", evaluateAnswer({ judge: chatModel() }))
  .addNode("gate_answer", gateAnswer())
  .addEdge(START, "question_router")
  .addEdge("question_router", "retrieve")
  .addEdge("retrieve", "grade_documents")
  .addConditionalEdges("grade_documents", routeAfterGrading(), {
    rewrite_query: "rewrite_query",
    generate: "generate_answer",
  })
  .addEdge("rewrite_query", "question_router")
  .addEdge("generate_answer", "eval_answer")
  .addConditionalEdges("eval_answer", routeAfterEvaluation(), {
    generate_answer: "generate_answer",
    [END]: "gate_answer",
  })
  .addEdge("gate_answer", END)
  .compile();

const stream = await graph.stream({ question: "when?" }, { streamMode: "updates" });
for await (const update of stream) {
  for (const [node, change] of Object.entries(update)) {
    if (node === "grade_documents") {
      console.log(`grade_documents: ${change.quality_grade} (${change.quality_score.toFixed(2)})`);
    }
    if (node === "rewrite_query") console.log(`rewrite_query: ${change.query}`);
    if (node === "eval_answer") console.log(`eval_answer: passed=${change.last_evaluation.passed}`);
    if (node === "gate_answer")
      console.log(`gate_answer: ${change.gate.decision}: ${change.final_answer}`);
  }
}
