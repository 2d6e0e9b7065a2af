#!/usr/bin/env bash
# The tests start a real PostgreSQL server (initdb + pg_ctl) in a temp dir: make sure its
# binaries exist, installing Debian's postgresql package when they do not.
set -euo pipefail

have_initdb() {
  command -v initdb >/dev/null 2>&1 && return 0
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null 2>&1
}

if have_initdb; then
  exit 0
fi

echo "ensure-postgres: initdb not found; installing the postgresql package" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-postgres: not root. Install PostgreSQL server binaries (e.g. apt-get install postgresql) and rerun." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# The package's own cluster is not needed; don't let its service scripts try to start one.
printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
trap 'rm -f /usr/sbin/policy-rc.d' EXIT
apt-get install -y -qq postgresql >/dev/null
have_initdb || { echo "ensure-postgres: postgresql installed but initdb still missing" >&2; exit 1; }
# initdb will not run as root: the tests run it as the postgres account the package created.
id postgres >/dev/null 2>&1 || { echo "ensure-postgres: no postgres account" >&2; exit 1; }
