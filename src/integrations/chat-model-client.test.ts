import { FakeListChatModel } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { chatModelClient, chatModelName } from "./chat-model-client.js";

// FakeListChatModel is @langchain/core's own chat model for tests: real invoke, callbacks and
// cancellation, answers from a list.
describe("chatModelClient", () => {
  it("answers a chat from the model's reply and counts the call", async () => {
    const model = new FakeListChatModel({ responses: ["The bridge opened in 1870."] });
    const client = chatModelClient(model);
    const result = await client.chat({
      messages: [
        { role: "system", content: "Answer briefly." },
        { role: "user", content: "When did the bridge open?" },
      ],
    });
    expect(result.content).toBe("The bridge opened in 1870.");
    expect(result.call).toMatchObject({ kind: "chat", provider: "langchain", outcome: "ok" });
    expect(client.usage()).toMatchObject({ calls: 1, failed_calls: 0 });
    expect(client.structuredOutput).toBe("prompt");
    expect(client.model).toBe(chatModelName(model));
  });

  it("aborts the model's call on the request's signal", async () => {
    const model = new FakeListChatModel({ responses: ["late"], sleep: 5_000 });
    const client = chatModelClient(model);
    const controller = new AbortController();
    const call = client.chat({
      messages: [{ role: "user", content: "q" }],
      signal: controller.signal,
    });
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow();
    expect(client.usage()).toMatchObject({ calls: 1, failed_calls: 1 });
  });

  it("keeps the tokens a model reports, the prompt it read from its provider's cache included", async () => {
    // The reply shape @langchain/openai gives: usage_metadata with input_token_details.
    const model = {
      model: "gpt-4o-mini",
      invoke: () =>
        Promise.resolve({
          content: "ok",
          usage_metadata: {
            input_tokens: 120,
            output_tokens: 8,
            total_tokens: 128,
            input_token_details: { cache_read: 64 },
          },
        }),
    };
    const client = chatModelClient(model);
    const result = await client.chat({ messages: [{ role: "user", content: "q" }] });
    expect(result.usage).toEqual({
      prompt_tokens: 120,
      completion_tokens: 8,
      total_tokens: 128,
      cached_tokens: 64,
    });
    expect(client.usage()).toMatchObject({ calls: 1, prompt_tokens: 120, cached_tokens: 64 });
  });
});
