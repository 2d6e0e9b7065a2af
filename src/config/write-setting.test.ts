import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./load.js";
import { writeConfigSetting } from "./write-setting.js";
import { tempDir } from "../../test/support/temp-dir.js";

const EXAMPLE = [{ question: "q", context: "", answer: "a", score: 2, note: "invented" }];

describe("writeConfigSetting", () => {
  it("sets a nested setting in a JSON file and keeps the others", async () => {
    const dir = tempDir("config");
    writeFileSync(
      join(dir, "ragjudge.config.json"),
      JSON.stringify({ judges: { rubric: { pass_min_accuracy: 8 } } }),
    );
    const path = await writeConfigSetting(["judges", "rubric", "fewshot"], EXAMPLE, { cwd: dir });
    expect(path).toBe(join(dir, "ragjudge.config.json"));
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config.judges.rubric.pass_min_accuracy).toBe(8);
    expect(config.judges.rubric.fewshot).toEqual(EXAMPLE);
  });

  it("keeps a YAML file's comments", async () => {
    const dir = tempDir("config");
    const path = join(dir, "ragjudge.config.yaml");
    writeFileSync(path, "# our judge settings\njudges:\n  language: zh # Chinese prompts\n");
    await writeConfigSetting(["judges", "rubric", "fewshot"], EXAMPLE, { cwd: dir });
    const text = readFileSync(path, "utf8");
    expect(text).toContain("# our judge settings");
    expect(text).toContain("# Chinese prompts");
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config.judges.language).toBe("zh");
    expect(config.judges.rubric.fewshot).toEqual(EXAMPLE);
  });

  it("creates ragjudge.config.json when there is no file", async () => {
    const dir = tempDir("config");
    await writeConfigSetting(["judges", "rubric", "fewshot"], EXAMPLE, { cwd: dir });
    expect(JSON.parse(readFileSync(join(dir, "ragjudge.config.json"), "utf8"))).toEqual({
      judges: { rubric: { fewshot: EXAMPLE } },
    });
  });
});
