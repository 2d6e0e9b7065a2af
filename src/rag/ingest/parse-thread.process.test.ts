import { expect, it } from "vitest";
import { pdfBomb } from "../../../test/support/pdf-bomb.js";
import { CHUNKING_DEFAULTS } from "./config.js";
import { PARSE_LIMITS } from "./limits.js";
import { type ParseJob, runParseJob } from "./parse-job.js";
import { ParseLimitError, parseOffThread } from "./parse-thread.js";

const MIB = 1024 * 1024;

const job = (bytes: Uint8Array, source: string, kind: ParseJob["kind"]): ParseJob => ({
  bytes,
  source,
  kind,
  fallbackTitle: source.replace(/\.[^.]+$/, ""),
  chunking: CHUNKING_DEFAULTS,
  decodedBytes: { limit: PARSE_LIMITS.decodedBytesPerDocument, of: "the limit per document" },
});

const markdown = new TextEncoder().encode("# Tides\n\nHigh tide at the Old Quay is at 06:10.\n");

it("reads, chunks and tokenizes a file on the thread as it would here", async () => {
  const onThread = await parseOffThread(job(markdown, "tides.md", "markdown"));
  expect(onThread).toEqual(await runParseJob(job(markdown, "tides.md", "markdown")));
  expect(onThread.items).toMatchObject([
    { ok: true, document: { title: "Tides", chunks: [{ position: 0 }] } },
  ]);
});

it("refuses a file that takes longer than the time limit, then reads the next on a new thread", async () => {
  // 5 MB of words: a few seconds of chunks and tokens, against a limit of 100 ms.
  const long = new TextEncoder().encode("word ".repeat(1_000_000));
  const error = await parseOffThread(job(long, "long.txt", "text"), {
    ...PARSE_LIMITS,
    timeMs: 100,
  }).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(ParseLimitError.isInstance(error), String(error)).toBe(true);
  expect((error as ParseLimitError).limit).toBe("time");
  expect((error as Error).message).toBe("took longer than 0.1 s to read (the limit per file)");
  const next = await parseOffThread(job(markdown, "tides.md", "markdown"));
  expect(next.items[0]?.ok).toBe(true);
});

it("ends the thread when the process's memory grows past the limit (a bomb the scan cannot see)", async () => {
  // Its content stream says it is an image, so the stream scan skips it and PDF.js inflates 1 GiB.
  const bomb = await pdfBomb(1024 * MIB, { markedAsImage: true });
  const limits = { ...PARSE_LIMITS, memoryGrowthBytes: 256 * MIB, timeMs: 60_000 };
  const before = process.memoryUsage.rss();
  const error = await parseOffThread(job(bomb, "bomb.pdf", "pdf"), limits).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(ParseLimitError.isInstance(error), String(error)).toBe(true);
  expect((error as ParseLimitError).limit).toBe("memory");
  // Ended within a sampling interval or two of the limit; the thread's memory is gone with it.
  expect(process.memoryUsage.rss() - before).toBeLessThan(512 * MIB);
}, 60_000);
