import { describe, expect, it } from "vitest";
import { ELLIPSIS, formatContext, truncateChars } from "./context.js";
import { detectLanguage } from "./language.js";
import { fillTemplate } from "./template.js";

describe("truncateChars", () => {
  it("keeps text up to the limit and marks a cut", () => {
    expect(truncateChars("abc", 3)).toBe("abc");
    expect(truncateChars("abcd", 3)).toBe(`abc${ELLIPSIS}`);
    expect(truncateChars("a".repeat(600), 500)).toBe(`${"a".repeat(500)}…`);
  });
  it("counts code points, never splitting a surrogate pair", () => {
    expect(truncateChars("😀😀😀", 2)).toBe("😀😀…");
    expect(truncateChars("😀😀", 2)).toBe("😀😀");
    expect(truncateChars("中文内容很长", 4)).toBe("中文内容…");
  });
});

describe("formatContext", () => {
  it("numbers items, labels hits and says when there are none", () => {
    expect(formatContext([], { maxItems: 5, maxChars: 10, empty: "(none)" })).toBe("(none)");
    expect(
      formatContext([{ content: "hello", node_id: "n7" }, "plain"], {
        maxItems: 5,
        maxChars: 10,
        empty: "",
      }),
    ).toBe("[1] (id: n7)\nhello\n\n[2]\nplain");
  });
});

describe("detectLanguage", () => {
  it("is zh for Chinese characters and en otherwise", () => {
    expect(detectLanguage("项目启动于哪一年？")).toBe("zh");
    expect(detectLanguage("專案在哪一年啟動？")).toBe("zh");
    expect(detectLanguage("Which year did it start?")).toBe("en");
    expect(detectLanguage("このプロジェクトは何年に開始？")).toBe("en");
    expect(detectLanguage("프로젝트는 언제 시작했나요?")).toBe("en");
  });
});

describe("fillTemplate", () => {
  it("fills placeholders once, leaving JSON braces and inserted text alone", () => {
    expect(
      fillTemplate('Q: {question} {"a": 1} {missing}', {
        question: "what is {answer}?",
        answer: "x",
      }),
    ).toBe('Q: what is {answer}? {"a": 1} {missing}');
  });
});
