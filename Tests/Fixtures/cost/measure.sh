#!/usr/bin/env bash
# Peak memory of the cost estimate's cases, against the estimate `validate` prints: a
# benchmark recipe, not a test (no test measures time or memory). Record the figures in
# docs/performance.md, newest first; ScenarioCostTests holds the estimate within 1.5× of them.
#
#   swift build -c release && Tests/Fixtures/cost/measure.sh [path/to/pushsim]
#
# Needs GNU time (/usr/bin/time -v; Debian/Ubuntu: apt-get install -y time). The 4,000-day
# run takes about two minutes and 1.8 GB.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pushsim=${1:-$here/../../../.build/release/pushsim}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Peak resident memory of one command in MiB (time -v reports KiB).
peak() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk '/Maximum resident/ { printf "%.1f", $6 / 1024 }'; }
# The estimate's memory in MiB, as validate words it ("about N MB of memory").
estimate() { "$pushsim" validate "$1" | sed -n 's/.*about \([0-9,]*\) MB of memory.*/\1/p' | tr -d ,; }

printf '%-44s %12s %12s\n' case "measured MiB" "estimate MiB"
for duration in 1d 2d 4d; do
  scenario=$out/rotations-$duration.json
  sed "s/\"duration\": \"1d\"/\"duration\": \"$duration\"/" "$here/token-rotations.json" > "$scenario"
  printf '%-44s %12s %12s\n' "token-rotations, $duration, run --threads 1" \
    "$(peak "$pushsim" run "$scenario" --threads 1 --out "$out/r" --quiet)" "$(estimate "$scenario")"
done
for duration in 1000d 2000d 4000d; do
  scenario=$out/strategy-days-$duration.json
  sed "s/\"duration\": \"4000d\"/\"duration\": \"$duration\"/" "$here/strategy-days.json" > "$scenario"
  printf '%-44s %12s %12s\n' "strategy-days, $duration, run --threads 1" \
    "$(peak "$pushsim" run "$scenario" --threads 1 --out "$out/s" --quiet)" "$(estimate "$scenario")"
done
# Two threads need two blocks of users (64 each): bench on 128 devices, a thousand days.
sed 's/"duration": "4000d"/"duration": "1000d"/; s/"devices": 1,/"devices": 128,/' "$here/strategy-days.json" > "$out/sd2.json"
printf '%-44s %12s %12s\n' "strategy-days, 1000d, 128 devices, bench 2 thr" \
  "$(peak "$pushsim" bench "$out/sd2.json" --threads 2)" "$(estimate "$out/sd2.json")"
# (validate estimates on as many threads as the machine has CPUs: 2 threads on a 2-CPU machine.)
