import { describe, expect, it } from "vitest";
import { format } from "../../i18n/i18n";
import { en, type MessageKey, zh } from "../../i18n/strings";
import { incomparableText } from "./incomparable";

const tEn = (key: MessageKey, values?: Record<string, string | number>) => format(en[key], values);
const tZh = (key: MessageKey, values?: Record<string, string | number>) => format(zh[key], values);
const setName = (id: string | null) => (id === "s1" ? "lanting" : id === "s2" ? "harbour" : "?");

describe("incomparableText", () => {
  it("words each reason in English, naming sets, judges and scales", () => {
    expect(incomparableText({ code: "question_set", base: "s1", head: "s2" }, tEn, setName)).toBe(
      "they ran on different question sets (lanting and harbour)",
    );
    expect(
      incomparableText(
        { code: "judges", base: ["offline"], head: ["offline", "reference"] },
        tEn,
        setName,
      ),
    ).toBe("different judges (A: offline; B: offline, reference answer)");
    expect(incomparableText({ code: "scale", base: ["1-10"], head: ["1-5"] }, tEn, setName)).toBe(
      "different score scales (A: 1-10; B: 1-5)",
    );
  });

  it("words them in Chinese too", () => {
    expect(
      incomparableText({ code: "scale", base: ["1-10"], head: ["pass_fail"] }, tZh, setName),
    ).toBe("评分尺度不同（A：1-10 分；B：通过/不通过）");
  });
});
