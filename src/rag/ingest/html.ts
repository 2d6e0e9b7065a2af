import { Parser } from "htmlparser2";
import type { DocumentBlock } from "./document.js";

// HTML to blocks: text of the body in document order, a block per block-level element, sections
// from h1-h6. Scripts, styles, navigation and other non-content elements are dropped.

export interface ParsedHtml {
  /** <title>, else the first <h1>. */
  title: string | undefined;
  blocks: DocumentBlock[];
  /** `lang` of <html>, `description` of <meta name="description">, when present. */
  metadata: Record<string, string>;
}

const SKIPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "math",
  "iframe",
  "object",
  "canvas",
  "nav",
  "select",
  "button",
]);

const BLOCKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "br",
  "caption",
  "dd",
  "details",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "header",
  "hr",
  "li",
  "main",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);

const HEADING = /^h([1-6])$/;

export function parseHtml(html: string): ParsedHtml {
  const blocks: DocumentBlock[] = [];
  const metadata: Record<string, string> = {};
  const headings: string[] = [];
  let title: string | undefined;
  let firstH1: string | undefined;
  let skipDepth = 0;
  let inTitle = false;
  let titleText = "";
  let preDepth = 0;
  let buffer = "";
  let headingLevel = 0;
  let headingText = "";

  const section = () => (headings.length > 0 ? headings.filter(Boolean).join(" > ") : undefined);
  const flush = () => {
    const text = preDepth > 0 ? buffer.replace(/^\n+|\s+$/g, "") : collapse(buffer);
    buffer = "";
    if (text.length === 0) return;
    const label = section();
    blocks.push(label === undefined ? { text } : { text, section: label });
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "html" && attributes.lang) metadata.lang = attributes.lang;
        if (name === "meta" && attributes.name?.toLowerCase() === "description") {
          if (attributes.content) metadata.description = collapse(attributes.content);
        }
        if (name === "title") {
          inTitle = true;
          return;
        }
        if (name === "head" || SKIPPED.has(name)) {
          skipDepth++;
          return;
        }
        if (skipDepth > 0) return;
        const level = HEADING.exec(name)?.[1];
        if (level !== undefined) {
          flush();
          headingLevel = Number(level);
          headingText = "";
          return;
        }
        if (BLOCKS.has(name)) {
          flush();
          if (name === "pre") preDepth++;
        }
      },
      ontext(text) {
        if (inTitle) titleText += text;
        else if (skipDepth > 0) return;
        else if (headingLevel > 0) headingText += text;
        else buffer += text;
      },
      onclosetag(name) {
        if (name === "title") {
          inTitle = false;
          title ??= collapse(titleText) || undefined;
          return;
        }
        if (name === "head" || SKIPPED.has(name)) {
          skipDepth = Math.max(0, skipDepth - 1);
          return;
        }
        if (skipDepth > 0) return;
        if (HEADING.test(name) && headingLevel > 0) {
          const text = collapse(headingText);
          headings.length = headingLevel - 1;
          headings[headingLevel - 1] = text;
          if (headingLevel === 1) firstH1 ??= text || undefined;
          headingLevel = 0;
          if (text.length > 0) buffer = text;
          flush();
          return;
        }
        if (BLOCKS.has(name)) {
          flush();
          if (name === "pre") preDepth = Math.max(0, preDepth - 1);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html.replace(/^\uFEFF/, ""));
  parser.end();
  flush();
  return { title: title ?? firstH1, blocks, metadata };
}

/** Collapses runs of whitespace (HTML source line breaks included) to single spaces. */
function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
