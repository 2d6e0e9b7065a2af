#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through playwright-core (never Playwright's own
# browser download, which cannot work here): install the chromium package when it is missing.
set -euo pipefail

browser="${RAGJUDGE_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$browser" ]; then
  exit 0
fi

echo "ensure-chromium: $browser not found; installing the chromium package" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-chromium: not root. Install Chromium (e.g. apt-get install chromium) or set RAGJUDGE_CHROMIUM, and rerun." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# CJK fonts: the UI and the questions may be Chinese.
apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
[ -x "$browser" ] || { echo "ensure-chromium: chromium installed but $browser still missing" >&2; exit 1; }
