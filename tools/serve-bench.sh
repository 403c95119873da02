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
name=serve-bench tools=(h2load nghttpd curl python3)
source tools/serve-bench-common.sh
start_serve

nghttpd_port=$(free_port)
nghttpd --no-tls -d "$work/www" "$nghttpd_port" > "$work/nghttpd.log" 2>&1 &
nghttpd_pid=$!
for _ in $(seq 100); do curl -s --max-time 1 --http2-prior-knowledge -o /dev/null "http://127.0.0.1:$nghttpd_port/small" && break; sleep 0.1; done

serve_url=http://127.0.0.1:$apns_port/3/device/$token
nghttpd_url=http://127.0.0.1:$nghttpd_port/small

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
stop_serve
