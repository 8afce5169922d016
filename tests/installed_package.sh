#!/usr/bin/env bash
# Test: the package as a user installs it (`pip install .`, not editable) in a fresh venv, run from a
# folder with no source in it: migrate, ingest the sample book, serve, and answer one /query.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --upgrade pip
"$work/venv/bin/python" -m pip install --quiet "$repo"
cp -r "$repo/book/docs" "$work/docs"
cd "$work"
export BOOK_DOCS_DIR="$work/docs" BOOK_ID="installed-package-check" DATA_DIR="$work/data"
bin="$work/venv/bin"
"$bin/bookrag" migrate
"$bin/bookrag" ingest >/dev/null
port=$("$bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin/bookrag" serve --port "$port" --log-level warning >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 600); do
  if "$bin/python" -c "import httpx,sys; sys.exit(httpx.get('http://127.0.0.1:$port/health').status_code != 200)" 2>/dev/null; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then cat "$work/serve.log"; exit 1; fi
  sleep 0.2
done
"$bin/python" - "$port" <<'PY'
import sys

import httpx

reply = httpx.post(
    f"http://127.0.0.1:{sys.argv[1]}/query",
    json={"question": "How do I start several ROS 2 nodes together?"},
    timeout=60,
)
body = reply.json()
assert reply.status_code == 200, (reply.status_code, body)
assert body["answer"] and body["sources"], body
print(f"installed package answers /query with {len(body['sources'])} source(s)")
PY
