import { describe, expect, it } from "vitest";
import { spanTree } from "./span-tree";

const span = (span_id: string, parent: string | null, start: number) => ({
  span_id,
  parent_span_id: parent,
  name: span_id,
  kind: "CHAIN",
  start_ms: start,
  duration_ms: 1,
});

describe("spanTree", () => {
  it("nests spans under their parents in start order, and keeps orphans as roots", () => {
    const tree = spanTree([
      span("llm", "root", 20),
      span("retrieve", "root", 5),
      span("root", null, 0),
      span("orphan", "missing", 30),
    ]);
    expect(tree.map((n) => n.span.span_id)).toEqual(["root", "orphan"]);
    expect(tree[0]?.children.map((n) => n.span.span_id)).toEqual(["retrieve", "llm"]);
  });
});
