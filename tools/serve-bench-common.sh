# Shared by tools/serve-bench.sh and tools/serve-tls-bench.sh: sourced, not run. The caller sets
# `name` (its name in messages), `binary`, `build` and `tools` (the commands it needs) first.
# It gives: a temporary $work with the scenario, the payload and nghttpd's file; `start_serve
# ARGS…` (sets serve_pid, control and token); `measure URL CLIENTS STREAMS COUNT [get]` (sets
# rate, p99, cpu and cipher); `cpu_ticks PID`; and a cleanup that stops both servers.

for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null || { echo "$name: $tool is needed (apt-get install nghttp2-client nghttp2-server openssl curl python3)" >&2; exit 1; }
done
[ "$build" -eq 0 ] || swift build -c release >&2
[ -x "$binary" ] || { echo "$name: no $binary (swift build -c release)" >&2; exit 1; }

work=$(mktemp -d)
serve_pid="" nghttpd_pid=""
cleanup() {
    [ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null || true
    [ -z "$nghttpd_pid" ] || kill "$nghttpd_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

cat > "$work/bench.json" <<JSON
{
  "name": "$name", "seed": 7, "start": "2026-01-05", "duration": "30d", "devices": 100,
  "mail": { "perDay": 24 },
  "connectivity": { "online": { "distribution": "exponential", "mean": "3h" },
                    "offline": { "distribution": "exponential", "mean": "1h" } },
  "strategies": [ { "name": "no-queue" } ]
}
JSON
payload=$work/payload.json
printf '%s' '{"aps":{"alert":{"title":"Hello","body":"A new mail from the benchmark"}}}' > "$payload"
mkdir -p "$work/www"
printf '%s' '{"ok":true}' > "$work/www/small"
headers=(-H "apns-topic: com.example.mail" -H "apns-push-type: alert" -H "apns-priority: 10")

# serve with the small scenario on free ports, plus the caller's options: waits for its address
# lines, then sets control (its control API's URL), apns_port and token (the first device's).
start_serve() { # extra serve options…
    "$binary" serve "$work/bench.json" --speed 1 --topic com.example.mail "$@" --listen 127.0.0.1:0 \
        --control 127.0.0.1:0 --out "$work/out" > "$work/serve.log" 2>&1 &
    serve_pid=$!
    for _ in $(seq 600); do grep -q '^control ' "$work/serve.log" && break; sleep 0.1; done
    apns_port=$(sed -n 's|^APNs .*127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/serve.log")
    local control_port
    control_port=$(sed -n 's|^control .*127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/serve.log")
    [ -n "$apns_port" ] && [ -n "$control_port" ] || { echo "$name: serve did not start:" >&2; cat "$work/serve.log" >&2; exit 1; }
    control=http://127.0.0.1:$control_port
    token=$(curl -s --max-time 20 "$control/devices" | python3 -c 'import json,sys; print(json.load(sys.stdin)["devices"][0]["token"])')
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

ticks_per_second=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }  # pid: its user + system time so far

# One h2load run against the server whose pid is $server: sets rate (req/s), p99 (ms), cpu (µs of
# the server's CPU time a request) and cipher (over TLS); ends the script when a request failed.
# A fifth argument "get" sends GETs without a body or APNs headers.
measure() { # url clients streams count [get]
    local out=$work/h2load.out log=$work/h2load.log before
    local request=(-d "$payload" "${headers[@]}")
    [ "${5:-}" != get ] || request=()
    rm -f "$log"
    before=$(cpu_ticks "$server")
    h2load -n "$4" -c "$2" -m "$3" "${request[@]}" --log-file "$log" "$1" > "$out" 2>&1
    cpu=$(awk -v t="$(( $(cpu_ticks "$server") - before ))" -v hz="$ticks_per_second" -v n="$4" 'BEGIN { printf "%.1f", t / hz / n * 1e6 }')
    if ! grep -q "requests: $4 total, $4 started, $4 done, $4 succeeded, 0 failed, 0 errored, 0 timeout" "$out"; then
        echo "$name: h2load had failures against $1:" >&2
        grep -E '^(requests|status codes):' "$out" >&2
        exit 1
    fi
    rate=$(sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p' "$out")
    cipher=$(sed -n 's/^Cipher: *//p' "$out" | head -1)
    # The log's third column is each request's time in microseconds.
    p99=$(cut -f3 "$log" | sort -n | awk '{ v[NR] = $1 } END { i = int(NR * 0.99 + 0.999999); if (i < 1) i = 1; printf "%.2f", v[i] / 1000 }')
}

# Asks serve to stop and checks that it exits 0.
stop_serve() {
    curl -s --max-time 20 -X POST "$control/stop" > /dev/null
    for _ in $(seq 600); do kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.1; done
    if wait "$serve_pid"; then echo "serve stopped (exit 0)"; else echo "$name: serve exited $?" >&2; exit 1; fi
    serve_pid=""
}
