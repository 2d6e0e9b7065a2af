import { describe, expect, it } from "vitest";
import { format, initialLanguage } from "./i18n";
import { en, zh } from "./strings";

describe("initialLanguage", () => {
  it("follows the browser's first language unless one was chosen here", () => {
    expect(initialLanguage(["zh-CN", "en"], null)).toBe("zh");
    expect(initialLanguage(["en-GB", "zh"], null)).toBe("en");
    expect(initialLanguage(["fr"], null)).toBe("en");
    expect(initialLanguage(["zh-TW"], "en")).toBe("en");
  });
});

describe("format", () => {
  it("fills named values and leaves unknown ones visible", () => {
    expect(format("{shown} of {total}", { shown: 3, total: 10 })).toBe("3 of 10");
    expect(format("{missing}", {})).toBe("{missing}");
  });
});

describe("strings", () => {
  it("uses the same placeholders in both languages", () => {
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(names(zh[key]), key).toEqual(names(en[key]));
    }
  });
});

describe("no internal words", () => {
  it("names no seed document or issue in any string, in either language", () => {
    for (const table of [en, zh] as Record<string, string>[]) {
      for (const [key, text] of Object.entries(table)) {
        expect(text, key).not.toMatch(/\bseeds? 0\d\d|种子 0\d\d|\bissue \d|§/i);
      }
    }
  });
});
