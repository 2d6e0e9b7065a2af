// What reading one upload may cost (docs/security.md, "Upload limits"). The body itself is
// limited by the server (`--max-body-bytes`, 4x for uploads, as a PDF travels base64-encoded).

const MIB = 1024 * 1024;

export interface ParseLimits {
  /** Wall time to read one file (a JSONL file is one), chunks and tokens included. */
  timeMs: number;
  /** The parse thread's JavaScript heap. */
  heapMb: number;
  /** Growth of the process's resident memory while one file is read (ArrayBuffers included). */
  memoryGrowthBytes: number;
  /** Bytes a PDF's streams may decode to (image streams excepted). */
  decodedBytesPerDocument: number;
  /** The same, summed over the PDFs of one request. */
  decodedBytesPerRequest: number;
}

export const PARSE_LIMITS: Readonly<ParseLimits> = {
  timeMs: 30_000,
  heapMb: 512,
  memoryGrowthBytes: 768 * MIB,
  decodedBytesPerDocument: 64 * MIB,
  decodedBytesPerRequest: 256 * MIB,
};

/** `67108864` -> "64 MiB", for messages. */
export function formatBytes(bytes: number): string {
  return bytes >= MIB ? `${Math.round((bytes / MIB) * 10) / 10} MiB` : `${bytes} bytes`;
}
