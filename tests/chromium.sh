#!/usr/bin/env bash
# Print the path of the Chromium the browser tests drive, installing it first where we can.
#
#   CHROMIUM set    that browser (an empty or missing path means none: the tests then skip, saying so)
#   otherwise       `chromium` or `chromium-browser` on PATH; when missing and root, apt-get installs
#                   it; when missing and not root, one line on stderr says exactly what to run
#
# stdout holds the path, or nothing when there is no Chromium. With CI=true a failed install is an
# error: CI must run every test.
set -uo pipefail

PACKAGES="chromium fonts-dejavu-core"

found() { command -v chromium || command -v chromium-browser; }

if [ -n "${CHROMIUM+set}" ]; then
  if [ -n "$CHROMIUM" ] && [ -x "$CHROMIUM" ]; then
    echo "$CHROMIUM"
  else
    echo "No Chromium at CHROMIUM='$CHROMIUM': the browser tests will be skipped (unset CHROMIUM to use the one on PATH)." >&2
  fi
  exit 0
fi
if found; then
  exit 0
fi
if [ "$(id -u)" = 0 ]; then
  echo "Chromium not found: installing it with apt-get ($PACKAGES)." >&2
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086  # PACKAGES is a list of package names
  if apt-get update -qq >&2 && apt-get install -y -qq $PACKAGES >&2 && found; then
    exit 0
  fi
  if [ "${CI:-}" = true ]; then
    echo "Chromium could not be installed with apt-get: CI needs it for the browser tests." >&2
    exit 1
  fi
  echo "Chromium could not be installed with apt-get: the browser tests will be skipped." >&2
  exit 0
fi
echo "Chromium not found: the browser tests will be skipped. To run them: sudo apt-get update && sudo apt-get install -y $PACKAGES" >&2
exit 0
