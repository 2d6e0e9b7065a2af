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
  text = withoutComments(text);

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

// Every pass below scans forward only: a backtracking pattern such as /\[([^\]]+)\]\([^)]*\)/
// retried its scan to the next `]` from every `[`, so a line of unclosed brackets took time
// quadratic in its length (100 kB: 17 s, with the server waiting).

/** `<!-- ... -->` removed; an unclosed comment is kept as written (as the regex before did). */
function withoutComments(text: string): string {
  let out = "";
  let copied = 0;
  for (let open = text.indexOf("<!--"); open !== -1; open = text.indexOf("<!--", copied)) {
    const close = text.indexOf("-->", open + 4);
    if (close === -1) break;
    out += text.slice(copied, open);
    copied = close + 3;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** `![alt](url)` -> alt, `[text](url)` and `[text][ref]` -> text, `<https://x>` -> https://x. */
export function cleanInline(text: string): string {
  return unwrapAutolinks(
    unwrapLinks(unwrapLinks(unwrapLinks(text, "![", "(", ")"), "[", "(", ")"), "[", "[", "]"),
  );
}

/**
 * The first index at or after `from` that `find` returns, for `from` that never decreases: a
 * later question whose answer is still ahead reuses it, so scans never cover the same text twice.
 */
function forwardSearch(find: (from: number) => number): (from: number) => number {
  let askedFrom = Number.POSITIVE_INFINITY;
  let found = -1;
  return (from) => {
    if (from < askedFrom || (found !== -1 && found < from)) {
      askedFrom = from;
      found = find(from);
    }
    return found;
  };
}

/**
 * `${opener}text](target)` (or `${opener}text][ref]`) -> text, in one forward pass. Text holds
 * no `]` (an image's may be empty, a link's not); the target holds no `close`.
 */
function unwrapLinks(text: string, opener: "![" | "[", targetOpen: string, close: string): string {
  const nextBracket = forwardSearch((from) => text.indexOf("]", from));
  const nextClose = forwardSearch((from) => text.indexOf(close, from));
  let out = "";
  let copied = 0;
  let at = text.indexOf(opener);
  while (at !== -1) {
    const start = at + opener.length;
    const end = nextBracket(start);
    // No `]` or no closer ahead: no later opener can match either.
    if (end === -1) break;
    if ((opener === "![" || end > start) && text[end + 1] === targetOpen) {
      const targetEnd = nextClose(end + 2);
      if (targetEnd === -1) break;
      out += text.slice(copied, at) + text.slice(start, end);
      copied = targetEnd + 1;
      at = text.indexOf(opener, copied);
    } else {
      at = text.indexOf(opener, at + 1);
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** `<http://x>` and `<https://x>` -> the URL (no `>` or whitespace inside). */
function unwrapAutolinks(text: string): string {
  const stop = /[>\s]/g;
  const nextStop = forwardSearch((from) => {
    stop.lastIndex = from;
    return stop.exec(text)?.index ?? -1;
  });
  let out = "";
  let copied = 0;
  let at = text.indexOf("<");
  while (at !== -1) {
    const scheme = text.startsWith("https://", at + 1)
      ? 8
      : text.startsWith("http://", at + 1)
        ? 7
        : 0;
    const rest = at + 1 + scheme;
    const end = scheme > 0 ? nextStop(rest) : -2;
    if (end === -1) break;
    if (end > rest && text[end] === ">") {
      out += text.slice(copied, at) + text.slice(at + 1, end);
      copied = end + 1;
      at = text.indexOf("<", copied);
    } else {
      at = text.indexOf("<", at + 1);
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}
