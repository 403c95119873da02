#!/usr/bin/env bash
# pushsim serve --tls under h2load over TLS, beside nghttpd with TLS as the reference server
# (docs/performance.md, "serve --tls under h2load"). Not a test: it measures and prints.
#
#   tools/serve-tls-bench.sh [--requests N] [--repeat R] [--no-build] [--binary PATH]
#
# Builds the release binary (unless --no-build or --binary), starts `pushsim serve --tls` (a small
# scenario, scaled clock, its local CA in a temporary --tls-dir, free loopback ports) and nghttpd
# with TLS (Debian's nghttp2-server, its own P-256 key and certificate made with openssl) serving a
# small file, and runs h2load over TLS (ALPN h2) against each, alternating, R times (default 3; the
# fastest run counts): at 1, 10 and 100 concurrent streams (-c1 -m1, -c1 -m10, -c10 -m10) with N
# requests (default 20,000), the same POST with an APNs payload and headers (to one token's path
# of serve, to the file of nghttpd); and the rate of new connections, `h2load -c 100 -n 100` (a
# TLS handshake and one request each). It prints requests/s, the p99 of that run's per-request
# times, the server's CPU time a request (utime + stime from /proc, the least of the runs), the
# ratio serve/nghttpd, and the cipher suite each negotiated. Then it stops both.
# Needs h2load and nghttpd (apt-get install nghttp2-client nghttp2-server), openssl, curl, python3.
set -euo pipefail
cd "$(dirname "$0")/.."

requests=20000 repeat=3 build=1 binary=.build/release/pushsim
while [ $# -gt 0 ]; do
    case $1 in
        --requests) requests=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        --binary) binary=$2; build=0; shift 2 ;;
        *) echo "usage: $0 [--requests N] [--repeat R] [--no-build] [--binary PATH]" >&2; exit 64 ;;
    esac
done
for tool in h2load nghttpd openssl curl python3; do
    command -v "$tool" >/dev/null || { echo "serve-tls-bench: $tool is needed (apt-get install nghttp2-client nghttp2-server openssl curl python3)" >&2; exit 1; }
done
[ "$build" -eq 0 ] || swift build -c release >&2
[ -x "$binary" ] || { echo "serve-tls-bench: no $binary (swift build -c release)" >&2; exit 1; }

work=$(mktemp -d)
serve_pid="" nghttpd_pid=""
cleanup() {
    [ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null || true
    [ -z "$nghttpd_pid" ] || kill "$nghttpd_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

cat > "$work/bench.json" <<'JSON'
{
  "name": "serve-tls-bench", "seed": 7, "start": "2026-01-05", "duration": "30d", "devices": 100,
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

"$binary" serve "$work/bench.json" --speed 1 --topic com.example.mail --tls --tls-dir "$work/tls" \
    --listen 127.0.0.1:0 --control 127.0.0.1:0 --out "$work/out" > "$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 600); do grep -q '^control ' "$work/serve.log" && break; sleep 0.1; done
apns_port=$(sed -n 's|^APNs .*127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/serve.log")
control_port=$(sed -n 's|^control .*127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/serve.log")
[ -n "$apns_port" ] && [ -n "$control_port" ] || { echo "serve-tls-bench: serve did not start:" >&2; cat "$work/serve.log" >&2; exit 1; }
control=http://127.0.0.1:$control_port
token=$(curl -s --max-time 20 "$control/devices" | python3 -c 'import json,sys; print(json.load(sys.stdin)["devices"][0]["token"])')

# nghttpd with TLS: its own P-256 key and self-signed certificate (h2load does not verify).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$work/nghttpd-key.pem" \
    -out "$work/nghttpd-cert.pem" -days 2 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 2>/dev/null
nghttpd_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
nghttpd -d "$work/www" "$nghttpd_port" "$work/nghttpd-key.pem" "$work/nghttpd-cert.pem" > "$work/nghttpd.log" 2>&1 &
nghttpd_pid=$!
for _ in $(seq 100); do curl -sk --max-time 1 --http2 -o /dev/null "https://127.0.0.1:$nghttpd_port/small" && break; sleep 0.1; done

serve_url=https://127.0.0.1:$apns_port/3/device/$token
nghttpd_url=https://127.0.0.1:$nghttpd_port/small

ticks_per_second=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }  # pid: its user + system time so far

# One h2load run against the server whose pid is $server: sets rate (req/s), p99 (ms), cpu (µs of
# the server's CPU time a request) and cipher; ends the script when a request failed.
measure() { # url clients streams count
    local out=$work/h2load.out log=$work/h2load.log before
    rm -f "$log"
    before=$(cpu_ticks "$server")
    h2load -n "$4" -c "$2" -m "$3" -d "$payload" "${headers[@]}" --log-file "$log" "$1" > "$out" 2>&1
    cpu=$(awk -v t="$(( $(cpu_ticks "$server") - before ))" -v hz="$ticks_per_second" -v n="$4" 'BEGIN { printf "%.1f", t / hz / n * 1e6 }')
    if ! grep -q "requests: $4 total, $4 started, $4 done, $4 succeeded, 0 failed, 0 errored, 0 timeout" "$out"; then
        echo "serve-tls-bench: h2load had failures against $1:" >&2
        grep -E '^(requests|status codes):' "$out" >&2
        exit 1
    fi
    rate=$(sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p' "$out")
    cipher=$(sed -n 's/^Cipher: *//p' "$out" | head -1)
    p99=$(cut -f3 "$log" | sort -n | awk '{ v[NR] = $1 } END { i = int(NR * 0.99 + 0.999999); if (i < 1) i = 1; printf "%.2f", v[i] / 1000 }')
}

# The best of $repeat runs of one shape against both, printed as a row.
row() { # label clients streams count
    local serve_rate=0 nghttpd_rate=0 serve_cpu=1e9 nghttpd_cpu=1e9 serve_p99="" nghttpd_p99=""
    for _ in $(seq "$repeat"); do
        server=$serve_pid measure "$serve_url" "$2" "$3" "$4"
        if awk -v a="$rate" -v b="$serve_rate" 'BEGIN { exit !(a > b) }'; then serve_rate=$rate serve_p99=$p99; fi
        serve_cpu=$(awk -v a="$cpu" -v b="$serve_cpu" 'BEGIN { print (a < b ? a : b) }')
        serve_cipher=$cipher
        server=$nghttpd_pid measure "$nghttpd_url" "$2" "$3" "$4"
        if awk -v a="$rate" -v b="$nghttpd_rate" 'BEGIN { exit !(a > b) }'; then nghttpd_rate=$rate nghttpd_p99=$p99; fi
        nghttpd_cpu=$(awk -v a="$cpu" -v b="$nghttpd_cpu" 'BEGIN { print (a < b ? a : b) }')
        nghttpd_cipher=$cipher
    done
    printf '%-28s %12s %7s %8s %14s %7s %8s %6s\n' "$1" "$serve_rate" "$serve_p99" "$serve_cpu" "$nghttpd_rate" "$nghttpd_p99" \
        "$nghttpd_cpu" "$(awk -v a="$serve_rate" -v b="$nghttpd_rate" 'BEGIN { printf "%.2f", a / b }')"
}

echo "serve-tls-bench: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d), $(nproc) cores, $("$binary" --version 2>/dev/null | head -1), $(nghttpd --version 2>/dev/null | head -1)"
echo "serve $serve_url; nghttpd $nghttpd_url; $requests requests a run, the fastest of $repeat"
server=$serve_pid measure "$serve_url" 10 10 2000     # warm-up, not measured
server=$nghttpd_pid measure "$nghttpd_url" 10 10 2000
printf '%-28s %12s %7s %8s %14s %7s %8s %6s\n' "h2load over TLS" "serve req/s" "p99 ms" "CPU µs" "nghttpd req/s" "p99 ms" "CPU µs" "ratio"
row "-c1 -m1 (1 stream)" 1 1 "$requests"
row "-c1 -m10 (10 streams)" 1 10 "$requests"
row "-c10 -m10 (100 streams)" 10 10 "$requests"
row "-c100 -n100 (new conns)" 100 1 100
echo "cipher suites: serve $serve_cipher, nghttpd $nghttpd_cipher"
curl -s --max-time 20 -X POST "$control/stop" > /dev/null
for _ in $(seq 600); do kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.1; done
if wait "$serve_pid"; then echo "serve stopped (exit 0)"; else echo "serve-tls-bench: serve exited $?" >&2; exit 1; fi
serve_pid=""
