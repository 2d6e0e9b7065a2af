import { describe, expect, it } from "vitest";
import { parseHttpBotReply, UNNAMED_BOT_MODEL } from "./http-contract.js";

const problem = (reply: unknown) => {
  const parsed = parseHttpBotReply(typeof reply === "string" ? reply : JSON.stringify(reply));
  return parsed.ok ? undefined : parsed.problem;
};

describe("parseHttpBotReply", () => {
  it("names the innermost field at fault, not the union around it", () => {
    expect(problem({})).toBe("reply field answer: required string");
    expect(problem({ answer: 3 })).toBe("reply field answer: expected a string");
    expect(problem({ answer: "a", contexts: [{ text: 4 }] })).toMatch(
      /^reply field contexts\.0\.text: .*expected string/,
    );
    expect(problem({ answer: "a", contexts: [{ id: "x" }] })).toBe(
      "reply field contexts.0: expected a `content` or `text` string",
    );
    expect(problem({ answer: "a", contexts: [3] })).toBe(
      "reply field contexts.0: expected string or object",
    );
    expect(problem({ answer: "a", citations: [true] })).toBe(
      "reply field citations.0: expected string or number or object",
    );
    expect(problem({ answer: "a", citations: [{}] })).toBe(
      "reply field citations.0.node_id: expected string or number",
    );
    expect(problem([])).toMatch(/^reply field \(reply\): .*expected object/);
  });

  it("says when the body is not JSON, without quoting it", () => {
    expect(problem("")).toBe("reply is not JSON (empty body)");
    expect(problem(`Internal error ${"x".repeat(300)}`)).toBe("reply is not JSON (315 characters)");
  });

  it("reads the tokens a bot reports, by model, so they can be priced", () => {
    const one = parseHttpBotReply(
      JSON.stringify({
        answer: "a",
        usage: {
          model: "gpt-4o-mini",
          prompt_tokens: 900,
          completion_tokens: 40,
          cached_tokens: 512,
        },
      }),
    );
    expect(one.ok && one.usage).toEqual([
      {
        role: "bot",
        model: "gpt-4o-mini",
        calls: 1,
        prompt_tokens: 900,
        cached_tokens: 512,
        completion_tokens: 40,
      },
    ]);
    const several = parseHttpBotReply(
      JSON.stringify({
        answer: "a",
        usage: [
          { model: "text-embedding-3-small", prompt_tokens: 12, completion_tokens: 0 },
          { prompt_tokens: 100, completion_tokens: 10, calls: 2 },
        ],
      }),
    );
    expect(several.ok && several.usage.map((u) => [u.model, u.calls])).toEqual([
      ["text-embedding-3-small", 1],
      [UNNAMED_BOT_MODEL, 2],
    ]);
    expect(problem({ answer: "a", usage: { prompt_tokens: -1, completion_tokens: 0 } })).toMatch(
      /^reply field usage/,
    );
    const none = parseHttpBotReply(JSON.stringify({ answer: "a" }));
    expect(none.ok && none.usage).toEqual([]);
  });

  it("accepts numeric ids as strings", () => {
    const parsed = parseHttpBotReply(
      JSON.stringify({ answer: "a", citations: [7], contexts: [{ node_id: 7, content: "c" }] }),
    );
    expect(parsed).toMatchObject({ ok: true, citations: ["7"], contexts: [{ node_id: "7" }] });
  });
});
