#!/usr/bin/env bash
# fit-goodness.sh [SERIES] [TEAM_DEVICES] [FIT_DEVICES] [GRID] [EXTRA_SET]: how often pushsim
# fit's goodness check says "a poor fit" (docs/fit.md, "How often the goodness check cries
# wolf"). SERIES teams measure Tests/Fixtures/fit-truth.json (pushsim measure, TEAM_DEVICES
# devices, seeds SEED_BASE+t, default 2000) and each is fitted with the fixture over its two fields on
# FIT_DEVICES devices (--seed 7+t, GRID points a field). With no EXTRA_SET the teams are the
# model itself: the share said "poor" is the false-alarm rate. With EXTRA_SET (a --set the
# teams' truth has and the fit's scenario does not, e.g. device.launches.weekendFactor=0.35)
# the share is how often the check sees that misspecification.
# Defaults: 100 series of 2,000 devices, fitted on 400, 7 points a field. Release build.
# SUMMARY=FILE also writes one CSV row per series (seed, the chi-square, its degrees of freedom
# and p, the weekday check's Bonferroni p, weekends' z, the days' t degrees of freedom, the
# outlier days, the verdict), from which a level is read (docs/fit.md).
set -euo pipefail
cd "$(dirname "$0")/.."
series=${1:-100}; team_devices=${2:-2000}; fit_devices=${3:-400}; grid=${4:-7}; extra=${5:-}
binary=${PUSHSIM:-.build/release/pushsim}
[ -x "$binary" ] || swift build -c release >&2
scenario=Tests/Fixtures/fit-truth.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=${JOBS:-2}
for team in $(seq 0 $((series - 1))); do
    (
        "$binary" measure "$scenario" --set devices="$team_devices" ${extra:+--set "$extra"} --seed $((${SEED_BASE:-2000} + team)) \
            --out "$work/measured-$team.csv"
        "$binary" fit "$scenario" "$work/measured-$team.csv" --set devices="$fit_devices" --seed $((7 + team)) --grid "$grid" \
            --vary connectivity.offline.mean=30m..2h --vary device.launches.perDay=0.25..1 \
            --threads 1 --format json --out "$work/fit-$team" > "$work/fit-$team.json" 2> "$work/fit-$team.err" || true
    ) &
    if (( (team + 1) % jobs == 0 )); then wait; fi
done
wait
python3 - "$work" "$series" "${extra:-the model itself}" "${SUMMARY:-}" "${SEED_BASE:-2000}" <<'PY'
import csv, json, sys
work, series, truth, summary, seed_base = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
rows = []
poor = fitted = 0; refused = []; reasons = {}; pattern_p = []
for team in range(series):
    try:
        result = json.load(open(f'{work}/fit-{team}.json'))
    except (OSError, ValueError):
        refused.append(open(f'{work}/fit-{team}.err').read().strip().splitlines()[-1]); continue
    fitted += 1
    goodness = result['goodness']
    pattern_p.append(goodness['weekdayPatternP'])
    tail = result['dayErrors']['degreesOfFreedom']
    rows.append([seed_base + team, goodness['chiSquare'], goodness['degreesOfFreedom'], goodness['pValue'],
                 goodness['weekdayPatternP'], goodness['weekendZ'], 'inf' if tail is None else tail,
                 len(result['dayErrors']['outliers']), 'good' if goodness['good'] else 'poor'])
    if not goodness['good']:
        poor += 1
        for reason in goodness['reasons']: reasons[reason] = reasons.get(reason, 0) + 1
print(f'series from {truth}: {fitted} of {series} fitted' + (f'; refused: {refused}' if refused else ''))
levels = ", ".join(f"{sum(p < level for p in pattern_p)} under {level}" for level in (0.01, 0.025, 0.05, 0.1))
print(f'weekday patterns (Bonferroni p over the figures): {levels}')
print(f'"a poor fit": {poor} of {fitted} ({100 * poor / max(fitted, 1):.1f}%); by reason: {reasons}')
if summary:
    with open(summary, 'w', newline='') as file:
        writer = csv.writer(file)
        writer.writerow(['seed', 'chi_square', 'degrees_of_freedom', 'p', 'weekday_pattern_p', 'weekend_z', 'day_tail_df', 'outlier_days', 'verdict'])
        writer.writerows(rows)
PY
