// An LCEL RAG chain whose answers ragjudge records and gates: each question the chain answers
// becomes one answer record on a ragjudge server (RAGJUDGE_URL, RAGJUDGE_TOKEN), with the
// retrieved documents as its hits and the evidence gate's verdict; then the offline judge scores
// one answer as a runnable.
//
//   OPENAI_BASE_URL=... OPENAI_API_KEY=... MODEL=... RAGJUDGE_URL=... RAGJUDGE_TOKEN=... \
//     node examples/langchain/record-chain.mjs

import { Document } from "@langchain/core/documents";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { BaseRetriever } from "@langchain/core/retrievers";
import { RunnablePassthrough, RunnableSequence } from "@langchain/core/runnables";
import { ChatOpenAI } from "@langchain/openai";
import { offlineJudgeRunnable, RagjudgeCallbackHandler } from "ragjudge/langchain";
import { searchPassages } from "../langgraph/passages.mjs";

// Any LangChain retriever works here: a vector store's asRetriever(), or ragjudgeRetriever().
class PassageRetriever extends BaseRetriever {
  lc_namespace = ["examples", "passages"];
  async _getRelevantDocuments(query) {
    const passages = await searchPassages({ query });
    return passages.map(
      (p) => new Document({ id: p.id, pageContent: p.content, metadata: { score: p.score } }),
    );
  }
}

const prompt = ChatPromptTemplate.fromMessages([
  ["system", "Answer from these passages only; cite them as [1], [2].\n\n{context}"],
  ["human", "{question}"],
]);
const model = new ChatOpenAI({
  model: process.env.MODEL ?? "gpt-4o-mini",
  apiKey: process.env.OPENAI_API_KEY,
  configuration: { baseURL: process.env.OPENAI_BASE_URL },
});
const numbered = ({ docs }) => docs.map((d, i) => `[${i + 1}] ${d.pageContent}`).join("\n");

const chain = RunnableSequence.from([
  { question: new RunnablePassthrough(), docs: new PassageRetriever() },
  RunnablePassthrough.assign({ context: numbered }),
  prompt,
  model,
  new StringOutputParser(),
]);

// Records every answer on the ragjudge server and gates it on its documents.
const ragjudge = new RagjudgeCallbackHandler({
  gate: true,
  service: "lanting-guide",
  onAnswer: (record, gate) => console.log(`${gate.decision}: ${record.generation_output.answer}`),
});

const questions = ["When was the Lanting bridge built?", "How much is a bridge museum ticket?"];
for (const question of questions) await chain.invoke(question, { callbacks: [ragjudge] });
const { accepted } = await ragjudge.flush();
console.log(`recorded: ${accepted} answers`);

// The judges are runnables too: here the offline judge, against a reference answer.
const judged = await offlineJudgeRunnable().invoke({
  question: questions[0],
  answer: "The Lanting bridge was built in 1870 by the river guild [1].",
  contexts: await new PassageRetriever().invoke(questions[0]),
  ground_truth: "It was built in 1870.",
});
console.log(`offline judge: passed=${judged.passed}, groundedness=${judged.verdict.groundedness}`);
