#!/usr/bin/env bash
# Schemathesis (PyPI) against the REST layer's OpenAPI document (/api/openapi.json) on a real
# server: generated requests to every operation, anonymous and as an admin, failing on any server
# error (5xx). Usage: scripts/api-fuzz.sh path/to/socio [examples-per-operation]
set -euo pipefail

binary="$1"
examples="${2:-25}"
venv="${SCHEMATHESIS_VENV:-$HOME/.cache/socio/schemathesis-4.32.5}"
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check schemathesis==4.32.5
fi

dir=$(mktemp -d)
mkdir -p "$dir/web" && echo '<!doctype html><title>Sócio</title>' > "$dir/web/index.html"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
SOCIO_ADDR="127.0.0.1:$port" PUBLIC_URL="$base" DATABASE_URL="sqlite://$dir/fuzz.db" SOCIO_WEB_DIR="$dir/web" \
  JWT_SECRET=fuzz-secret-that-is-long-enough-0123456789 ADMIN_PHONES=+5531999990000 RUST_LOG=error \
  WHATSAPP_BATCH_WINDOW_MS=50 "$binary" serve &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done

# An admin's token, through the real login: the code from the dev outbox.
curl -sf -X POST "$base/api/auth/send-code" -H 'content-type: application/json' -d '{"phoneNumber":"+5531999990000"}' >/dev/null
code=$(curl -sf "$base/api/dev/whatsapp/outbox?phone=%2B5531999990000" \
  | python3 -c 'import sys, json, re; m = [x for x in json.load(sys.stdin)["data"]["messages"] if x["kind"] == "login_code"][-1]; print(re.sub(r"\D", "", m["text"])[:6])')
token=$(curl -sf -X POST "$base/api/auth/verify-code" -H 'content-type: application/json' \
  -d "{\"phoneNumber\":\"+5531999990000\",\"verificationCode\":\"$code\"}" | python3 -c 'import sys, json; print(json.load(sys.stdin)["data"]["token"])')

# Runs Schemathesis with the extra arguments, its report in $dir/$1.txt; prints the summary (and
# any failure) and returns Schemathesis' own status.
run() {
  local report="$dir/$1.txt" status=0
  shift
  # The client runs on the real clock: under `faketime … make test` only the server's time is
  # moved (Python's threads wait forever on libfaketime's timed waits).
  env -u LD_PRELOAD "$venv/bin/schemathesis" run "$base/api/openapi.json" --checks not_a_server_error -n "$examples" \
    --request-timeout 10 --seed 20261121 --no-color "$@" > "$report" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then cat "$report"; else grep -A1 "Test cases:" "$report"; fi
  return "$status"
}
# The two runs at once (Schemathesis is one busy Python process; the machine has two cores), each
# printed whole when it ends.
run anonymous > "$dir/anonymous.out" &
anonymous=$!
run admin --exclude-path /api/auth/logout -H "Authorization: Bearer $token" > "$dir/admin.out" &
admin=$!
status=0
wait "$anonymous" || status=1
echo "schemathesis, anonymous:"
cat "$dir/anonymous.out"
wait "$admin" || status=1
echo "schemathesis, as an admin (logout left out: it would end the session under test):"
cat "$dir/admin.out"
exit "$status"
