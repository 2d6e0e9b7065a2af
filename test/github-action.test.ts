// The pull-request action (action.yml) without GitHub: its steps run as a runner runs a composite
// action (bash with -eo pipefail, inputs and step outputs substituted into each step's env, the
// GITHUB_* variables and files a workflow step gets), against a GitHub REST API stand-in on
// 127.0.0.1 that records every comment call.

import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parse } from "yaml";
import { CLI_BIN, runCli } from "./support/cli.js";
import { createDatabase } from "./support/postgres-server.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const REPO = "acme/rag-app";
const PR = 42;
const TOKEN = "ghs_stand-in-token";
const MARKER = "<!-- ragjudge-eval -->";

interface ActionStep {
  id?: string;
  uses?: string;
  if?: string;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: ActionStep[] };
}

/** A GitHub REST API stand-in: issue comments of one repository, and a log of every call. */
interface Recorded {
  method: string;
  path: string;
  authorization?: string;
  body?: { body?: string };
}
function startGitHubStandIn() {
  const calls: Recorded[] = [];
  const comments: { id: number; body: string }[] = [
    { id: 1, body: "Looks good to me." }, // somebody else's comment stays untouched
  ];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const body = raw ? (JSON.parse(raw) as { body?: string }) : undefined;
      calls.push({
        method: req.method ?? "",
        path: url.pathname + url.search,
        authorization: req.headers.authorization,
        body,
      });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(payload));
      };
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, {});
      const list = `/repos/${REPO}/issues/${PR}/comments`;
      if (req.method === "GET" && url.pathname === list) {
        const page = Number(url.searchParams.get("page") ?? 1);
        const perPage = Number(url.searchParams.get("per_page") ?? 30);
        return send(200, comments.slice((page - 1) * perPage, page * perPage));
      }
      if (req.method === "POST" && url.pathname === list) {
        const comment = { id: 100 + comments.length, body: body?.body ?? "" };
        comments.push(comment);
        return send(201, comment);
      }
      const one = /^\/repos\/acme\/rag-app\/issues\/comments\/(\d+)$/.exec(url.pathname);
      const found = one && comments.find((c) => c.id === Number(one[1]));
      if (req.method === "PATCH" && found) {
        found.body = body?.body ?? "";
        return send(200, found);
      }
      send(404, { message: "Not Found" });
    });
  });
  return { server, calls, comments };
}

const dir = mkdtempSync(join(tmpdir(), "ragjudge-action-"));
const workspace = join(dir, "workspace");
const github = startGitHubStandIn();
let apiUrl: string;
let databaseUrl: string;
let baselineId: string;

const QUESTIONS = [
  ["When did the Lanting Metro open Line 1?", "Line 1 opened on 18 September 2009."],
  ["How many buildings did the Great Fire of 1869 destroy?", "412 buildings."],
  ["How long does the Gull Island ferry crossing take?", "35 minutes."],
] as const;
function answersFile(name: string, answerOf: (truth: string, i: number) => string): string {
  const path = join(workspace, name);
  writeFileSync(
    path,
    QUESTIONS.map(([question, truth], i) =>
      JSON.stringify({ question, ground_truth: truth, answer: answerOf(truth, i) }),
    ).join("\n") + "\n",
  );
  return path;
}

/** `${{ ... }}` in a step's env, as the runner evaluates it: inputs, step outputs, github.token. */
function expression(
  text: string,
  inputs: Record<string, string>,
  outputs: Record<string, Record<string, string>>,
): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    const [, input] = /^inputs\.([\w-]+)$/.exec(expr) ?? [];
    if (input) return inputs[input] ?? "";
    const [, step, output] = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr) ?? [];
    if (step && output) return outputs[step]?.[output] ?? "";
    if (expr === "github.token") return TOKEN;
    throw new Error(`the stand-in runner does not know the expression ${expr}`);
  });
}

/** Runs a step's script to its end. Asynchronously: the API stand-in answers in this process. */
function bash(script: string, env: Record<string, string>) {
  const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
    cwd: workspace,
    env,
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ status: number | null; output: string }>((resolve) =>
    child.on("close", (status) => resolve({ status, output })),
  );
}

/** Runs action.yml's steps as a GitHub runner would; returns the job's exit code and logs. */
async function runAction(given: Record<string, string>, runId: string) {
  const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as Action;
  expect(action.runs.using).toBe("composite");
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    inputs[name] = given[name] ?? expression(spec.default ?? "", {}, {});
  }
  const runnerTemp = join(dir, `runner-temp-${runId}`);
  mkdirSync(runnerTemp, { recursive: true });
  const outputs: Record<string, Record<string, string>> = {};
  let log = "";
  for (const [index, step] of action.runs.steps.entries()) {
    expect(step.if, "steps run unconditionally; the scripts decide").toBeUndefined();
    if (step.uses) {
      expect(step.uses).toMatch(/^actions\/setup-node@/); // this runner already is Node
      continue;
    }
    const outputFile = join(runnerTemp, `output-${index}`);
    writeFileSync(outputFile, "");
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_API_URL: apiUrl,
      GITHUB_SERVER_URL: "https://github.example",
      GITHUB_REPOSITORY: REPO,
      GITHUB_RUN_ID: runId,
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: join(dir, "event.json"),
      GITHUB_STEP_SUMMARY: join(dir, "step-summary.md"),
      GITHUB_OUTPUT: outputFile,
      GITHUB_WORKSPACE: workspace,
      RUNNER_TEMP: runnerTemp,
      // The workflow's own env: where ragjudge keeps its evaluations (and the baseline).
      DATABASE_URL: databaseUrl,
    };
    for (const [key, value] of Object.entries(step.env ?? {})) {
      env[key] = expression(value, inputs, outputs);
    }
    expect(step.shell).toBe("bash");
    const run = await bash(step.run ?? "", env);
    log += run.output;
    if (step.id) {
      outputs[step.id] = Object.fromEntries(
        readFileSync(outputFile, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
      );
    }
    if (run.status !== 0) return { code: run.status ?? 1, log, eval: outputs.eval ?? {} };
  }
  return { code: 0, log, eval: outputs.eval ?? {} };
}

beforeAll(async () => {
  await new Promise<void>((resolve) => github.server.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(github.server.address() as AddressInfo).port}`;
  databaseUrl = await createDatabase(inject("postgresUrl"), "ghaction");
  // The project under test has ragjudge installed, as the action's default expects.
  mkdirSync(join(workspace, "node_modules/.bin"), { recursive: true });
  symlinkSync(CLI_BIN, join(workspace, "node_modules/.bin/ragjudge"));
  writeFileSync(
    join(dir, "event.json"),
    JSON.stringify({ action: "synchronize", number: PR, pull_request: { number: PR } }),
  );
  // The baseline: the main branch's evaluation, every answer right.
  const baseline = await runCli(
    ["eval", "--answers", answersFile("baseline.jsonl", (truth) => truth)],
    { env: { DATABASE_URL: databaseUrl }, cwd: workspace },
  );
  expect(baseline.code, baseline.stderr).toBe(0);
  baselineId = /Evaluation ([0-9a-f-]{36}):/.exec(baseline.stderr)?.[1] ?? "";
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => github.server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the comment script alone, as the action's comment step does. */
function commentScript(env: Record<string, string>) {
  return promisify(execFile)(
    process.execPath,
    [join(ROOT, "scripts/github-pr-comment.mjs"), join(dir, "missing.md"), "0"],
    {
      env: {
        PATH: process.env.PATH ?? "",
        GITHUB_API_URL: apiUrl,
        GITHUB_REPOSITORY: REPO,
        GITHUB_TOKEN: TOKEN,
        ...env,
      },
      encoding: "utf8",
    },
  );
}

describe("the pull-request action", () => {
  it.sequential("passes, writes the reports and posts one comment", async () => {
    const first = await runAction(
      {
        answers: answersFile("same.jsonl", (truth) => truth),
        baseline: baselineId,
        "min-pass-rate": "0.6",
      },
      "1001",
    );
    expect(first.code, first.log).toBe(0);
    expect(first.eval["exit-code"]).toBe("0");
    expect(first.eval["evaluation-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(readFileSync(first.eval.junit ?? "", "utf8")).toMatch(/<testsuites?[\s>]/);

    const summary = readFileSync(join(dir, "step-summary.md"), "utf8");
    expect(summary).toContain("# Evaluation:");
    expect(summary).toMatch(/\| --baseline \| ok \| 0 regression\(s\)/);

    const writes = github.calls.filter((c) => c.method !== "GET");
    expect(writes.map((c) => [c.method, c.path])).toEqual([
      ["POST", `/repos/${REPO}/issues/${PR}/comments`],
    ]);
    expect(github.calls.every((c) => c.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const body = github.comments.find((c) => c.body.includes(MARKER))?.body ?? "";
    expect(body).toContain("Passed: every check passed.");
    expect(body).toContain("https://github.example/acme/rag-app/actions/runs/1001");
    expect(body).not.toContain("## Questions"); // the per-question table stays in the job summary
  });

  it.sequential(
    "on a regression, updates the same comment with it and fails the check with exit code 1",
    async () => {
      github.calls.length = 0;
      const second = await runAction(
        {
          answers: answersFile("worse.jsonl", (truth, i) =>
            i === 1 ? "The fire destroyed the old town hall only." : truth,
          ),
          baseline: baselineId,
        },
        "1002",
      );
      expect(second.code, second.log).toBe(1);
      expect(second.eval["exit-code"]).toBe("1");

      const writes = github.calls.filter((c) => c.method !== "GET");
      expect(writes.map((c) => c.method)).toEqual(["PATCH"]);
      expect(github.comments.filter((c) => c.body.includes(MARKER))).toHaveLength(1);
      expect(github.comments).toHaveLength(2); // the reviewer's and ours
      const body = github.comments.find((c) => c.body.includes(MARKER))?.body ?? "";
      expect(writes[0]?.path).toBe(`/repos/${REPO}/issues/comments/${github.comments[1]?.id}`);
      expect(body).toContain("Failed: a quality check failed.");
      expect(body).toContain("Regressions against the baseline");
      expect(body).toContain("How many buildings did the Great Fire of 1869 destroy?");
      expect(body).toContain("https://github.example/acme/rag-app/actions/runs/1002");

      const summary = readFileSync(join(dir, "step-summary.md"), "utf8");
      expect(summary.match(/^# Evaluation:/gm)).toHaveLength(2);
      expect(summary).toContain("Regressions against the baseline");
    },
  );

  it.sequential("posts nothing on a push build (no pull request)", async () => {
    const event = join(dir, "push-event.json");
    writeFileSync(event, JSON.stringify({ ref: "refs/heads/main" }));
    github.calls.length = 0;
    const { stdout } = await commentScript({ GITHUB_EVENT_PATH: event });
    expect(stdout).toContain("Not a pull request: no comment posted.");
    expect(github.calls).toEqual([]);
  });

  it.sequential(
    "warns, and leaves the check to the evaluation, when GitHub refuses the comment",
    async () => {
      github.calls.length = 0;
      const before = JSON.stringify(github.comments);
      // A fork's pull request: the token cannot write (the stand-in answers 401).
      const { stdout } = await commentScript({
        GITHUB_EVENT_PATH: join(dir, "event.json"),
        GITHUB_TOKEN: "read-only",
      });
      expect(stdout).toContain(
        "::warning title=ragjudge comment::Could not post the pull request comment: GET",
      );
      expect(stdout).toContain("answered HTTP 401");
      expect(github.calls).toHaveLength(1);
      expect(JSON.stringify(github.comments)).toBe(before);
    },
  );
});
