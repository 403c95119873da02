#!/usr/bin/env python3
"""Do PushSim's 95% intervals cover the long-run rate, and does `diff` keep quiet
between two seeds of one scenario? (docs/statistics.md, "Checking the error bars")

    tools/coverage.py scenarios/provider-outage.json
    tools/coverage.py scenarios/mail-january-february.json \
        --set devices=300 --set duration=14d --set start=2026-01-28

Runs the scenario with seeds 1..N (N = --seeds, 80) and, for the long-run value,
with N other seeds (1,000,001..): the mean of those N runs' point estimates. Prints,
per strategy, how many of the first N runs' intervals hold it, then runs `pushsim
diff` on N/2 pairs of seeds (1 vs 2, 3 vs 4, ...) and counts the pairs it flags.
Standard library only; the pushsim binary is --binary (default: the release build).
"""
import argparse, csv, os, subprocess, sys, tempfile

def run(binary, scenario, seed, overrides, out, metric):
    command = [binary, "run", scenario, "--seed", str(seed), "--out", out, "--quiet"]
    for item in overrides:
        command += ["--set", item]
    subprocess.run(command, check=True)
    with open(os.path.join(out, "summary.csv"), newline="") as file:
        return {row["strategy"]: (float(row[metric]), float(row[metric + "_low"]), float(row[metric + "_high"]),
                                  float(row[metric + "_se"]))
                for row in csv.DictReader(file)}

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario")
    parser.add_argument("--seeds", type=int, default=80)
    parser.add_argument("--set", action="append", default=[], dest="overrides")
    parser.add_argument("--metric", default="deliverability")
    parser.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "pushsim"))
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="pushsim-coverage-")
    runs = {seed: run(args.binary, args.scenario, seed, args.overrides, os.path.join(work, str(seed)), args.metric)
            for seed in range(1, args.seeds + 1)}
    truth_runs = [run(args.binary, args.scenario, 1_000_000 + seed, args.overrides, os.path.join(work, "truth"), args.metric)
                  for seed in range(1, args.seeds + 1)]
    print(f"{args.scenario} {' '.join('--set ' + o for o in args.overrides)}: {args.metric}, {args.seeds} seeds")
    print(f"{'strategy':24} {'long-run':>9} {'± se':>8} {'covered':>9} {'share':>6} {'sd':>8} {'mean se':>8}")
    worst = []
    for label in runs[1]:
        values = [r[label][0] for r in truth_runs]
        mean = sum(values) / len(values)
        sd_truth = (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5
        covered = sum(1 for r in runs.values() if r[label][1] <= mean <= r[label][2])
        estimates = [r[label][0] for r in runs.values()]
        m = sum(estimates) / len(estimates)
        sd = (sum((v - m) ** 2 for v in estimates) / (len(estimates) - 1)) ** 0.5
        mean_se = sum(r[label][3] for r in runs.values()) / len(runs)
        share = covered / len(runs)
        worst.append(share)
        print(f"{label:24} {mean:9.5f} {sd_truth / len(values) ** 0.5:8.5f} {covered:5}/{len(runs):<3} {share:6.3f} {sd:8.5f} {mean_se:8.5f}")
    flagged = 0
    for first in range(1, args.seeds, 2):
        code = subprocess.run([args.binary, "diff", os.path.join(work, str(first)), os.path.join(work, str(first + 1)), "--quiet"]).returncode
        if code not in (0, 2):
            sys.exit(f"diff exited {code}")
        flagged += code == 2
    pairs = args.seeds // 2
    print(f"diff of two seeds flagged a change in {flagged} of {pairs} pairs ({flagged / pairs:.1%})")
    subprocess.run(["rm", "-rf", work])

if __name__ == "__main__":
    main()
