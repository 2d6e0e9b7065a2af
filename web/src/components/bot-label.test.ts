import { describe, expect, it } from "vitest";
import { botLabelOf } from "./bot-label";

const names = new Map([["b1", "support bot"]]);

describe("botLabelOf", () => {
  it("names the built-in bot's generator model, or says it answered extractively", () => {
    const models = { generator: { model: "gpt-4o-mini" }, judge: { model: "judge" } };
    expect(
      botLabelOf({ bot_id: "builtin", config: { bot: { kind: "builtin" }, models } }, names),
    ).toEqual({ kind: "builtin", model: "gpt-4o-mini" });
    expect(
      botLabelOf({ bot_id: "builtin", config: { bot: { kind: "builtin" }, models: {} } }, names),
    ).toEqual({ kind: "builtin", model: null });
  });

  it("names a registered bot by its name, else an HTTP bot by its URL", () => {
    const url = "http://127.0.0.1:9000/ask";
    expect(
      botLabelOf({ bot_id: url, config: { bot: { kind: "http", url, bot_id: "b1" } } }, names),
    ).toEqual({ kind: "registered", name: "support bot" });
    expect(botLabelOf({ bot_id: url, config: { bot: { kind: "http", url } } }, names)).toEqual({
      kind: "http",
      url,
    });
  });

  it("says an answers file, and keeps the stored id for anything else", () => {
    expect(botLabelOf({ bot_id: "answers", config: { bot: { kind: "answers" } } }, names)).toEqual({
      kind: "answers",
    });
    expect(botLabelOf({ bot_id: "odd", config: {} }, names)).toEqual({
      kind: "unknown",
      id: "odd",
    });
  });
});
