#!/usr/bin/env bash
# Print the path of the nginx the deployment tests run (tests/e2e/test_replicas.py), installing it first
# where we can, as tests/chromium.sh does for Chromium.
#
#   NGINX set       that nginx (an empty or missing path means none: the tests then skip, saying so)
#   otherwise       `nginx` on PATH or /usr/sbin/nginx; when missing and root, apt-get installs Debian's
#                   package; when missing and not root, one line on stderr says exactly what to run
#
# stdout holds the path, or nothing when there is no nginx. With CI=true a failed install is an error.
set -uo pipefail

PACKAGES="nginx"
SBIN="${SBIN:-/usr/sbin}"  # where Debian puts it, which is not on a user's PATH

found() { command -v nginx || { [ -x "$SBIN/nginx" ] && echo "$SBIN/nginx"; }; }

if [ -n "${NGINX+set}" ]; then
  if [ -n "$NGINX" ] && [ -x "$NGINX" ]; then
    echo "$NGINX"
  else
    echo "No nginx at NGINX='$NGINX': the deployment tests will be skipped (unset NGINX to use the one on PATH)." >&2
  fi
  exit 0
fi
if found; then
  exit 0
fi
if [ "$(id -u)" = 0 ]; then
  echo "nginx not found: installing it with apt-get ($PACKAGES)." >&2
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086  # PACKAGES is a list of package names
  if apt-get update -qq >&2 && apt-get install -y -qq $PACKAGES >&2 && found; then
    exit 0
  fi
  if [ "${CI:-}" = true ]; then
    echo "nginx could not be installed with apt-get: CI needs it for the deployment tests." >&2
    exit 1
  fi
  echo "nginx could not be installed with apt-get: the deployment tests will be skipped." >&2
  exit 0
fi
if [ "${CI:-}" = true ]; then
  echo "nginx not found and not root to install it: CI needs it for the deployment tests." >&2
  exit 1
fi
echo "nginx not found: the deployment tests will be skipped. To run them: sudo apt-get update && sudo apt-get install -y $PACKAGES" >&2
exit 0
