#!/usr/bin/env bash
# Print the path of Lighthouse's command line, installing it first into .lighthouse/ (gitignored; LIGHTHOUSE_DIR
# for another folder) from the npm registry when it is missing. It runs on the Node that tests/node.sh finds or
# installs (Lighthouse 13 needs Node 22 or newer).
#
# stdout holds "NODE LIGHTHOUSE_CLI", or nothing when either cannot be had (the Lighthouse tests then skip, saying
# so; with CI=true that is an error). Quick when Lighthouse is there: it only checks the file.
set -uo pipefail
cd "$(dirname "$0")/.."

VERSION=13
DIR="${LIGHTHOUSE_DIR:-$PWD/.lighthouse}"
CLI="$DIR/node_modules/lighthouse/cli/index.js"

none() {
  if [ "${CI:-}" = true ]; then
    echo "$1: CI needs Lighthouse for the Lighthouse tests." >&2
    exit 1
  fi
  echo "$1: the Lighthouse tests will be skipped." >&2
  exit 0
}

NODE="$(bash tests/node.sh)"
[ -n "$NODE" ] || none "No Node 24"
if [ ! -f "$CLI" ]; then
  command -v npm >/dev/null || none "npm is missing to install Lighthouse (sudo apt-get install -y npm)"
  echo "Installing Lighthouse $VERSION into $DIR from the npm registry." >&2
  npm install --prefix "$DIR" --no-audit --no-fund --no-save --loglevel=error "lighthouse@$VERSION" >&2 \
    || none "Lighthouse could not be installed with npm (lighthouse@$VERSION)"
fi
[ -f "$CLI" ] || none "Lighthouse is not at $CLI"
echo "$NODE $CLI"
