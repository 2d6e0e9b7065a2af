import { describe, expect, it } from "vitest";
import { REPORT_WORDS, reportTemplate, reportWord } from "./report-words.js";

const placeholders = (template: string) =>
  [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the reports' words", () => {
  it("has every word in English and Chinese, with the same placeholders", () => {
    for (const word of REPORT_WORDS) {
      expect(reportTemplate("zh", word), word).toMatch(/\p{Script=Han}/u);
      expect(placeholders(reportTemplate("zh", word)), word).toEqual(
        placeholders(reportTemplate("en", word)),
      );
    }
  });

  it("fills values in either language", () => {
    expect(reportWord("en", "questionCounts", { total: 24, completed: 20, scored: 18 })).toBe(
      "24 total, 20 completed, 18 scored",
    );
    expect(reportWord("zh", "questionCounts", { total: 24, completed: 20, scored: 18 })).toBe(
      "共 24 个，已完成 20 个，已评分 18 个",
    );
  });
});
