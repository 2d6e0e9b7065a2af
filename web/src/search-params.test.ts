import { describe, expect, it } from "vitest";
import { parseSearch, stringifySearch } from "./search-params";

describe("search values in the address bar", () => {
  it("writes plain values, not JSON-quoted ones", () => {
    expect(stringifySearch({ min: "0.9", max: 0.5, outcome: "failed", changed: true })).toBe(
      "?min=0.9&max=0.5&outcome=failed&changed=true",
    );
    expect(stringifySearch({ q: "Wei Chenghai", status: "SCORED,BOT_ERROR" })).toBe(
      "?q=Wei+Chenghai&status=SCORED%2CBOT_ERROR",
    );
    expect(stringifySearch({})).toBe("");
  });

  it("reads numbers and true/false as such, other values as text", () => {
    expect(parseSearch("?min=0.9&outcome=failed&changed=true&scale=1-10")).toEqual({
      min: 0.9,
      outcome: "failed",
      changed: true,
      scale: "1-10",
    });
  });

  it("still reads older links whose values are JSON-quoted", () => {
    expect(parseSearch("?min=%220.9%22&outcome=%22failed%22&q=%22%5C%22x%5C%22%22")).toEqual({
      min: "0.9",
      outcome: "failed",
      q: '"x"',
    });
  });

  it("gives back text that starts and ends with a quote whole", () => {
    for (const q of ['"exact words"', '"', '""', 'say "hi"', "{not json", "[1,2"]) {
      expect(parseSearch(stringifySearch({ q })), q).toEqual({ q });
    }
  });
});
