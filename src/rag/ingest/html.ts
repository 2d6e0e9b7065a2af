import { Tokenizer } from "htmlparser2";
import type { DocumentBlock } from "./document.js";

// HTML to blocks: text of the body in document order, a block per block-level element, sections
// from h1-h6. Scripts, styles, navigation and other non-content elements are dropped.
// htmlparser2's tokenizer only: its Parser keeps the open elements in an array it shifts at the
// front, so 200,000 nested <div> took 24 s and `<div><b>` 100,000 times 336 s. Text extraction
// needs no tree: a block starts and ends at a block element's tags, however they nest.

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

/** Elements that never have content or an end tag. */
const VOID = new Set([
  "area",
  "base",
  "basefont",
  "br",
  "col",
  "command",
  "embed",
  "frame",
  "hr",
  "img",
  "input",
  "isindex",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

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
    // trimEnd, not /\s+$/: that pattern retries from every space of a long run (quadratic).
    const text = preDepth > 0 ? withoutLeadingNewlines(buffer).trimEnd() : collapse(buffer);
    buffer = "";
    if (text.length === 0) return;
    const label = section();
    blocks.push(label === undefined ? { text } : { text, section: label });
  };

  const openTag = (name: string, attributes: Record<string, string>) => {
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
      // A heading opened inside an unclosed one ends it, as a browser does.
      if (headingLevel > 0) closeTag(`h${headingLevel}`);
      flush();
      headingLevel = Number(level);
      headingText = "";
      return;
    }
    if (BLOCKS.has(name)) {
      flush();
      if (name === "pre") preDepth++;
    }
  };
  const closeTag = (name: string) => {
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
  };
  const addText = (text: string) => {
    if (inTitle) titleText += text;
    else if (skipDepth > 0) return;
    else if (headingLevel > 0) headingText += text;
    else buffer += text;
  };

  const source = html.replace(/^\uFEFF/, "");
  const slice = (start: number, end: number) => source.slice(start, end);
  let tagName = "";
  let attributes: Record<string, string> = {};
  let attributeName = "";
  let attributeValue = "";
  const endOpenTag = () => {
    openTag(tagName, attributes);
    if (VOID.has(tagName)) closeTag(tagName);
  };
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        tagName = slice(start, end).toLowerCase();
        attributes = {};
      },
      onattribname(start, end) {
        attributeName = slice(start, end).toLowerCase();
        attributeValue = "";
      },
      onattribdata(start, end) {
        attributeValue += slice(start, end);
      },
      onattribentity(codePoint) {
        attributeValue += String.fromCodePoint(codePoint);
      },
      onattribend() {
        if (!Object.hasOwn(attributes, attributeName)) attributes[attributeName] = attributeValue;
        attributeValue = "";
      },
      onopentagend: endOpenTag,
      // `<div/>` opens a div in HTML: the slash means nothing outside SVG and MathML.
      onselfclosingtag: endOpenTag,
      onclosetag(start, end) {
        const name = slice(start, end).toLowerCase();
        if (name === "br") {
          // `</br>` is read as `<br>`.
          openTag(name, {});
          closeTag(name);
        } else if (!VOID.has(name)) closeTag(name);
      },
      ontext(start, end) {
        addText(slice(start, end));
      },
      ontextentity(codePoint) {
        addText(String.fromCodePoint(codePoint));
      },
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(source);
  tokenizer.end();
  // What is still open ends with the document.
  if (inTitle) closeTag("title");
  if (headingLevel > 0) closeTag(`h${headingLevel}`);
  flush();
  return { title: title ?? firstH1, blocks, metadata };
}

/** Collapses runs of whitespace (HTML source line breaks included) to single spaces. */
function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function withoutLeadingNewlines(text: string): string {
  let start = 0;
  while (text.charCodeAt(start) === 10) start++;
  return text.slice(start);
}
