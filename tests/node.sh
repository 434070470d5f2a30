#!/usr/bin/env bash
# Print the path of a Node 24 or newer, installing it first where we can: the Space-like tests run the app
# as a Space does, with Gradio's server-side rendering asked for, and Gradio 6.31 needs Node 24 for it.
#
#   GRADIO_NODE_PATH set   that Node (an empty, missing or older one means none: the tests then skip, saying so)
#   otherwise              `node` on PATH when it is 24 or newer; else the copy in .node/ (gitignored; NODE_DIR
#                          for another folder), which `npm install node-<os>-<arch>@24` puts there from the npm
#                          registry when it is missing
#
# stdout holds the path, or nothing when there is no Node 24. With CI=true a missing Node is an error:
# CI must run every test. Quick when Node is already there: it only asks the binary for its version.
set -uo pipefail
cd "$(dirname "$0")/.."

MAJOR=24
DIR="${NODE_DIR:-$PWD/.node}"

major() { "$1" --version 2>/dev/null | sed -n 's/^v\([0-9][0-9]*\)\..*/\1/p'; }
fits() { [ -n "$1" ] && [ -x "$1" ] && [ "$(major "$1")" -ge "$MAJOR" ] 2>/dev/null; }
none() {
  if [ "${CI:-}" = true ]; then
    echo "$1: CI needs Node $MAJOR for the Space-like tests." >&2
    exit 1
  fi
  echo "$1: the Space-like tests will be skipped." >&2
  exit 0
}

if [ -n "${GRADIO_NODE_PATH+set}" ]; then
  if fits "$GRADIO_NODE_PATH"; then
    echo "$GRADIO_NODE_PATH"
    exit 0
  fi
  none "No Node $MAJOR or newer at GRADIO_NODE_PATH='$GRADIO_NODE_PATH' (unset it to find or install one)"
fi
if fits "$(command -v node)"; then
  command -v node
  exit 0
fi

case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) os="" ;; esac
case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch="" ;; esac
if [ -z "$os" ] || [ -z "$arch" ]; then
  none "Node $MAJOR not found, and the npm registry has no build for $(uname -s) $(uname -m)"
fi
PACKAGE="node-$os-$arch"
BINARY="$DIR/node_modules/$PACKAGE/bin/node"
if fits "$BINARY"; then
  echo "$BINARY"
  exit 0
fi
if ! command -v npm >/dev/null; then
  none "Node $MAJOR not found, and npm is missing to install it (sudo apt-get install -y npm)"
fi
echo "Node $MAJOR not found: installing it into $DIR from the npm registry ($PACKAGE@$MAJOR)." >&2
if npm install --prefix "$DIR" --no-audit --no-fund --no-save --loglevel=error "$PACKAGE@$MAJOR" >&2 && fits "$BINARY"; then
  echo "$BINARY"
  exit 0
fi
none "Node $MAJOR could not be installed with npm ($PACKAGE@$MAJOR)"
