import { describe, expect, it } from "vitest";
import {
  asCodedMessage,
  codedMessage,
  MESSAGE_CODES,
  messagePart,
  messageTemplate,
  wordMessage,
} from "./user-messages.js";

const placeholders = (template: string) =>
  [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const HAN = /\p{Script=Han}/u;

describe("the message catalogue", () => {
  it("words every code in English and in Chinese, with the same placeholders", () => {
    expect(MESSAGE_CODES.length).toBeGreaterThan(20);
    for (const code of MESSAGE_CODES) {
      const en = messageTemplate(code, "en");
      const zh = messageTemplate(code, "zh");
      expect(en, code).not.toBe("");
      expect(placeholders(zh), code).toEqual(placeholders(en));
      // plain, sentences and clauses are only their placeholder: the words are what fills them.
      if (code !== "plain" && code !== "sentences" && code !== "clauses") {
        expect(zh, code).toMatch(HAN);
        expect(en, code).not.toMatch(HAN);
      }
    }
  });

  it("says nothing in internal words: no seed, issue or snake_case field names", () => {
    for (const code of MESSAGE_CODES) {
      for (const lang of ["en", "zh"] as const) {
        const text = messageTemplate(code, lang).replace(/\{\w+\}/g, "");
        expect(text, `${code} ${lang}`).not.toMatch(/\bseed\b|\bissue\b|\b[a-z]+_[a-z_]+\b/i);
      }
    }
  });

  it("fills the parameters in both languages", () => {
    const message = codedMessage("calibration.few_labels", { n: 12, min: 30 });
    expect(message).toEqual({
      code: "calibration.few_labels",
      params: { n: 12, min: 30 },
      message:
        "Only 12 labelled results: the intervals are wide and a few more labels can change the verdict (label at least 30).",
    });
    expect(wordMessage(message, "zh")).toBe(
      "只有 12 个已标注结果：区间很宽，再多几个标注就可能改变结论（至少标注 30 个）。",
    );
  });

  it("words grouped model failures by kind with their counts, the example kept as sent", () => {
    const message = codedMessage("arena.all_judgments_failed", {
      n: 24,
      failures: [
        { kind: "http", count: 20, example: "HTTP 500 upstream" },
        { kind: "timeout", count: 4, example: "after 30 s" },
      ],
    });
    expect(message.message).toBe(
      "All 24 pairwise judgments failed: 20 × the model's server answered with an error (e.g. HTTP 500 upstream); 4 × the model did not answer in time (e.g. after 30 s).",
    );
    expect(wordMessage(message, "zh")).toBe(
      "全部 24 次成对评判都失败了：20 × 模型服务器返回了错误（例如：HTTP 500 upstream）；4 × 模型没有按时回答（例如：after 30 s）。",
    );
  });

  it("words clauses coded inside a message, and lists, with each language's separators", () => {
    const message = codedMessage("offline.reason", {
      notes: [
        messagePart("offline.note.contradicts", {
          which: "",
          contradictions: [
            messagePart("offline.conflict.other_value", { answer: "1875", reference: "1870" }),
            messagePart("offline.conflict.denies_value", { what: "1869" }),
          ],
        }),
        messagePart("offline.note.very_long"),
      ],
    });
    expect(message.message).toBe(
      "Heuristic (no LLM): contradicts the reference: 1875 where the reference says 1870; denies 1869; very long.",
    );
    expect(wordMessage(message, "zh")).toBe(
      "启发式评判（未用 LLM）：与参考答案矛盾：回答说 1875，而参考答案说 1870；否认了 1869；非常长。",
    );
    const tips = codedMessage("sentences", {
      sentences: [
        messagePart("offline.tip.state_reference", { missing: ["1869", "brick"] }),
        messagePart("offline.tip.remove_repeats"),
      ],
    });
    expect(tips.message).toBe(
      "State what the reference says: 1869, brick. Remove repeated sentences.",
    );
    expect(wordMessage(tips, "zh")).toBe("请说出参考答案中的内容：1869、brick。请删除重复的句子。");
  });

  it("names a judge once in Chinese: its words already say 评判", () => {
    const message = codedMessage("calibration.skipped_judge_errors", { n: 2, judge: "offline" });
    expect(wordMessage(message, "zh")).toBe("2 个已标注结果被跳过，因为离线评判没能评判它们。");
  });

  it("reads a code it does not know as the English message it came with", () => {
    const unknown = { code: "future.thing", params: {}, message: "Something new." };
    expect(wordMessage(unknown, "zh")).toBe("Something new.");
  });

  it("reads a stored plain string from before codes as itself", () => {
    const old = asCodedMessage("all 3 pairwise judgments failed");
    expect(old?.code).toBe("plain");
    expect(wordMessage(old!, "zh")).toBe("all 3 pairwise judgments failed");
    expect(asCodedMessage(null)).toBeNull();
    expect(asCodedMessage(codedMessage("calibration.no_ppi"))?.code).toBe("calibration.no_ppi");
  });
});
