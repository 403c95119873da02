#!/usr/bin/env bash
# pushsim serve under h2load, beside nghttpd as the reference HTTP/2 server (docs/performance.md,
# "serve under h2load"). Not a test: it measures and prints.
#
#   tools/serve-bench.sh [--requests N] [--repeat R] [--million N] [--no-build] [--binary PATH]
#
# Builds the release binary (unless --no-build or --binary), starts `pushsim serve` (a small
# scenario, scaled clock at --speed 1, free loopback ports) and `nghttpd --no-tls` serving a small
# file, and runs h2load against each at 1, 10 and 100 concurrent streams (-c1 -m1, -c1 -m10,
# -c10 -m10), N requests each (default 100,000): the same POST with an APNs payload and headers
# to one token's path of serve and to the file of nghttpd, alternating, R times (default 3; the
# fastest run counts, as other work on the machine only slows a run down). It prints requests/s
# and the p99 of that run's per-request times (h2load --log-file), the server's CPU time per
# request (utime + stime from /proc, the least of the runs: what other work on the machine
# changes least), the ratio serve/nghttpd of requests/s,
# nghttpd's rate for plain GETs at -c10 -m10 (the usual reference figure), and serve's VmRSS/VmHWM
# (/proc) before and after a run of --million requests (default 1,000,000) at -c10 -m10, which
# must end with no failed request and serve still answering. Then it stops both.
# Needs h2load and nghttpd (apt-get install nghttp2-client nghttp2-server), curl, python3.
set -euo pipefail
cd "$(dirname "$0")/.."

requests=100000 repeat=3 million=1000000 build=1 binary=.build/release/pushsim
while [ $# -gt 0 ]; do
    case $1 in
        --requests) requests=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --million) million=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        --binary) binary=$2; build=0; shift 2 ;;
        *) echo "usage: $0 [--requests N] [--repeat R] [--million N] [--no-build] [--binary PATH]" >&2; exit 64 ;;
    esac
done
for tool in h2load nghttpd curl python3; do
    command -v "$tool" >/dev/null || { echo "serve-bench: $tool is needed (apt-get install nghttp2-client nghttp2-server curl python3)" >&2; exit 1; }
done
[ "$build" -eq 0 ] || swift build -c release >&2
[ -x "$binary" ] || { echo "serve-bench: no $binary (swift build -c release)" >&2; exit 1; }

work=$(mktemp -d)
serve_pid="" nghttpd_pid=""
cleanup() {
    [ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null || true
    [ -z "$nghttpd_pid" ] || kill "$nghttpd_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

cat > "$work/bench.json" <<'EOF'
{
  "name": "serve-bench", "seed": 7, "start": "2026-01-05", "duration": "30d", "devices": 100,
  "mail": { "perDay": 24 },
  "connectivity": { "online": { "distribution": "exponential", "mean": "3h" },
                    "offline": { "distribution": "exponential", "mean": "1h" } },
  "strategies": [ { "name": "no-queue" } ]
}
EOF
payload=$work/payload.json
printf '%s' '{"aps":{"alert":{"title":"Hello","body":"A new mail from the benchmark"}}}' > "$payload"
mkdir -p "$work/www"
printf '%s' '{"ok":true}' > "$work/www/small"
headers=(-H "apns-topic: com.example.mail" -H "apns-push-type: alert" -H "apns-priority: 10")

# serve, on free ports: wait for its address lines.
"$binary" serve "$work/bench.json" --speed 1 --topic com.example.mail --listen 127.0.0.1:0 --control 127.0.0.1:0 \
    --out "$work/out" > "$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 600); do grep -q '^control ' "$work/serve.log" && break; sleep 0.1; done
apns_port=$(sed -n 's|^APNs .*127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/serve.log")
control_port=$(sed -n 's|^control .*127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/serve.log")
[ -n "$apns_port" ] && [ -n "$control_port" ] || { echo "serve-bench: serve did not start:" >&2; cat "$work/serve.log" >&2; exit 1; }
control=http://127.0.0.1:$control_port
token=$(curl -s --max-time 20 "$control/devices" | python3 -c 'import json,sys; print(json.load(sys.stdin)["devices"][0]["token"])')

# nghttpd on a free port.
nghttpd_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
nghttpd --no-tls -d "$work/www" "$nghttpd_port" > "$work/nghttpd.log" 2>&1 &
nghttpd_pid=$!
for _ in $(seq 100); do curl -s --max-time 1 --http2-prior-knowledge -o /dev/null "http://127.0.0.1:$nghttpd_port/small" && break; sleep 0.1; done

serve_url=http://127.0.0.1:$apns_port/3/device/$token
nghttpd_url=http://127.0.0.1:$nghttpd_port/small

ticks_per_second=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }  # pid: its user + system time so far

# One h2load run against the server whose pid is $server: sets rate (req/s), p99 (ms) and cpu
# (µs of the server's CPU time a request); ends the script when a request failed. A fifth
# argument "get" sends GETs without a body or APNs headers.
measure() { # url clients streams count [get]
    local out=$work/h2load.out log=$work/h2load.log before
    local request=(-d "$payload" "${headers[@]}")
    [ "${5:-}" != get ] || request=()
    rm -f "$log"
    before=$(cpu_ticks "$server")
    h2load -n "$4" -c "$2" -m "$3" "${request[@]}" --log-file "$log" "$1" > "$out" 2>&1
    cpu=$(awk -v t="$(( $(cpu_ticks "$server") - before ))" -v hz="$ticks_per_second" -v n="$4" 'BEGIN { printf "%.1f", t / hz / n * 1e6 }')
    if ! grep -q "requests: $4 total, $4 started, $4 done, $4 succeeded, 0 failed, 0 errored, 0 timeout" "$out"; then
        echo "serve-bench: h2load had failures against $1:" >&2
        grep -E '^(requests|status codes):' "$out" >&2
        exit 1
    fi
    rate=$(sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p' "$out")
    # The log's third column is each request's time in microseconds.
    p99=$(cut -f3 "$log" | sort -n | awk '{ v[NR] = $1 } END { i = int(NR * 0.99 + 0.999999); if (i < 1) i = 1; printf "%.2f", v[i] / 1000 }')
}

memory() { # "VmRSS VmHWM" of serve, in MB
    awk '/^VmRSS|^VmHWM/ { v[$1] = $2 } END { printf "%.1f MB RSS, %.1f MB peak", v["VmRSS:"] / 1024, v["VmHWM:"] / 1024 }' "/proc/$serve_pid/status"
}

echo "serve-bench: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d), $(nproc) cores, $("$binary" --version 2>/dev/null | head -1)"
echo "serve $serve_url; nghttpd $nghttpd_url; $requests requests a run, the fastest of $repeat"
# A short warm-up for both, not measured.
server=$serve_pid measure "$serve_url" 10 10 10000
server=$nghttpd_pid measure "$nghttpd_url" 10 10 10000
printf '%-24s %12s %7s %8s %14s %7s %8s %6s\n' "h2load" "serve req/s" "p99 ms" "CPU µs" "nghttpd req/s" "p99 ms" "CPU µs" "ratio"
for shape in "1 1" "1 10" "10 10"; do
    set -- $shape
    serve_rate=0 nghttpd_rate=0 serve_cpu=1e9 nghttpd_cpu=1e9
    for _ in $(seq "$repeat"); do
        server=$serve_pid measure "$serve_url" "$1" "$2" "$requests"
        if awk -v a="$rate" -v b="$serve_rate" 'BEGIN { exit !(a > b) }'; then serve_rate=$rate serve_p99=$p99; fi
        serve_cpu=$(awk -v a="$cpu" -v b="$serve_cpu" 'BEGIN { print (a < b ? a : b) }')
        server=$nghttpd_pid measure "$nghttpd_url" "$1" "$2" "$requests"
        if awk -v a="$rate" -v b="$nghttpd_rate" 'BEGIN { exit !(a > b) }'; then nghttpd_rate=$rate nghttpd_p99=$p99; fi
        nghttpd_cpu=$(awk -v a="$cpu" -v b="$nghttpd_cpu" 'BEGIN { print (a < b ? a : b) }')
    done
    ratio=$(awk -v a="$serve_rate" -v b="$nghttpd_rate" 'BEGIN { printf "%.2f", a / b }')
    printf '%-24s %12s %7s %8s %14s %7s %8s %6s\n' "-c$1 -m$2 ($(( $1 * $2 )) streams)" "$serve_rate" "$serve_p99" "$serve_cpu" \
        "$nghttpd_rate" "$nghttpd_p99" "$nghttpd_cpu" "$ratio"
done

get_rate=0 get_cpu=1e9
for _ in $(seq "$repeat"); do
    server=$nghttpd_pid measure "$nghttpd_url" 10 10 "$requests" get
    if awk -v a="$rate" -v b="$get_rate" 'BEGIN { exit !(a > b) }'; then get_rate=$rate get_p99=$p99; fi
    get_cpu=$(awk -v a="$cpu" -v b="$get_cpu" 'BEGIN { print (a < b ? a : b) }')
done
echo "nghttpd, GET -c10 -m10: $get_rate req/s, p99 $get_p99 ms, CPU $get_cpu µs a request; serve's -c10 -m10 POSTs are $(awk -v a="$serve_rate" -v b="$get_rate" 'BEGIN { printf "%.2f", a / b }') of it"

echo "serve memory before $million requests: $(memory)"
out=$work/million.out
start=$(date +%s.%N) before=$(cpu_ticks "$serve_pid")
h2load -n "$million" -c 10 -m 10 -d "$payload" "${headers[@]}" "$serve_url" > "$out" 2>&1
seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
grep -E '^(finished in|requests:|status codes:)' "$out"
echo "serve memory after $million requests: $(memory) (${seconds} s, CPU $(awk -v t="$(( $(cpu_ticks "$serve_pid") - before ))" -v hz="$ticks_per_second" -v n="$million" 'BEGIN { printf "%.1f", t / hz / n * 1e6 }') µs a request)"
grep -q "requests: $million total, $million started, $million done, $million succeeded, 0 failed, 0 errored, 0 timeout" "$out" \
    || { echo "serve-bench: the $million-request run had failures" >&2; exit 1; }
curl -s --max-time 20 "$control/counters" | python3 -c '
import json, sys
counters = json.load(sys.stdin)
print("serve still answers: GET /counters, answers", json.dumps(counters["answers"], sort_keys=True))'
curl -s --max-time 20 -X POST "$control/stop" > /dev/null
for _ in $(seq 600); do kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.1; done
if wait "$serve_pid"; then echo "serve stopped (exit 0)"; else echo "serve-bench: serve exited $?" >&2; exit 1; fi
serve_pid=""
