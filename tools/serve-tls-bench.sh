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
name=serve-tls-bench tools=(h2load nghttpd openssl curl python3)
source tools/serve-bench-common.sh
start_serve --tls --tls-dir "$work/tls"

# nghttpd with TLS: its own P-256 key and self-signed certificate (h2load does not verify).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$work/nghttpd-key.pem" \
    -out "$work/nghttpd-cert.pem" -days 2 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 2>/dev/null
nghttpd_port=$(free_port)
nghttpd -d "$work/www" "$nghttpd_port" "$work/nghttpd-key.pem" "$work/nghttpd-cert.pem" > "$work/nghttpd.log" 2>&1 &
nghttpd_pid=$!
for _ in $(seq 100); do curl -sk --max-time 1 --http2 -o /dev/null "https://127.0.0.1:$nghttpd_port/small" && break; sleep 0.1; done

serve_url=https://127.0.0.1:$apns_port/3/device/$token
nghttpd_url=https://127.0.0.1:$nghttpd_port/small

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
stop_serve
