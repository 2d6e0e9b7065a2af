// The two loops as ready-made graphs over your retriever and models: compile them with your own
// checkpointer, stream them, draw them. The quality loop's `generate` runs the answer loop.
//   OPENAI_BASE_URL=http://127.0.0.1:8000/v1 OPENAI_API_KEY=... MODEL=gpt-4o-mini node examples/langgraph/ready-made.mjs
// Needs `npm install @langchain/langgraph @langchain/core @langchain/openai`, and ragjudge.

import { MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { buildAnswerLoopGraph, buildQualityLoopGraph } from "ragjudge/langgraph";
import { searchPassages } from "./passages.mjs";

const chatModel = () =>
  new ChatOpenAI({
    model: process.env.MODEL ?? "gpt-4o-mini",
    apiKey: process.env.OPENAI_API_KEY,
    configuration: { baseURL: process.env.OPENAI_BASE_URL },
  });

// Seed 000: generate, review with a separate judge, regenerate from its suggestions; then the gate.
const answerLoop = buildAnswerLoopGraph({
  generate: chatModel(),
  judge: chatModel(),
  gate: true,
}).compile();

// Seed 001: grade the retrieval, rewrite a weak query at most twice (10 s budget), then answer.
const qualityLoop = buildQualityLoopGraph({
  retrieve: searchPassages,
  rewriter: chatModel(),
  generate: async (state) => {
    const answered = await answerLoop.invoke({
      question: state.question,
      hits: state.fused_results,
      retrieval_query: state.query,
    });
    return { answer: answered.final_answer };
  },
}).compile({ checkpointer: new MemorySaver() });

console.log(qualityLoop.getGraph().drawMermaid());
const thread = { configurable: { thread_id: "example" } };
const state = await qualityLoop.invoke({ question: "when?" }, thread);
console.log(`rewrites: ${state.retry_count}, grade: ${state.quality_grade}`);
console.log(`answer: ${state.answer}`);
// The checkpoint keeps every step; here, the queries each grading was made for.
for await (const snapshot of qualityLoop.getStateHistory(thread)) {
  if (snapshot.next[0] === "grade_documents")
    console.log(`retrieved for: ${snapshot.values.query}`);
}
