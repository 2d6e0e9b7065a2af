// JSON text → value under the rules every surface shares (a JSONL line of `ragjudge gate`, an
// HTTP body): strict UTF-8, a nesting limit checked before anything recurses, and no string that
// PostgreSQL cannot store (NUL) or that is not Unicode (a lone surrogate). Each refusal names
// the field at fault, so the CLI's line errors and the API's 400s say the same thing.

/** Deeper input is refused: nothing ragjudge reads nests this far, and recursion stays bounded. */
export const MAX_JSON_DEPTH = 64;

export type StrictJson =
  | { ok: true; value: unknown }
  | {
      ok: false;
      /** `malformed` when the text is not JSON; `invalid` when it is, but breaks a rule above. */
      kind: "malformed" | "invalid";
      /** The field at fault, as `a.0.b` ("(root)" for the whole text), like zod issues. */
      path: string;
      message: string;
    };

type Segment = string | number;

/** Parses `input` (bytes are decoded as strict UTF-8; a leading BOM is dropped). */
export function parseStrictJson(
  input: string | Uint8Array,
  maxDepth: number = MAX_JSON_DEPTH,
): StrictJson {
  let text: string;
  if (typeof input === "string") {
    text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  } else {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(input);
    } catch {
      return invalidUtf8(input);
    }
  }
  if (hasMoreOpenersThan(text, maxDepth)) {
    const scan = scanStructure(text, maxDepth);
    if (scan.tooDeep) {
      return refuse(scan.path, `nested deeper than ${maxDepth} levels (arrays and objects)`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, kind: "malformed", path: "(root)", message: (error as Error).message };
  }
  // Only an escape (\u0000, \ud800) or a raw lone surrogate can bring either into a parsed
  // string. Two plain searches: one regex with both alternatives took 7 times as long.
  if (text.includes("\\u") || LONE_SURROGATE.test(text)) {
    const bad = findBadString(value, []);
    if (bad) return refuse(bad.path, bad.message);
  }
  return { ok: true, value };
}

/** `path: message`, the form of a line error. */
export function describeStrictJsonError(error: Extract<StrictJson, { ok: false }>): string {
  if (error.kind === "malformed") return `malformed JSON: ${error.message}`;
  return error.path === "(root)" ? error.message : `${error.path}: ${error.message}`;
}

function refuse(path: readonly Segment[], message: string): StrictJson {
  return { ok: false, kind: "invalid", path: renderPath(path), message };
}

const MAX_PATH_SEGMENTS = 12;

function renderPath(path: readonly Segment[]): string {
  if (path.length === 0) return "(root)";
  const shown = path.slice(0, MAX_PATH_SEGMENTS).map(String).join(".");
  return path.length > MAX_PATH_SEGMENTS
    ? `${shown}.… (${path.length - MAX_PATH_SEGMENTS} more levels)`
    : shown;
}

// ---- Structure: depth and the path at a position, without recursion -------------------------

interface Frame {
  array: boolean;
  /** Array: the element's index. */
  index: number;
  /** Object: where the last key read sits in the text, quotes included (-1: none yet). */
  keyFrom: number;
  keyTo: number;
  expectKey: boolean;
}

interface Scan {
  tooDeep: boolean;
  /** Where the scan stopped: the too-deep container, or the end of the text. */
  path: Segment[];
  /** Whether the text ends inside a string (a truncated prefix does, at a bad byte). */
  inString: boolean;
  /** Whether that string is an object key. */
  inKey: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * One pass over the text tracking the open arrays and objects, their current index or key.
 * It tolerates malformed text (JSON.parse judges that afterwards) and never recurses, so a
 * 100,000-deep line costs one loop, not a stack overflow. Keys are decoded only for a path.
 */
function scanStructure(text: string, maxDepth: number): Scan {
  const stack: Frame[] = [];
  const pathOf = (): Segment[] =>
    stack.map((frame) => {
      if (frame.array) return frame.index;
      return frame.keyFrom < 0 ? "?" : decodeKey(text.slice(frame.keyFrom, frame.keyTo + 1));
    });
  const end = (tooDeep: boolean, inString = false, inKey = false): Scan => ({
    tooDeep,
    path: pathOf(),
    inString,
    inKey,
  });
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const top = stack[stack.length - 1];
      const close = closingQuote(text, i + 1);
      const isKey = top !== undefined && !top.array && top.expectKey;
      if (close < 0) return end(false, true, isKey);
      if (isKey) {
        top.keyFrom = i;
        top.keyTo = close;
        top.expectKey = false;
      }
      i = close;
    } else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      if (stack.length >= maxDepth) return end(true);
      const array = code === 0x5b;
      stack.push({ array, index: 0, keyFrom: -1, keyTo: -1, expectKey: !array });
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) {
      stack.pop();
    } else if (code === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
    }
  }
  return end(false);
}

/**
 * Whether the text holds more than `limit` "[" and "{" in all, strings included. When it does
 * not, it cannot nest deeper, and the scan (half the cost of JSON.parse) is skipped: native
 * searches find the usual line's few dozen brackets at once.
 */
function hasMoreOpenersThan(text: string, limit: number): boolean {
  let count = 0;
  for (const opener of ["[", "{"]) {
    for (let at = text.indexOf(opener); at >= 0; at = text.indexOf(opener, at + 1)) {
      if (++count > limit) return true;
    }
  }
  return false;
}

/** The index of the quote closing a string that starts at `from`, or -1. */
function closingQuote(text: string, from: number): number {
  let i = from;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return -1;
    let backslashes = 0;
    for (let j = quote - 1; j >= from && text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}

function decodeKey(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal.slice(1, -1);
  }
}

// ---- Strings PostgreSQL cannot store, or that are not Unicode ---------------------------------

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function stringProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains a NUL character (\\u0000), which cannot be stored";
  if (LONE_SURROGATE.test(text)) {
    return "contains a lone surrogate (e.g. \\ud800 without its pair), which is not valid Unicode";
  }
  return undefined;
}

/** The first string (key or value) breaking the rules; the depth is already bounded. */
function findBadString(
  value: unknown,
  path: Segment[],
): { path: Segment[]; message: string } | undefined {
  if (typeof value === "string") {
    const problem = stringProblem(value);
    return problem ? { path, message: problem } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = findBadString(value[i], [...path, i]);
      if (bad) return bad;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      const keyProblem = stringProblem(key);
      if (keyProblem) return { path, message: `a key ${keyProblem}` };
      const bad = findBadString(child, [...path, key]);
      if (bad) return bad;
    }
  }
  return undefined;
}

// ---- Invalid UTF-8, named by the field it is in -----------------------------------------------

function invalidUtf8(bytes: Uint8Array): StrictJson {
  const offset = invalidUtf8Offset(bytes);
  // The bytes before the bad one decode; the structure up to there says which field it is in.
  const before = new TextDecoder("utf-8").decode(bytes.subarray(0, offset));
  const scan = scanStructure(before, Number.POSITIVE_INFINITY);
  const where = `invalid UTF-8 at byte ${offset}`;
  if (!scan.inString) return refuse(scan.path, `${where} (save the text as UTF-8)`);
  const message = scan.inKey
    ? `${where}, in a key (save the text as UTF-8)`
    : `${where} (save the text as UTF-8)`;
  return refuse(scan.inKey ? scan.path.slice(0, -1) : scan.path, message);
}

/** The offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f; // no UTF-16 surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined) return i;
      const min = k === 1 ? low : 0x80;
      const max = k === 1 ? high : 0xbf;
      if (next < min || next > max) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}
