import { expect, it } from "vitest";
import { z } from "zod";
import { parseJsonl } from "./jsonl.js";

const Row = z.object({ id: z.string(), n: z.number().int() });

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

async function* chunks(...parts: (string | Uint8Array)[]) {
  yield* parts;
}

it("numbers lines, skips blanks, and names the line and field of each error", async () => {
  const lines = await collect(
    parseJsonl(chunks('{"id":"a","n":1}\n\n{"id":"b","n":"x"}\r\n{oops\n{"id":"c","n":3}'), Row),
  );
  expect(lines).toEqual([
    { line: 1, ok: true, value: { id: "a", n: 1 } },
    { line: 3, ok: false, error: "n: Invalid input: expected number, received string" },
    { line: 4, ok: false, error: expect.stringMatching(/^malformed JSON/) },
    { line: 5, ok: true, value: { id: "c", n: 3 } },
  ]);
});

it("joins a line split across chunks, even inside a multi-byte character", async () => {
  const bytes = Buffer.from('{"id":"中文","n":2}\n', "utf8");
  const lines = await collect(parseJsonl(chunks(bytes.subarray(0, 8), bytes.subarray(8)), Row));
  expect(lines).toEqual([{ line: 1, ok: true, value: { id: "中文", n: 2 } }]);
});

it("reports invalid UTF-8 against its line and field, and keeps the others", async () => {
  const bad = Buffer.concat([
    Buffer.from('{"id":"'),
    Buffer.from([0xc3, 0x28]),
    Buffer.from('","n":1}\n'),
  ]);
  const lines = await collect(parseJsonl(chunks(bad, '{"id":"ok","n":2}\n'), Row));
  expect(lines).toEqual([
    { line: 1, ok: false, error: "id: invalid UTF-8 at byte 7 (save the text as UTF-8)" },
    { line: 2, ok: true, value: { id: "ok", n: 2 } },
  ]);
});
