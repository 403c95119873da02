#!/bin/sh
# The two-state model on one core: the plain C program of tools/two-states-floor.c (the
# floor) against `pushsim bench scenarios/two-states.json --threads 1`, in messages a second
# summed over the three strategies, the fastest of RUNS runs of each, and their ratio
# (issue 32's target: at least 0.25). The same program in Swift (tools/two-states-floor.swift)
# runs beside them: its ratio to the floor is the language's share of the distance, PushSim's
# to it the design's. docs/performance.md keeps the figures.
#
# usage: tools/two-states-floor.sh [DEVICES] [RUNS]      (defaults: 2000 devices, 5 runs)
set -eu
cd "$(dirname "$0")/.."
devices=${1:-2000}
runs=${2:-5}
mkdir -p .build
cc -O2 -o .build/two-states-floor tools/two-states-floor.c -lm
swiftc -O -o .build/two-states-floor-swift tools/two-states-floor.swift
[ -x .build/release/pushsim ] || swift build -c release --product pushsim
fastest() { sort -n | tail -1; }
floor=$(for _ in $(seq "$runs"); do
    .build/two-states-floor "$devices" 5 | awk '$1 == "messages/s" { print $2 }'
done | fastest)
swift=$(for _ in $(seq "$runs"); do
    .build/two-states-floor-swift "$devices" 5 | awk '$1 == "messages/s" { print $2 }'
done | fastest)
pushsim=$(for _ in $(seq "$runs"); do
    .build/release/pushsim bench scenarios/two-states.json --devices "$devices" --threads 1 | awk '$1 == "messages/s" { print $2 }'
done | fastest)
echo "C floor messages/s   $floor"
echo "Swift messages/s     $swift"
echo "pushsim messages/s   $pushsim"
awk -v s="$swift" -v f="$floor" 'BEGIN { printf "Swift / C            %.3f\n", s / f }'
awk -v p="$pushsim" -v f="$floor" 'BEGIN { printf "ratio                %.3f\n", p / f }'
