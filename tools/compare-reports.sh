#!/usr/bin/env bash
# Runs two pushsim binaries on every shipped scenario and compares their report folders
# byte for byte (diff -r): a speed change that keeps the draws must leave every file alike.
#
#   tools/compare-reports.sh BEFORE_BINARY AFTER_BINARY [DEVICES] [WORK_DIR]
#
# Cases (docs/performance.md): every scenario at DEVICES devices (default 200) with
# --threads 1 and 2 (busy-device.json for 2 days, scale-1m.json at 3,000 devices), mail in
# 3 shards merged, mail --trace 3,150, two-states --trace 0,7, and mail's rollout beside
# queue. run.json and report.html name the command line, so each binary runs from its own
# folder with the same arguments and relative output folders.
set -euo pipefail
before=$1; after=$2; devices=${3:-200}; work=${4:-/tmp/compare-reports}
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work"; mkdir -p "$work"
run_case() { # name, then pushsim arguments (the output folder is added); both sides at once
  local name=$1; shift
  local pids=()
  for side in before after; do
    local bin=$before; [ $side = after ] && bin=$after
    mkdir -p "$work/$side"
    (cd "$work/$side" && "$bin" "$@" --quiet --out "$name") &
    pids+=($!)
  done
  # A run that fails writes nothing on either side: that must not pass as "identical".
  for pid in "${pids[@]}"; do wait "$pid" || { echo "FAILED: $name ($*)"; exit 1; }; done
}
for f in "$root"/scenarios/*.json; do
  s=$(basename "$f" .json)
  size=(--set devices=$devices)
  case $s in
    busy-device) size=(--set duration=2d) ;;
    scale-1m) size=(--set devices=3000) ;;
  esac
  for t in 1 2; do run_case "$s-t$t" run "$root/scenarios/$s.json" "${size[@]}" --threads $t; done
done
run_case mail-trace run "$root"/scenarios/mail-january-february.json --set devices=$devices --threads 2 --trace 3,150
run_case two-states-trace run "$root"/scenarios/two-states.json --set devices=$devices --threads 1 --trace 0,7
run_case mail-rollout run "$root"/scenarios/mail-january-february.json --set devices=$devices --threads 1 --strategy rollout --strategy queue
for side in before after; do
  bin=$before; [ $side = after ] && bin=$after
  for k in 1 2 3; do
    (cd "$work/$side" && "$bin" run "$root"/scenarios/mail-january-february.json --shard $k/3 --threads 1 --quiet --out "shard$k")
  done
  (cd "$work/$side" && "$bin" merge shard1 shard2 shard3 --quiet --out mail-merged)
done
count=$(cd "$work/after" && find . -type f | wc -l)
if diff -r "$work/before" "$work/after" >"$work/diff.txt"; then
  echo "identical: $count files"
else
  echo "DIFFERENT ($count files): see $work/diff.txt"; head -20 "$work/diff.txt"; exit 1
fi
