// The evidence gate around any AI SDK model: the answer is checked against the sources your
// retriever found, and repaired or blocked before your user sees it.
//   OPENAI_BASE_URL=http://127.0.0.1:8000/v1 OPENAI_API_KEY=... MODEL=gpt-4o-mini node examples/ai-sdk/guard.mjs
// Needs Node >= 22, `npm install ai @ai-sdk/openai-compatible`, and ragjudge.

import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, streamText, wrapLanguageModel } from "ai";
import { RagjudgeBlockedError, ragjudgeGuard } from "ragjudge/ai-sdk";

const provider = createOpenAICompatible({
  name: "openai-compatible",
  baseURL: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
  apiKey: process.env.OPENAI_API_KEY,
});
const model = wrapLanguageModel({
  model: provider.chatModel(process.env.MODEL ?? "gpt-4o-mini"),
  middleware: ragjudgeGuard({ mode: "repair" }),
});

// What your retriever found for the question; the answer cites them as [1], [2] or [id].
const sources = [
  { id: "bridge", content: "The Lanting bridge was built in 1870 by the river guild." },
  { id: "museum", content: "Tickets to the bridge museum cost 12 yuan for adults." },
];
const prompt = `Answer from the sources, citing them as [1], [2].\n\n${sources
  .map((s, i) => `[${i + 1}] ${s.content}`)
  .join("\n")}\n\nQuestion: When was the bridge built, and what does a ticket cost?`;

try {
  const { text, providerMetadata } = await generateText({
    model,
    prompt,
    providerOptions: { ragjudge: { sources } },
  });
  console.log(`${providerMetadata.ragjudge.decision}: ${text}`);
  for (const reason of providerMetadata.ragjudge.reasons) console.log(`  why: ${reason.message}`);
} catch (error) {
  if (!RagjudgeBlockedError.isInstance(error)) throw error;
  console.log(`blocked: ${error.message}`);
}

// Streaming: in repair (and block) mode nothing is released before the verdict.
const streamed = streamText({ model, prompt, providerOptions: { ragjudge: { sources } } });
let text = "";
for await (const chunk of streamed.textStream) text += chunk;
console.log(`streamed, ${(await streamed.providerMetadata).ragjudge.decision}: ${text}`);
