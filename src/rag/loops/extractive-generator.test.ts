import { describe, expect, it } from "vitest";
import { evaluateGate, parseCitationMarkers, resolveMarkers } from "../../gate/index.js";
import { stripCitationMarkers } from "../../text/index.js";
import { extractiveAnswer } from "./extractive-generator.js";
import { makeHit } from "./fixed-retriever.js";
import { gateInputFrom } from "./gate-input.js";

const HITS = [
  makeHit({
    node_id: "n1",
    content:
      "The Great Fire of 1869 began in a bakery on Mill Street and burned for three days. It was the worst fire.",
    score: 0.9,
  }),
  makeHit({
    node_id: "n2",
    content: "The fire destroyed 412 buildings, including the old town hall [7].",
    score: 0.8,
  }),
  makeHit({
    node_id: "intro",
    content: "The Great Fire also destroyed the harbour warehouses.",
    score: 0.5,
  }),
  makeHit({ node_id: "n4", content: "Tulips bloom in April.", score: 0.4 }),
];
const QUESTION = "What did the Great Fire of 1869 destroy?";

function gate(answer: string, citations: string[], hits = HITS) {
  return evaluateGate(
    gateInputFrom({
      conversation_id: "c",
      message_id: "m",
      retrieval_query: QUESTION,
      hits,
      answer,
      citations,
      model: "extractive",
    }),
  );
}

describe("extractiveAnswer", () => {
  it("quotes the best-supported sentences verbatim and cites chunks that exist", () => {
    const out = extractiveAnswer(QUESTION, HITS, { maxSentences: 3, language: "en" });
    // intro covers great, fire and destroy; n1 and n2 two of the three each (n1 ranks higher).
    expect(out.answer).toBe(
      "The Great Fire also destroyed the harbour warehouses [3]. " +
        "The Great Fire of 1869 began in a bakery on Mill Street and burned for three days [n1]. " +
        "The fire destroyed 412 buildings, including the old town hall [n2].",
    );
    const ids = HITS.map((h) => h.node_id);
    expect(out.citations).toEqual(["intro", "n1", "n2"]);
    for (const id of out.citations) expect(ids).toContain(id);
    // Every marker resolves to the hit the sentence came from; "intro" has no digit, so it is
    // cited by position ([3]), which the gate resolves to the third hit.
    const { hitsByRef, unresolved } = resolveMarkers(
      parseCitationMarkers(out.answer),
      gateInputFrom({
        conversation_id: "c",
        message_id: "m",
        retrieval_query: QUESTION,
        hits: HITS,
        answer: out.answer,
        citations: [],
        model: "x",
      }).retrieval_hits,
    );
    expect(unresolved).toEqual([]);
    expect([...hitsByRef.entries()]).toEqual([
      ["3", [2]],
      ["n1", [0]],
      ["n2", [1]],
    ]);
    for (const sentence of out.sentences) {
      const hit = HITS.find((h) => h.node_id === sentence.node_id);
      expect(stripCitationMarkers(hit?.content ?? "")).toContain(sentence.text);
    }
    // The chunk's own "[7]" footnote is not carried into the answer.
    expect(out.answer).not.toContain("[7]");
    expect(gate(out.answer, out.citations).status).toBe("pass");
  });

  it("leaves out the sentences a failed review quotes", () => {
    const out = extractiveAnswer(QUESTION, HITS, {
      maxSentences: 2,
      language: "en",
      suggestions: [
        'Sentence "The Great Fire of 1869 began in a bakery on Mill Street and burned for three days." is not supported',
      ],
    });
    expect(out.citations).toEqual(["intro", "n2"]);
    expect(out.answer).not.toContain("bakery");
  });

  it("abstains when no sentence bears on the question, and the gate accepts the abstention", () => {
    const out = extractiveAnswer("Who won the 1998 chess olympiad?", HITS, {
      maxSentences: 3,
      language: "en",
    });
    expect(out).toEqual({
      answer: "I could not find information about this in the retrieved documents.",
      sentences: [],
      citations: [],
    });
    expect(gate(out.answer, out.citations).status).not.toBe("fail");
    expect(gate(out.answer, [], []).status).toBe("pass");
  });

  it("answers a Chinese question in Chinese, markers before the full stop", () => {
    const hits = [
      makeHit({ node_id: "z1", content: "1869年的大火烧毁了412座建筑。市政厅也被烧毁。" }),
    ];
    const out = extractiveAnswer("大火烧毁了多少建筑？", hits, { maxSentences: 2, language: "zh" });
    expect(out.answer).toBe("1869年的大火烧毁了412座建筑[z1]。市政厅也被烧毁[z1]。");
    expect(gate(out.answer, out.citations, hits).status).toBe("pass");
    expect(extractiveAnswer("量子计算机", hits, { maxSentences: 1, language: "zh" }).answer).toBe(
      "检索到的资料中没有找到相关信息。",
    );
  });

  it("weighs a question word by how rare it is: the snack, not the city every passage names", () => {
    // Issue 23: 澜汀最有名的小吃是什么？ was answered with the salt-lantern festival, because 澜 and 汀
    // counted as much as 有名 and 小吃 and the festival came first in the passage.
    const festivals = makeHit({
      node_id: "festivals#0",
      content:
        "澜汀的节庆与饮食\n\n盐灯节是澜汀最重要的传统节日，每年10月的第二个周末在老码头举行。2023年的盐灯节吸引游客约68万人次，是澜汀接待游客最多的一个周末。\n\n澜汀菜以海鲜和咸味见长。最有名的小吃是蟹黄盐饼，用本地海盐和蟹黄做馅，外皮烤得酥脆。",
      score: 0.7,
    });
    const schools = makeHit({
      node_id: "education#1",
      content: "除大学以外，澜汀还有两所职业技术学院。全市共有中小学186所。",
      score: 0.2,
    });
    const answer = extractiveAnswer("澜汀最有名的小吃是什么？", [festivals, schools], {
      maxSentences: 3,
      language: "zh",
    });
    expect(answer.sentences[0]?.text).toBe(
      "最有名的小吃是蟹黄盐饼，用本地海盐和蟹黄做馅，外皮烤得酥脆。",
    );
    expect(answer.answer).toContain("蟹黄盐饼");
  });
});
