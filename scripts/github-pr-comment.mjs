// Posts the evaluation's summary on the pull request as ONE comment, updated on every later run
// (found again by a hidden marker), for the GitHub Action in action.yml. Needs nothing but Node's
// fetch and the variables a workflow step gets:
//   GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_EVENT_PATH (the pull request's number),
//   GITHUB_TOKEN, GITHUB_SERVER_URL and GITHUB_RUN_ID (the link to the run).
//
//   node scripts/github-pr-comment.mjs REPORT.md EXIT_CODE
//
// A missing pull request (a push build) is not an error: nothing is posted. Neither is a refused
// call (a fork's read-only token): it is reported as a warning, and the check keeps the
// evaluation's own exit code.

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const MARKER = "<!-- ragjudge-eval -->";
/** GitHub refuses comments over 65,536 characters. */
const MAX_BODY = 60_000;

const OUTCOMES = {
  0: "Passed: every check passed.",
  1: "Failed: a quality check failed.",
  2: "Not run: the evaluation's input or options are wrong (see the log).",
  3: "Incomplete: the evaluation could not be completed (see the log).",
  130: "Interrupted: the evaluation was paused.",
};

/** The report's summary: every section before the per-question table, one heading level down. */
export function summaryOf(markdown) {
  const cut = markdown.search(/^## Questions$/m);
  const summary = (cut >= 0 ? markdown.slice(0, cut) : markdown).trim();
  return summary.replace(/^(#+) /gm, "#$1 ");
}

export function commentBody({ markdown, exitCode, runUrl }) {
  const outcome = OUTCOMES[exitCode] ?? `Ended with exit code ${exitCode}.`;
  const parts = [MARKER, `## ragjudge evaluation`, "", `**${outcome}**`, ""];
  if (markdown) {
    let summary = summaryOf(markdown);
    if (summary.length > MAX_BODY) {
      summary = `${summary.slice(0, MAX_BODY)}\n\n_The summary is cut here; the run's job summary has all of it._`;
    }
    parts.push(summary, "");
  }
  if (runUrl) parts.push(`[The run, with the full report in its job summary](${runUrl})`, "");
  return parts.join("\n");
}

function fail(message) {
  // A workflow command: shown as a warning on the run, without failing the step.
  console.log(`::warning title=ragjudge comment::${message}`);
  return 0;
}

export async function postComment(env, reportPath, exitCode) {
  const { GITHUB_REPOSITORY: repo, GITHUB_EVENT_PATH: eventPath, GITHUB_TOKEN: token } = env;
  const api = (env.GITHUB_API_URL ?? "https://api.github.com").replace(/\/$/, "");
  if (!repo || !eventPath || !existsSync(eventPath)) {
    return fail("GITHUB_REPOSITORY or GITHUB_EVENT_PATH is not set: run this in a workflow.");
  }
  const event = JSON.parse(readFileSync(eventPath, "utf8"));
  // pull_request and pull_request_target events; issue_comment events on a pull request.
  const pr =
    event.pull_request?.number ?? (event.issue?.pull_request ? event.issue.number : undefined);
  if (!pr) {
    console.log("Not a pull request: no comment posted.");
    return 0;
  }
  if (!token) return fail("No token: set the action's `token` input (default: GITHUB_TOKEN).");

  const runUrl =
    env.GITHUB_SERVER_URL && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${repo}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  const markdown = reportPath && existsSync(reportPath) ? readFileSync(reportPath, "utf8") : "";
  const body = commentBody({ markdown, exitCode, runUrl });

  const call = async (method, path, payload) => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: {
        accept: "application/vnd.github+json",
        authorization: `Bearer ${token}`,
        "x-github-api-version": "2022-11-28",
        "user-agent": "ragjudge-action",
        ...(payload ? { "content-type": "application/json" } : {}),
      },
      body: payload ? JSON.stringify(payload) : undefined,
    });
    if (!response.ok) {
      throw new Error(`${method} ${path} answered HTTP ${response.status}`);
    }
    return response.json();
  };

  try {
    let previous;
    for (let page = 1; !previous; page++) {
      const comments = await call(
        "GET",
        `/repos/${repo}/issues/${pr}/comments?per_page=100&page=${page}`,
      );
      previous = comments.find((c) => typeof c.body === "string" && c.body.includes(MARKER));
      if (comments.length < 100) break;
    }
    if (previous) {
      await call("PATCH", `/repos/${repo}/issues/comments/${previous.id}`, { body });
      console.log(`Updated the evaluation comment on pull request #${pr}.`);
    } else {
      await call("POST", `/repos/${repo}/issues/${pr}/comments`, { body });
      console.log(`Posted the evaluation comment on pull request #${pr}.`);
    }
  } catch (error) {
    return fail(`Could not post the pull request comment: ${error.message}.`);
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [reportPath, exitCode = "0"] = process.argv.slice(2);
  process.exitCode = await postComment(process.env, reportPath, Number(exitCode));
}
