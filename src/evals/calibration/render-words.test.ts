import { describe, expect, it } from "vitest";
import { CALIBRATION_WORDS, calibrationTemplate } from "./render-words.js";

const placeholders = (t: string) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the calibration table's words", () => {
  it("has every word in both languages with the same placeholders", () => {
    for (const word of CALIBRATION_WORDS) {
      expect(placeholders(calibrationTemplate("zh", word)), word).toEqual(
        placeholders(calibrationTemplate("en", word)),
      );
    }
  });
});
