import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Document, parseDocument } from "yaml";
import { LlmConfigError } from "../llm/index.js";
import { CONFIG_FILE_NAMES } from "./load.js";

/**
 * Sets one setting (e.g. ["judges", "rubric", "fewshot"]) in the configuration file and leaves
 * the rest as it was: YAML through its document model (comments kept), JSON re-indented by 2.
 * Writes `path`, else the file loadConfig would read in `cwd`, else a new ragjudge.config.json.
 * Returns the file written.
 */
export async function writeConfigSetting(
  keyPath: readonly string[],
  value: unknown,
  options: { path?: string; cwd?: string } = {},
): Promise<string> {
  const cwd = options.cwd ?? process.cwd();
  let path = options.path;
  let text: string | undefined;
  if (path === undefined) {
    for (const name of CONFIG_FILE_NAMES) {
      text = await readFile(join(cwd, name), "utf8").catch(() => undefined);
      if (text !== undefined) {
        path = join(cwd, name);
        break;
      }
    }
    path ??= join(cwd, CONFIG_FILE_NAMES[0] as string);
  } else {
    text = await readFile(path, "utf8").catch(() => undefined);
  }
  if (/\.ya?ml$/i.test(path)) {
    const document: Document = text?.trim() ? parseDocument(text) : new Document({});
    if (document.errors.length > 0) {
      throw new LlmConfigError("(file)", `valid YAML (${document.errors[0]?.message})`, path);
    }
    document.setIn([...keyPath], document.createNode(value));
    await writeFile(path, document.toString());
    return path;
  }
  let json: Record<string, unknown> = {};
  if (text !== undefined && text.trim() !== "") {
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch (cause) {
      throw new LlmConfigError("(file)", `valid JSON (${(cause as Error).message})`, path);
    }
  }
  let node = json;
  for (const key of keyPath.slice(0, -1)) {
    const next = node[key];
    node[key] = typeof next === "object" && next !== null && !Array.isArray(next) ? next : {};
    node = node[key] as Record<string, unknown>;
  }
  node[keyPath.at(-1) as string] = value;
  await writeFile(path, `${JSON.stringify(json, null, 2)}\n`);
  return path;
}
