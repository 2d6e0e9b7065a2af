import { describe, expect, it } from "vitest";
import { problemOnFile } from "./uploads";

describe("problemOnFile", () => {
  it("names the file (and line) a server problem is about", () => {
    const names = ["a.md", "b.jsonl"];
    expect(problemOnFile("documents.1.line 3", names)).toBe("b.jsonl, line 3");
    expect(problemOnFile("documents.0", names)).toBe("a.md");
    expect(problemOnFile("documents", names)).toBe("documents");
  });
});
