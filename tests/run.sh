#!/usr/bin/env bash
# The README's test command: set up what the tests need on a fresh Debian/Ubuntu machine, then run them.
#
#   bash tests/run.sh [PYTEST_ARGS...]
#
# Creates (or reuses) the virtual environment .venv (VENV=path for another), installs
# requirements-dev.txt into it, finds or installs Chromium (tests/chromium.sh), Node 24 (tests/node.sh) and
# nginx (tests/nginx.sh),
# runs ruff, then mypy, then pytest.
# .ci/run calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${VENV:-.venv}"

if [ ! -x "$VENV/bin/python" ]; then
  if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Python 3.11 or newer is needed as python3 (found: $(python3 --version 2>&1 || echo none))." >&2
    exit 1
  fi
  if ! python3 -m venv "$VENV" 2>/dev/null; then
    rm -rf "$VENV"
    if [ "$(id -u)" != 0 ]; then
      echo "python3 cannot create a virtual environment. First run: sudo apt-get update && sudo apt-get install -y python3-venv" >&2
      exit 1
    fi
    echo "Installing python3-venv with apt-get." >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$VENV"
  fi
  "$VENV/bin/python" -m pip install -q --upgrade pip
fi
"$VENV/bin/python" -m pip install -q -r requirements-dev.txt

# The browser tests drive this Chromium; an empty value makes them skip, each saying why.
CHROMIUM="$(bash tests/chromium.sh)"
export CHROMIUM
# The Space-like tests (tests/e2e/test_space.py) give this Node 24 to Gradio's server-side rendering, as a
# Space's image does; installed into .node/ from the npm registry when missing, and an empty value skips them.
GRADIO_NODE_PATH="$(bash tests/node.sh)"
export GRADIO_NODE_PATH
# The deployment tests (tests/e2e/test_replicas.py) run Debian's nginx in front of the app's replicas, as
# deploy/local.sh does: installed with apt-get when missing, as Chromium is; an empty value skips them.
NGINX="$(bash tests/nginx.sh)"
export NGINX

"$VENV/bin/ruff" check .
"$VENV/bin/ruff" format --check .
"$VENV/bin/mypy"
# Two pytest processes (pytest-xdist; PYTEST_WORKERS=N for another count, 0 for one process): the suite mostly
# waits on app processes and Chromium, so two halve its time on a 2-core machine. `--dist loadfile` keeps each
# test file in one process, so a module's shared app starts once.
"$VENV/bin/python" -m pytest -q -n "${PYTEST_WORKERS:-2}" --dist loadfile "$@"
