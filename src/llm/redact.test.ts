import { describe, expect, it } from "vitest";
import { LlmHttpError } from "./errors.js";
import { errorText, redactSecrets, registerSecrets } from "./redact.js";

describe("redactSecrets", () => {
  it("removes configured secrets, longest first, wherever they appear", () => {
    registerSecrets([
      "configured-secret-1234",
      "configured-secret-1234-longer",
      "short",
      undefined,
    ]);
    expect(redactSecrets("a configured-secret-1234-longer b configured-secret-1234 c")).toBe(
      "a [REDACTED] b [REDACTED] c",
    );
    // Short values would eat ordinary words; they are never registered.
    expect(redactSecrets("a short word")).toBe("a short word");
  });

  it("removes anything shaped like a provider key, token or credential", () => {
    const cases: Array<[string, string]> = [
      [
        "Incorrect API key provided: sk-abc123DEF456ghi789.",
        "Incorrect API key provided: [REDACTED].",
      ],
      ["key sk-proj-AbCdEf_123-456xyz rejected", "key [REDACTED] rejected"],
      ["anthropic sk-ant-api03-abcdefghijkl", "anthropic [REDACTED]"],
      ["got Authorization: Bearer eyJhbGciOi.abc", "got Authorization: Bearer [REDACTED]"],
      ["header bearer abcdefgh12345678", "header bearer [REDACTED]"],
      ['{"api_key": "plainvalue123"}', '{"api_key": "[REDACTED]"}'],
      ["x-api-key: 0123456789abcdef", "x-api-key: [REDACTED]"],
      ["url ?password=hunter2hunter", "url ?password=[REDACTED]"],
      ["google AIzaSyA1234567890abcdefghijklmnopq", "google [REDACTED]"],
      ["hf hf_abcdefghijklmnopqrstu", "hf [REDACTED]"],
      ["ghp_abcdefghijklmnopqrstuvwxyz0123", "[REDACTED]"],
      ["aws AKIAABCDEFGHIJKLMNOP", "aws [REDACTED]"],
      ["ragjudge rj_abcdefghijklmnopqrstuvwx", "ragjudge [REDACTED]"],
    ];
    for (const [input, expected] of cases) expect(redactSecrets(input), input).toBe(expected);
  });

  it("leaves ordinary error texts alone", () => {
    const text = "HTTP 500 from bot: connection refused (ECONNREFUSED) at task-list 42";
    expect(redactSecrets(text)).toBe(text);
  });

  it("leaves no tail of a longer key that starts with a configured secret", () => {
    // Replacing the configured value first used to leave "ghijklmnop" for anyone to read.
    expect(redactSecrets("echo sk-abcdefghijklmnop", ["sk-abcdef"])).toBe("echo [REDACTED]");
    expect(redactSecrets("a prefix-sk-abcdefghijkl b", ["prefix-sk-abc"])).toBe("a [REDACTED] b");
  });

  it("redacts caller-known secrets given as extra", () => {
    expect(redactSecrets("token=abc and then my-bot-token-xyz", ["my-bot-token-xyz"])).toBe(
      "token=abc and then [REDACTED]",
    );
  });

  it("is applied when an LLM error is made, and by errorText to any thrown value", () => {
    registerSecrets(["local-key-without-shape"]);
    const error = new LlmHttpError(
      401,
      "http://127.0.0.1:9/v1",
      1,
      false,
      "bad key local-key-without-shape",
    );
    expect(error.message).not.toContain("local-key-without-shape");
    expect(error.message).toContain("HTTP 401");
    expect(errorText(new Error("echo sk-abcdefghijklmnop"))).toBe("echo [REDACTED]");
    expect(errorText("plain string local-key-without-shape")).toBe("plain string [REDACTED]");
  });
});
