import { describe, expect, it } from "vitest";
import { retrievalMetrics } from "./metrics.js";
import { judgeRelevance, textsMatch } from "./relevance.js";

const words = (text: string) => text.toLowerCase().split(/\W+/).filter(Boolean);

describe("judgeRelevance", () => {
  const contexts = [
    {
      node_id: "h1#0",
      content: "Paris is the capital of France.",
      document_id: "france",
      source: "docs.jsonl#france",
    },
    { node_id: "h2#0", content: "Berlin is the capital of Germany.", document_id: "germany" },
    { node_id: "h1#1", content: "France borders Spain.", document_id: "france" },
  ];

  it("matches an id to a chunk id, the user's document id or the source", () => {
    const judged = judgeRelevance(contexts, { relevant_ids: [" france ", "h2#0", "france"] });
    expect(judged?.by).toBe("ids");
    expect(judged?.relevant).toEqual(["france", "h2#0"]);
    expect(judged?.ranking.map((entry) => entry.matches)).toEqual([
      ["france"],
      ["h2#0"],
      ["france"],
    ]);
    expect(
      judgeRelevance(contexts, { relevant_ids: ["docs.jsonl#france"] })?.ranking[0]?.matches,
    ).toEqual(["docs.jsonl#france"]);
  });

  it("prefers relevant_ids to reference_contexts, and is null when the question names neither", () => {
    const both = judgeRelevance(contexts, {
      relevant_ids: ["germany"],
      reference_contexts: ["Paris is the capital of France."],
    });
    expect(both?.by).toBe("ids");
    expect(judgeRelevance(contexts, {})).toBeNull();
    expect(
      judgeRelevance(contexts, { relevant_ids: [" "], reference_contexts: ["  ...  "] }),
    ).toBeNull();
  });

  it("matches reference texts by containment after case and punctuation are dropped", () => {
    const judged = judgeRelevance(contexts, {
      // Contains the first chunk; the second is a passage no chunk holds.
      reference_contexts: [
        "PARIS is the capital of France! France borders Spain",
        "Rome is in Italy",
      ],
    });
    expect(judged?.relevant).toEqual(["context 1", "context 2"]);
    expect(judged?.ranking.map((entry) => entry.matches)).toEqual([
      ["context 1"],
      [],
      ["context 1"],
    ]);
    const metrics = retrievalMetrics(judged?.ranking ?? [], judged?.relevant ?? [], 3);
    expect(metrics).toMatchObject({ found: 1, recall: 0.5, mrr: 1 });
  });
});

describe("textsMatch", () => {
  it("accepts containment either way", () => {
    expect(textsMatch(words("b c"), words("a b c d"))).toBe(true);
    expect(textsMatch(words("a b c d"), words("b c"))).toBe(true);
    expect(textsMatch(words("c b"), words("a b x d"))).toBe(false);
  });

  it("accepts 80% of the shorter text's distinct words, and not less", () => {
    // 4 of 5 distinct words shared: a chunk boundary cut one word.
    expect(
      textsMatch(words("one two three four five"), words("two three four five six seven")),
    ).toBe(true);
    // 3 of 5.
    expect(textsMatch(words("one two three four five"), words("x three four five y z"))).toBe(
      false,
    );
    expect(textsMatch([], words("a"))).toBe(false);
  });
});
