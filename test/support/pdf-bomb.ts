import { constants, createDeflate } from "node:zlib";

/**
 * A PDF whose one page's content stream is `decodedBytes` of spaces, Flate-compressed (about
 * 1:1000, so 1 GiB travels in ~1 MB). Built by streaming one small buffer through zlib, so the
 * test never holds the decoded bytes itself. `hexWrapped` wraps the deflated bytes in hex, to check
 * that the counting follows a chain of filters; `markedAsImage` labels the page's content stream
 * an image, which PDF.js reads as content all the same (the scan skips images: the parse thread's
 * memory watch must catch this one).
 */
export async function pdfBomb(
  decodedBytes: number,
  options: { hexWrapped?: boolean; markedAsImage?: boolean } = {},
): Promise<Buffer> {
  const deflated = await deflateSpaces(decodedBytes);
  const data = options.hexWrapped
    ? Buffer.from(`${deflated.toString("hex")}>`, "latin1")
    : deflated;
  const filter = options.hexWrapped ? "[/ASCIIHexDecode /FlateDecode]" : "/FlateDecode";
  const objects: Buffer[] = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents 4 0 R >>",
    ),
    Buffer.concat([
      Buffer.from(
        `<< /Length ${data.length} /Filter ${filter}${options.markedAsImage ? " /Subtype /Image" : ""} >>\nstream\n`,
      ),
      data,
      Buffer.from("\nendstream"),
    ]),
  ];
  const parts: Buffer[] = [Buffer.from("%PDF-1.4\n")];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    const framed = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      object,
      Buffer.from("\nendobj\n"),
    ]);
    parts.push(framed);
    length += framed.length;
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) tail += `${String(offset).padStart(10, "0")} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(tail));
  return Buffer.concat(parts);
}

async function deflateSpaces(total: number): Promise<Buffer> {
  const block = Buffer.alloc(Math.min(total, 1 << 20), 0x20);
  const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  for (let written = 0; written < total; written += block.length) {
    const piece = total - written < block.length ? block.subarray(0, total - written) : block;
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}
