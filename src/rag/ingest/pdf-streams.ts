import { createInflate } from "node:zlib";

// A PDF's streams may be compressed about 1:1000: a 1 MB upload inflated to 1 GB inside PDF.js
// and took `serve` from 380 MB to 2.3 GB. A worker's heap limit does not stop it (the inflated
// bytes are ArrayBuffers, outside the heap: measured 2.15 GB in a thread limited to 128 MB), so
// before PDF.js sees the file, every stream it may decode for text is decoded here, through its
// chain of filters, counting bytes and giving up as soon as the total passes the limit.
// Image streams are skipped: text extraction never decodes them, and a scan's pages would
// otherwise count hundreds of megabytes it never needs. A stream this scan cannot read (an
// encrypted file, a filter it does not know) counts as its raw bytes; the parse thread's time
// and memory limits (parse-thread.ts) still hold for those.

/** The decoded bytes passed `limit`. */
export class DecodedBytesLimitError extends Error {
  override readonly name = "DecodedBytesLimitError";
  constructor(readonly limit: number) {
    super(`its compressed streams decode to more than ${limit} bytes`);
  }

  static isInstance(error: unknown): error is DecodedBytesLimitError {
    return error instanceof Error && error.name === "DecodedBytesLimitError";
  }
}

const IMAGE_CODECS = new Set([
  "DCTDecode",
  "DCT",
  "JPXDecode",
  "JBIG2Decode",
  "CCITTFaxDecode",
  "CCF",
]);

/**
 * Bytes the streams of `pdf` decode to (image streams excepted); throws DecodedBytesLimitError
 * once they pass `limit`. Linear in the file's size: one forward scan.
 */
export async function pdfDecodedBytes(pdf: Uint8Array, limit: number): Promise<number> {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const text = bytes.toString("latin1");
  const objects = objectOffsets(text);
  let total = 0;
  // `obj` headers and `stream` keywords in order; a stream's dictionary lies between the two.
  const token = /\b\d+\s+\d+\s+obj\b|\bstream(?:\r\n|\n|\r)/g;
  let dictionaryStart = 0;
  for (let match = token.exec(text); match !== null; match = token.exec(text)) {
    if (!match[0].startsWith("stream")) {
      dictionaryStart = match.index + match[0].length;
      continue;
    }
    const dictionary = text.slice(dictionaryStart, match.index);
    const start = match.index + match[0].length;
    const end = streamEnd(text, start, dictionary, objects);
    token.lastIndex = end;
    dictionaryStart = end;
    if (/\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    const decoded = await decodeStream(
      bytes.subarray(start, end),
      filtersOf(dictionary, text, objects),
      limit - total,
    );
    total += decoded;
  }
  return total;
}

/** Where each object number's latest definition starts (after `N G obj`). */
function objectOffsets(text: string): Map<number, number> {
  const offsets = new Map<number, number>();
  const header = /\b(\d+)\s+\d+\s+obj\b/g;
  for (let match = header.exec(text); match !== null; match = header.exec(text)) {
    offsets.set(Number(match[1]), match.index + match[0].length);
  }
  return offsets;
}

/** A direct value, or the object an `N G R` reference points to (as text, up to 200 chars). */
function resolved(value: string, text: string, objects: Map<number, number>): string {
  const reference = /^(\d+)\s+\d+\s+R$/.exec(value.trim());
  if (!reference) return value;
  const at = objects.get(Number(reference[1]));
  return at === undefined ? "" : text.slice(at, at + 200);
}

/**
 * The end of a stream's data, as PDF.js finds it: `/Length` bytes when `endstream` follows them,
 * else the next `endstream` (or the end of the file).
 */
function streamEnd(
  text: string,
  start: number,
  dictionary: string,
  objects: Map<number, number>,
): number {
  const lengthValue = /\/Length\b\s*(\d+\s+\d+\s+R\b|\d+)/.exec(dictionary)?.[1];
  const length = lengthValue
    ? Number(/^\s*(\d+)/.exec(resolved(lengthValue, text, objects))?.[1] ?? Number.NaN)
    : Number.NaN;
  if (Number.isSafeInteger(length) && start + length <= text.length) {
    const after = text.slice(start + length, start + length + 16);
    if (/^\s*endstream/.test(after)) return start + length;
  }
  const found = text.indexOf("endstream", start);
  return found === -1 ? text.length : found;
}

/** The stream's filter names in order, e.g. ["ASCIIHexDecode", "FlateDecode"]. */
function filtersOf(dictionary: string, text: string, objects: Map<number, number>): string[] {
  // Bounded: an unclosed `[` repeated through a large dictionary must not be rescanned each time.
  const value = /\/Filter\s*(\[[^\]]{0,4096}\]|\/[^\s/[\]<>()]+|\d+\s+\d+\s+R\b)/.exec(
    dictionary,
  )?.[1];
  if (!value) return [];
  const filters = resolved(value, text, objects);
  const list =
    /^\s*\[([^\]]{0,4096})\]/.exec(filters)?.[1] ?? /^\s*(\/[^\s/[\]<>()]+)/.exec(filters)?.[1];
  return list ? [...list.matchAll(/\/([^\s/[\]<>()]+)/g)].map((m) => m[1] as string) : [];
}

/** Decoded length of one stream through its filters; throws once it passes `budget`. */
async function decodeStream(data: Buffer, filters: string[], budget: number): Promise<number> {
  let current = data;
  for (const [i, filter] of filters.entries()) {
    if (IMAGE_CODECS.has(filter)) break;
    const last = i === filters.length - 1;
    switch (filter) {
      case "FlateDecode":
      case "Fl":
        if (last) return countInflated(current, budget);
        current = await inflate(current, budget);
        break;
      case "ASCIIHexDecode":
      case "AHx":
        current = fromHex(current);
        break;
      case "ASCII85Decode":
      case "A85":
        current = fromAscii85(current, budget);
        break;
      case "RunLengthDecode":
      case "RL":
        current = fromRunLength(current, budget);
        break;
      case "LZWDecode":
      case "LZW":
        current = fromLzw(current, budget);
        break;
      default:
        // Crypt or a filter PDF.js does not know: what follows cannot be read here.
        break;
    }
  }
  if (current.length > budget) throw new DecodedBytesLimitError(budget);
  return current.length;
}

/** Streams the inflation, keeping only a count; a corrupt tail ends it, as in PDF.js. */
function countInflated(data: Buffer, budget: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let count = 0;
    const inflater = createInflate();
    inflater.on("data", (chunk: Buffer) => {
      count += chunk.length;
      if (count > budget) {
        inflater.destroy();
        reject(new DecodedBytesLimitError(budget));
      }
    });
    inflater.on("end", () => resolve(count));
    inflater.on("error", () => resolve(count));
    inflater.end(data);
  });
}

async function inflate(data: Buffer, budget: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    const inflater = createInflate();
    inflater.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      count += chunk.length;
      if (count > budget) {
        inflater.destroy();
        reject(new DecodedBytesLimitError(budget));
      }
    });
    inflater.on("end", resolve);
    inflater.on("error", () => resolve());
    inflater.end(data);
  });
  return Buffer.concat(chunks);
}

function fromHex(data: Buffer): Buffer {
  const text = data.toString("latin1");
  const end = text.indexOf(">");
  const digits = (end === -1 ? text : text.slice(0, end)).replace(/[^0-9a-fA-F]/g, "");
  return Buffer.from(digits.length % 2 === 0 ? digits : `${digits}0`, "hex");
}

function fromAscii85(data: Buffer, budget: number): Buffer {
  const out: number[] = [];
  let group: number[] = [];
  const emit = (value: number, count: number) => {
    for (let k = 0; k < count; k++) out.push((value >>> (24 - 8 * k)) & 0xff);
    if (out.length > budget) throw new DecodedBytesLimitError(budget);
  };
  for (const byte of data) {
    if (byte === 0x7e) break; // "~>" ends the data
    if (byte === 0x7a && group.length === 0) {
      emit(0, 4);
      continue;
    }
    if (byte < 0x21 || byte > 0x75) continue;
    group.push(byte - 0x21);
    if (group.length === 5) {
      emit(group.reduce((value, digit) => value * 85 + digit, 0) >>> 0, 4);
      group = [];
    }
  }
  if (group.length > 1) {
    const count = group.length - 1;
    while (group.length < 5) group.push(84);
    emit(group.reduce((value, digit) => value * 85 + digit, 0) >>> 0, count);
  }
  return Buffer.from(out);
}

function fromRunLength(data: Buffer, budget: number): Buffer {
  const parts: Buffer[] = [];
  let count = 0;
  for (let i = 0; i < data.length;) {
    const length = data[i] as number;
    if (length === 128) break;
    const part =
      length < 128
        ? data.subarray(i + 1, i + 2 + length)
        : Buffer.alloc(257 - length, data[i + 1] ?? 0);
    i += length < 128 ? length + 2 : 2;
    parts.push(part);
    count += part.length;
    if (count > budget) throw new DecodedBytesLimitError(budget);
  }
  return Buffer.concat(parts);
}

/** LZW as PDF uses it (EarlyChange 1, 9 to 12-bit codes, 256 clears, 257 ends). */
function fromLzw(data: Buffer, budget: number): Buffer {
  const parts: Buffer[] = [];
  let count = 0;
  let table: Buffer[] = [];
  const reset = () => {
    table = Array.from({ length: 258 }, (_, code) => Buffer.from([code & 0xff]));
  };
  reset();
  let width = 9;
  let bits = 0;
  let bitCount = 0;
  let previous: Buffer | undefined;
  for (const byte of data) {
    bits = ((bits << 8) | byte) & 0xffffff;
    bitCount += 8;
    while (bitCount >= width) {
      const code = (bits >>> (bitCount - width)) & ((1 << width) - 1);
      bitCount -= width;
      if (code === 256) {
        reset();
        width = 9;
        previous = undefined;
        continue;
      }
      if (code === 257) return Buffer.concat(parts);
      let entry = table[code];
      if (entry === undefined) {
        if (previous === undefined || code !== table.length) return Buffer.concat(parts);
        entry = Buffer.concat([previous, previous.subarray(0, 1)]);
      }
      parts.push(entry);
      count += entry.length;
      if (count > budget) throw new DecodedBytesLimitError(budget);
      if (previous !== undefined && table.length < 4096) {
        table.push(Buffer.concat([previous, entry.subarray(0, 1)]));
      }
      previous = entry;
      if (table.length + 1 >= 1 << width && width < 12) width++;
    }
  }
  return Buffer.concat(parts);
}
