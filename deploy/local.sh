#!/usr/bin/env bash
# nginx on 127.0.0.1:PORT in front of N replicas of the app, in the foreground, on this machine.
#
#   bash deploy/local.sh PORT N [app.py arguments...]
#
# Each replica is `python app.py --host 127.0.0.1 --port Q [arguments...]` on a free loopback port, named
# `replica-I` (env REPLICA); the environment passes through (WEBHOOK_SECRET, WANTED_SECRET,
# DATA_CHECK_SECONDS, ...). It prints `replica I pid P port Q` for each, then `nginx pid P port PORT` once
# every replica is ready, and stops everything on Ctrl-C or SIGTERM (or when nginx ends).
# The replicas trust nginx's X-Forwarded-For and X-Forwarded-Proto, which nginx writes itself
# (FORWARDED_ALLOW_IPS=127.0.0.1 unless set). /metrics is on each replica's port, not nginx's.
# NGINX=path picks another nginx, PYTHON=path another Python. Debian's nginx: apt-get install nginx.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 2 ] || ! [[ "$1" =~ ^[0-9]+$ ]] || ! [[ "$2" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: bash deploy/local.sh PORT N [app.py arguments...]" >&2
  exit 2
fi
PORT="$1"
COUNT="$2"
shift 2
PYTHON="${PYTHON:-$(command -v python || command -v python3)}"
NGINX="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"
if [ ! -x "$NGINX" ]; then
  echo "nginx not found (NGINX=$NGINX). On Debian or Ubuntu: sudo apt-get install -y nginx" >&2
  exit 1
fi
export FORWARDED_ALLOW_IPS="${FORWARDED_ALLOW_IPS:-127.0.0.1}"

RUN="$(mktemp -d "${TMPDIR:-/tmp}/torch-neuronx-local.XXXXXX")"
chmod 755 "$RUN"  # nginx's workers may run as another user than its master
PIDS=()

stop() {
  trap - INT TERM EXIT
  for pid in "${PIDS[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  rm -rf "$RUN"
}
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
trap stop EXIT

free_port() {
  "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

SERVERS=""
PORTS=()
for i in $(seq 1 "$COUNT"); do
  port="$(free_port)"
  REPLICA="replica-$i" "$PYTHON" app.py --host 127.0.0.1 --port "$port" "$@" &
  PIDS+=("$!")
  PORTS+=("$port")
  echo "replica $i pid $! port $port"
  SERVERS+="server 127.0.0.1:$port max_fails=1 fail_timeout=5s; "
done

# nginx is started once every replica says it is ready, so its first visitor is not turned away
for i in $(seq 1 "$COUNT"); do
  until "$PYTHON" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
      "http://127.0.0.1:${PORTS[$((i - 1))]}/readyz" 2>/dev/null; do
    if ! kill -0 "${PIDS[$((i - 1))]}" 2>/dev/null; then
      echo "replica $i exited before it was ready" >&2
      exit 1
    fi
    sleep 0.2
  done
done

sed -e "s|@@RUN@@|$RUN|g" -e "s|@@LISTEN@@|127.0.0.1:$PORT|g" -e "s|@@SERVERS@@|$SERVERS|g" \
  deploy/nginx.conf >"$RUN/nginx.conf"
# nginx reads env NGINX itself (sockets handed over on an upgrade): not the path this script was given
env -u NGINX "$NGINX" -p "$RUN" -c "$RUN/nginx.conf" -e stderr -g "daemon off;" &
NGINX_PID="$!"
PIDS+=("$NGINX_PID")
until "$PYTHON" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
    "http://127.0.0.1:$PORT/healthz" 2>/dev/null; do
  if ! kill -0 "$NGINX_PID" 2>/dev/null; then
    echo "nginx exited (is port $PORT free?)" >&2
    exit 1
  fi
  sleep 0.1
done
echo "nginx pid $NGINX_PID port $PORT"
wait "$NGINX_PID"
