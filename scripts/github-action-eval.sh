#!/usr/bin/env bash
# The GitHub Action's evaluation step (action.yml): runs `ragjudge eval` with the inputs (INPUT_*
# variables), writes the JUnit and markdown reports under $RUNNER_TEMP/ragjudge, appends the
# markdown to the job summary, and hands the exit code to the later steps as an output, so the
# comment is posted whatever the outcome and the last step fails the check by it.
set -uo pipefail

out="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ragjudge"
mkdir -p "$out"
junit="$out/junit.xml"
markdown="$out/report.md"
log="$out/eval.log"
rm -f "$junit" "$markdown"

# Which ragjudge: the input, else the project's own install, else this action's copy (built once).
if [ -n "${RAGJUDGE_COMMAND:-}" ]; then
  read -r -a ragjudge <<<"$RAGJUDGE_COMMAND"
elif [ -x node_modules/.bin/ragjudge ]; then
  ragjudge=("$PWD/node_modules/.bin/ragjudge")
else
  if [ ! -f "$GITHUB_ACTION_PATH/dist/cli/ragjudge.js" ]; then
    echo "Installing ragjudge from the action (npm ci builds it)..."
    (cd "$GITHUB_ACTION_PATH" && npm ci --no-audit --no-fund) || exit 1
  fi
  ragjudge=(node "$GITHUB_ACTION_PATH/bin/ragjudge.js")
fi

args=(eval)
[ -n "${INPUT_ANSWERS:-}" ] && args+=(--answers "$INPUT_ANSWERS")
[ -n "${INPUT_QUESTIONS:-}" ] && args+=(--questions "$INPUT_QUESTIONS")
if [ -z "${INPUT_ANSWERS:-}" ]; then
  [ -n "${INPUT_COLLECTION:-}" ] && args+=(--collection "$INPUT_COLLECTION")
  [ -n "${INPUT_BOT:-}" ] && args+=(--bot "$INPUT_BOT")
  while IFS= read -r path; do
    [ -n "$path" ] && args+=(--docs "$path")
  done <<<"${INPUT_DOCS:-}"
fi
[ -n "${INPUT_JUDGE:-}" ] && args+=(--judge "$INPUT_JUDGE")

# The checks apply to both reports: the second command renders the finished run with them.
checks=()
[ -n "${INPUT_BASELINE:-}" ] && checks+=(--baseline "$INPUT_BASELINE")
[ -n "${INPUT_MIN_SCORE:-}" ] && checks+=(--min-score "$INPUT_MIN_SCORE")
[ -n "${INPUT_MIN_PASS_RATE:-}" ] && checks+=(--min-pass-rate "$INPUT_MIN_PASS_RATE")
[ -n "${INPUT_MAX_ERRORS:-}" ] && checks+=(--max-errors "$INPUT_MAX_ERRORS")
[ -n "${INPUT_TOLERANCE:-}" ] && checks+=(--tolerance "$INPUT_TOLERANCE")
[ -n "${INPUT_CONFIG:-}" ] && checks+=(--config "$INPUT_CONFIG")

"${ragjudge[@]}" "${args[@]}" "${checks[@]}" --format junit --out "$junit" 2>&1 | tee "$log"
code=${PIPESTATUS[0]}

id=$(sed -nE 's/^Evaluation ([0-9a-f-]{36}):.*/\1/p' "$log" | head -n 1)
if [ -n "$id" ]; then
  "${ragjudge[@]}" eval --resume "$id" "${checks[@]}" --format markdown --out "$markdown" >/dev/null 2>&1
  if [ -f "$markdown" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$markdown" >>"$GITHUB_STEP_SUMMARY"
  fi
fi

{
  echo "evaluation-id=$id"
  echo "exit-code=$code"
  echo "junit=$junit"
  echo "markdown=$markdown"
} >>"${GITHUB_OUTPUT:-/dev/null}"
echo "ragjudge eval exited with $code."
exit 0
