import { deflateSync } from "node:zlib";
import { expect, it } from "vitest";
import { pdfBomb } from "../../../test/support/pdf-bomb.js";
import { DecodedBytesLimitError, pdfDecodedBytes } from "./pdf-streams.js";

const MIB = 1024 * 1024;

/** A file of numbered stream objects: enough for the scan, which reads no cross-reference table. */
function pdfWithStreams(streams: Array<{ dictionary: string; data: Buffer }>): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.4\n")];
  streams.forEach(({ dictionary, data }, i) => {
    parts.push(Buffer.from(`${i + 1} 0 obj\n<< ${dictionary} /Length ${data.length} >>\nstream\n`));
    parts.push(data, Buffer.from("\nendstream\nendobj\n"));
  });
  parts.push(Buffer.from("%%EOF\n"));
  return Buffer.concat(parts);
}

async function refusal(pdf: Uint8Array, limit: number): Promise<unknown> {
  return pdfDecodedBytes(pdf, limit).then(
    () => undefined,
    (error: unknown) => error,
  );
}

it("counts what each stream decodes to, through its chain of filters", async () => {
  const content = Buffer.from("BT /F1 12 Tf 72 720 Td (High tide at 06:10.) Tj ET");
  const pdf = pdfWithStreams([
    { dictionary: "/Filter /FlateDecode", data: deflateSync(content) },
    { dictionary: "", data: Buffer.from("plain") },
    // PDF 32000-1 §7.4.4.2's example: 9 bytes of LZW that decode to "-----A---B".
    { dictionary: "/Filter /LZWDecode", data: Buffer.from("800b6050220c0c8501", "hex") },
    // "9jqo^" is "Man " in ASCII85, and `z` four zero bytes.
    { dictionary: "/Filter /A85", data: Buffer.from("9jqo^z~>") },
    // Three bytes copied, then "x" three times, then the end.
    { dictionary: "/Filter /RunLengthDecode", data: Buffer.from([2, 97, 98, 99, 254, 120, 128]) },
    {
      dictionary: "/Filter [/ASCIIHexDecode /FlateDecode]",
      data: Buffer.from(`${deflateSync(content).toString("hex")}>`),
    },
  ]);
  expect(await pdfDecodedBytes(pdf, MIB)).toBe(content.length * 2 + 5 + 10 + 8 + 6);
});

it("skips image streams, which text extraction never decodes", async () => {
  const pixels = deflateSync(Buffer.alloc(4 * MIB));
  const pdf = pdfWithStreams([
    { dictionary: "/Type /XObject /Subtype /Image /Filter /FlateDecode", data: pixels },
  ]);
  expect(await pdfDecodedBytes(pdf, MIB)).toBe(0);
});

it("stops a 1 GiB bomb at the limit, quickly, plain or wrapped in hex", async () => {
  for (const hexWrapped of [false, true]) {
    const bomb = await pdfBomb(1024 * MIB, { hexWrapped });
    const before = process.cpuUsage();
    const error = await refusal(bomb, 64 * MIB);
    expect(DecodedBytesLimitError.isInstance(error), String(error)).toBe(true);
    expect((error as DecodedBytesLimitError).limit).toBe(64 * MIB);
    // Inflating 64 MiB takes ~0.2 s of CPU; inflating all of it, several. CPU time, not wall time:
    // a loaded machine delays the inflating without adding much to the CPU it spends.
    const { user, system } = process.cpuUsage(before);
    expect((user + system) / 1000).toBeLessThan(10_000);
  }
  // Building each bomb deflates 1 GiB: seconds, and more on a loaded machine.
}, 120_000);

it("follows an indirect /Length, and finds endstream when the length is wrong", async () => {
  const content = deflateSync(Buffer.alloc(2 * MIB, 0x20));
  const pdf = Buffer.concat([
    Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Filter /FlateDecode /Length 2 0 R >>\nstream\n`),
    content,
    Buffer.from(`\nendstream\nendobj\n2 0 obj\n${content.length}\nendobj\n`),
    Buffer.from(`3 0 obj\n<< /Filter /FlateDecode /Length 5 >>\nstream\n`),
    content,
    Buffer.from("\nendstream\nendobj\n"),
  ]);
  expect(await pdfDecodedBytes(pdf, 8 * MIB)).toBe(4 * MIB);
  expect(DecodedBytesLimitError.isInstance(await refusal(pdf, 3 * MIB))).toBe(true);
});
