#!/usr/bin/env bash
# fit-coverage.sh [TEAMS] [TEAM_DEVICES] [FIT_DEVICES] [GRID]: how often pushsim fit's 95%
# intervals hold the truth (docs/fit.md, "How well it covers"). A scenario with known
# values of two fields (Tests/Fixtures/fit-truth.json: offline mean 1h, 0.5 launches a day)
# is measured for TEAMS teams of TEAM_DEVICES devices (pushsim measure, seeds 1000+t); each
# team's figures are fitted on FIT_DEVICES devices (--seed 7+t) over
# connectivity.offline.mean=30m..2h and device.launches.perDay=0.25..1. The true
# deliverability is a run of 20,000 devices at the true values. Prints, per field and for
# every strategy's deliverability, the teams whose interval holds the truth.
# Defaults: 100 teams of 2,000 devices, fitted on 400, 7 points a field. Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
teams=${1:-100}; team_devices=${2:-2000}; fit_devices=${3:-400}; grid=${4:-7}
binary=${PUSHSIM:-.build/release/pushsim}
[ -x "$binary" ] || swift build -c release >&2
scenario=Tests/Fixtures/fit-truth.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$binary" run "$scenario" --set devices=20000 --seed 999 --out "$work/truth" --quiet --allow-large
jobs=${JOBS:-2}
for team in $(seq 0 $((teams - 1))); do
    (
        "$binary" measure "$scenario" --set devices="$team_devices" --seed $((1000 + team)) --out "$work/measured-$team.csv"
        "$binary" fit "$scenario" "$work/measured-$team.csv" --set devices="$fit_devices" --seed $((7 + team)) --grid "$grid" \
            --vary connectivity.offline.mean=30m..2h --vary device.launches.perDay=0.25..1 \
            --threads 1 --quiet --out "$work/fit-$team" 2> "$work/fit-$team.err" || true
    ) &
    if (( (team + 1) % jobs == 0 )); then wait; fi
done
wait
python3 - "$work" "$teams" <<'PY'
import csv, sys, os
work, teams = sys.argv[1], int(sys.argv[2])
truth = {r['strategy']: float(r['deliverability']) for r in csv.DictReader(open(f'{work}/truth/summary.csv'))}
fields = {'connectivity.offline.mean': 3600.0, 'device.launches.perDay': 0.5}
held = {name: 0 for name in list(fields) + [f'deliverability {s}' for s in truth]}
estimates = {name: [] for name in held}
errors = {name: [] for name in held}
fitted = 0; refused = []
for team in range(teams):
    folder = f'{work}/fit-{team}'
    if not os.path.exists(f'{folder}/fit-parameters.csv'):
        refused.append(open(f'{work}/fit-{team}.err').read().strip().splitlines()[-1]); continue
    fitted += 1
    for row in csv.DictReader(open(f'{folder}/fit-parameters.csv')):
        held[row['path']] += float(row['low']) <= fields[row['path']] <= float(row['high'])
        estimates[row['path']].append(float(row['estimate'])); errors[row['path']].append((float(row['high']) - float(row['low'])) / 3.92)
    for row in csv.DictReader(open(f'{folder}/fit-prediction.csv')):
        name = 'deliverability ' + row['strategy']
        held[name] += float(row['deliverability_low']) <= truth[row['strategy']] <= float(row['deliverability_high'])
        estimates[name].append(float(row['deliverability'])); errors[name].append(float(row['deliverability_se']))
print(f'{fitted} of {teams} teams fitted' + (f'; refused: {refused}' if refused else ''))
import statistics
values = dict(fields, **{f'deliverability {s}': v for s, v in truth.items()})
for name, count in held.items():
    e = estimates[name]
    spread = f'; estimates {statistics.mean(e):.6g} on average (truth {values[name]:.6g}), SD {statistics.stdev(e):.3g} over teams, mean SE {statistics.mean(errors[name]):.3g}' if len(e) > 1 else ''
    print(f'{name}: the 95% interval held the truth for {count} of {fitted} ({100 * count / max(fitted, 1):.0f}%){spread}')
print('true deliverability: ' + ', '.join(f'{s} {v:.6f}' for s, v in truth.items()))
PY
