// Judges one answer with the three LLM judges and prints the results.
//   npx tsx examples/llm/judge-one.ts examples/llm/ragjudge.config.json
// The API key comes from OPENAI_API_KEY or RAGJUDGE_JUDGE_API_KEY; it is never printed.

import { loadConfig } from "../../src/config/index.js";
import { reference, review, rubric, summarizeJudgeResults } from "../../src/judges/index.js";
import { createLlmClients, redactLlmConfig } from "../../src/llm/index.js";

const path = process.argv[2] ?? "examples/llm/ragjudge.config.json";
const { llm: llmConfig, judges: judgesConfig } = await loadConfig({ path });
console.log("llm config:", JSON.stringify(redactLlmConfig(llmConfig.roles.judge)));

const { judge } = createLlmClients(llmConfig);
const question = "When did Acme launch its first product, and what was it?";
const contexts = [
  { node_id: "n1", source: "history.md", content: "Acme was founded in 2015 in Lyon." },
  {
    node_id: "n2",
    source: "products.md",
    content: "Acme's first product, the Roadrunner sensor, shipped in March 2019.",
  },
];
const answer = "Acme launched its first product, the Roadrunner sensor, in March 2019 [2].";
const signal = AbortSignal.timeout(300_000);

const results = [
  await review({
    question,
    answer,
    contexts,
    top_k: 5,
    client: judge,
    config: judgesConfig,
    signal,
  }),
  await rubric({
    question,
    answer,
    documents: contexts,
    client: judge,
    config: judgesConfig,
    signal,
  }),
  await reference({
    question,
    answer,
    ground_truth: "The Roadrunner sensor, in March 2019.",
    client: judge,
    config: judgesConfig,
    signal,
  }),
];
for (const result of results) {
  console.log(
    `\n${result.name}: ${result.outcome}, passed=${result.passed}, score=${result.score}`,
  );
  console.log(JSON.stringify(result.verdict, null, 2));
}
console.log("\nsummary:", summarizeJudgeResults(results));
console.log("usage:", judge.usage());
