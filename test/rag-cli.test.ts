import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, inject, it } from "vitest";
import { type CliRun, runCli } from "./support/cli.js";
import { createDatabase } from "./support/postgres-server.js";
import { tempDir } from "./support/temp-dir.js";

const CORPUS = new URL("../examples/corpus", import.meta.url).pathname;
let env: Record<string, string>;
let first: CliRun;

// One ingest serves every test (the asks read the collection it makes); after it the tests are
// independent on a PostgreSQL server, so they run side by side.
beforeAll(async () => {
  env = {
    DATABASE_URL: await createDatabase(inject("postgresUrl"), "ragcli"),
    RAGJUDGE_HOME: tempDir("rag-home"),
  };
  first = await runCli(["ingest", CORPUS, "--collection", "lanting", "--json"], { env });
});

it.concurrent(
  "ingests the example corpus once, and re-ingesting unchanged content writes nothing",
  async () => {
    expect(first.code).toBe(0);
    const added = JSON.parse(first.stdout) as {
      documents: { added: number };
      chunks: { added: number };
    };
    expect(added.documents.added).toBeGreaterThanOrEqual(6);
    expect(added.chunks.added).toBeGreaterThan(added.documents.added - 1);

    const again = await runCli(["ingest", CORPUS, "--collection", "lanting", "--json"], { env });
    const unchanged = JSON.parse(again.stdout) as {
      documents: { added: number; unchanged: number };
      chunks: { added: number };
    };
    expect(unchanged.documents).toMatchObject({ added: 0, unchanged: added.documents.added });
    expect(unchanged.chunks.added).toBe(0);
  },
);

it.concurrent(
  "answers offline with citations, the gate verdict, the loop trace and Mermaid diagrams",
  async () => {
    const { code, stdout } = await runCli(
      [
        "ask",
        "--collection",
        "lanting",
        "--mermaid",
        "When did the Lanting Metro open its Line 1?",
      ],
      { env },
    );
    expect(code).toBe(0);
    expect(stdout).toContain("2009");
    expect(stdout).toMatch(/Sources:\n\s+\[doc_[0-9a-f]+#\d+\]/);
    expect(stdout).toMatch(/Gate: (pass|partial) -> show/);
    expect(stdout).toMatch(/quality\s+grade_documents/);
    expect(stdout).toMatch(/answer\s+eval_answer/);
    expect(stdout.match(/flowchart/g)?.length).toBe(2);
    // A passing answer's observations land beside the database, as JSON Lines, in the local
    // user's own file, readable by its owner only.
    const home = env.RAGJUDGE_HOME ?? "";
    const files = readdirSync(home).filter((name) => name.startsWith("observational_data"));
    expect(files).toEqual([expect.stringMatching(/^observational_data\.[0-9a-f-]{36}\.jsonl$/)]);
    expect(statSync(join(home, files[0] ?? "")).mode & 0o777).toBe(0o600);
    const observations = readFileSync(join(home, files[0] ?? ""), "utf8");
    expect(observations.trim().split("\n").length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(observations.trim().split("\n")[0] ?? "{}")).toHaveProperty("question");

    const json = await runCli(
      ["ask", "--collection", "lanting", "--json", "How long is the tram network?"],
      { env },
    );
    const state = JSON.parse(json.stdout) as {
      quality: { retry_count: number; original_queries: string[] };
      answer: { epoch: number };
      hits: Array<{ source: string; scores: object }>;
    };
    expect(state.quality.retry_count).toBeLessThanOrEqual(2);
    expect(state.answer.epoch).toBeGreaterThanOrEqual(1);
    expect(state.hits[0]?.source).toBe("lexical");
  },
);

it.concurrent("names an unknown collection", async () => {
  const { code, stderr } = await runCli(["ask", "--collection", "nope", "anything?"], { env });
  expect(code).toBe(2);
  expect(stderr).toContain("nope");
});
