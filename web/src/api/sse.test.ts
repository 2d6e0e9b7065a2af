import { describe, expect, it } from "vitest";
import { createSseParser, type SseMessage } from "./sse";

describe("createSseParser", () => {
  it("yields whole messages across chunk boundaries and skips comments", () => {
    const seen: SseMessage[] = [];
    const feed = createSseParser((m) => seen.push(m));
    feed('event: progress\ndata: {"completed"');
    expect(seen).toEqual([]);
    feed(":1}\n\n: keep-alive\n\nevent: result\r\nid: r1:5\r\ndata: a\r\ndata: b\r\n\r\n");
    expect(seen).toEqual([
      { event: "progress", data: '{"completed":1}' },
      { event: "result", data: "a\nb", id: "r1:5" },
    ]);
  });

  it("names an event without an event field 'message'", () => {
    const seen: SseMessage[] = [];
    createSseParser((m) => seen.push(m))("data: x\n\n");
    expect(seen).toEqual([{ event: "message", data: "x" }]);
  });
});
