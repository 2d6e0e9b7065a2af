import type { DocumentBlock } from "./document.js";

// Markdown is kept as written except for what only adds noise to retrieval and to prompts: link
// and image targets, HTML comments and heading markers. Sections follow ATX and setext headings;
// fenced code stays whole and is never read as headings.

export interface ParsedMarkdown {
  /** Front matter `title`, else the first level-1 heading, else the first heading. */
  title: string | undefined;
  blocks: DocumentBlock[];
  /** Front matter as flat `key: value` strings. */
  metadata: Record<string, string>;
}

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function parseMarkdown(source: string): ParsedMarkdown {
  let text = source.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const metadata: Record<string, string> = {};
  const frontMatter = /^---\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(text);
  if (frontMatter) {
    for (const line of (frontMatter[1] ?? "").split("\n")) {
      const pair = /^([A-Za-z_][\w-]*):[ \t]*(.*?)[ \t]*$/.exec(line);
      if (pair?.[1] && pair[2]) metadata[pair[1]] = pair[2].replace(/^(["'])(.*)\1$/, "$2");
    }
    text = text.slice(frontMatter[0].length);
  }
  text = text.replace(/<!--[\s\S]*?-->/g, "");

  const blocks: DocumentBlock[] = [];
  const headings: string[] = [];
  let firstH1: string | undefined;
  let firstHeading: string | undefined;
  let paragraph: string[] = [];
  let fence: string | undefined;

  const section = () => (headings.length > 0 ? headings.filter(Boolean).join(" > ") : undefined);
  const push = (blockText: string) => {
    const trimmed = blockText.trim();
    if (trimmed.length === 0) return;
    const label = section();
    blocks.push(label === undefined ? { text: trimmed } : { text: trimmed, section: label });
  };
  const flush = () => {
    if (paragraph.length > 0) push(cleanInline(paragraph.join("\n")));
    paragraph = [];
  };
  const heading = (level: number, title: string) => {
    const clean = cleanInline(title).trim();
    headings.length = level - 1;
    headings[level - 1] = clean;
    if (clean.length === 0) return;
    if (level === 1) firstH1 ??= clean;
    firstHeading ??= clean;
    push(clean);
  };

  for (const line of text.split("\n")) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      paragraph.push(line);
      if (fenceMatch?.[1]?.startsWith(fence)) {
        // Code is kept verbatim: no inline cleanup.
        push(paragraph.join("\n"));
        paragraph = [];
        fence = undefined;
      }
      continue;
    }
    if (fenceMatch?.[1]) {
      flush();
      fence = fenceMatch[1];
      paragraph.push(line);
      continue;
    }
    const atx = ATX_HEADING.exec(line);
    if (atx?.[1]) {
      flush();
      heading(atx[1].length, atx[2] ?? "");
      continue;
    }
    const underline = SETEXT_UNDERLINE.exec(line);
    if (underline?.[1] && paragraph.length === 1) {
      const title = paragraph[0] ?? "";
      paragraph = [];
      heading(underline[1].startsWith("=") ? 1 : 2, title);
      continue;
    }
    if (line.trim().length === 0) flush();
    else paragraph.push(line);
  }
  if (fence !== undefined) push(paragraph.join("\n"));
  else flush();
  return { title: metadata.title ?? firstH1 ?? firstHeading, blocks, metadata };
}

/** `![alt](url)` -> alt, `[text](url)` and `[text][ref]` -> text, `<https://x>` -> https://x. */
function cleanInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/<(https?:\/\/[^>\s]+)>/g, "$1");
}
