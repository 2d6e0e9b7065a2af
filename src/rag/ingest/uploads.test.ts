import { expect, it } from "vitest";
import { pdfBomb } from "../../../test/support/pdf-bomb.js";
import { CHUNKING_DEFAULTS } from "./config.js";
import { PARSE_LIMITS } from "./limits.js";
import { parseUploads } from "./uploads.js";

const MIB = 1024 * 1024;

it("counts refused PDFs against the request's decoding budget, and reads none once it is spent", async () => {
  const bomb = (await pdfBomb(256 * MIB)).toString("base64");
  const limits = {
    ...PARSE_LIMITS,
    decodedBytesPerDocument: 8 * MIB,
    decodedBytesPerRequest: 16 * MIB,
  };
  const { documents, problems } = await parseUploads(
    [
      { name: "a.pdf", content_base64: bomb },
      { name: "b.pdf", content_base64: bomb },
      { name: "notes.md", content: "# Notes\n\nThe quay reopens in May." },
      { name: "c.pdf", content_base64: bomb },
    ],
    { chunking: CHUNKING_DEFAULTS, limits },
  );
  expect(documents.map((document) => document.source)).toEqual(["notes.md"]);
  expect(problems).toEqual([
    {
      path: "documents.0",
      message: "a.pdf: its compressed streams decode to more than 8 MiB (the limit per document)",
    },
    {
      path: "documents.1",
      message: "b.pdf: its compressed streams decode to more than 8 MiB (the limit per document)",
    },
    {
      path: "documents.3",
      message:
        "c.pdf: not read: the PDFs before it in this request used up the 16 MiB their streams may decode to",
    },
  ]);
});
