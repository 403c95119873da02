#!/usr/bin/env python3
"""Writes a synthetic bursty send log (docs/send-log.md) to standard output, time-ordered.

    tools/bursty-log.py --users 200 --days 14 --per-day 24 --mean-size 4 --gap 180 > log.csv

The bursty mail model of docs/model.md ("Mail in bursts"), drawn independently of the
simulator: per user, bursts start in each local hour as a Poisson count at
per-day / mean-size x the hour's weight (mean 1) x the weekend factor on Saturdays and
Sundays, uniformly within the hour; each burst is one thread holding a geometric number of
pushes (mean --mean-size), exponential gaps of mean --gap seconds apart. Pushes past the last
day are left out. Ids are hashed (16 hex digits). `pushsim describe-log` recovers the
parameters; the same arguments write the same bytes.
"""
import argparse
import datetime
import hashlib
import math
import random
import sys

# The hour-of-day weights of the shipped scenarios' mail: quiet nights, a working day.
DIURNAL = [0.2, 0.1, 0.1, 0.1, 0.1, 0.2, 0.5, 1.0, 1.6, 1.8, 1.7, 1.6,
           1.5, 1.6, 1.6, 1.5, 1.4, 1.3, 1.2, 1.1, 1.0, 0.8, 0.6, 0.4]


def poisson(rng, mean):
    limit, product, count = math.exp(-mean), rng.random(), 0
    while product > limit:
        count += 1
        product *= rng.random()
    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--start", default="2026-03-02", help="first day, YYYY-MM-DD (local midnight)")
    parser.add_argument("--days", type=int, default=14)
    parser.add_argument("--offset", default="+03:00", help="the zone's offset written on every row")
    parser.add_argument("--topic", default="ru.yandex.mail")
    parser.add_argument("--per-day", type=float, default=24.0, help="mean pushes a weekday per user")
    parser.add_argument("--weekend-factor", type=float, default=0.5)
    parser.add_argument("--flat", action="store_true", help="a flat day instead of the diurnal shape")
    parser.add_argument("--mean-size", type=float, default=4.0, help="mean pushes a burst (geometric)")
    parser.add_argument("--gap", type=float, default=180.0, help="mean seconds between a burst's pushes (exponential)")
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    weights = [1.0] * 24 if args.flat else DIURNAL
    mean_weight = sum(weights) / 24
    weights = [w / mean_weight for w in weights]
    start = datetime.datetime.fromisoformat(args.start)
    end = start + datetime.timedelta(days=args.days)
    go_on = 1 - 1 / args.mean_size
    rows = []
    thread = 0
    for user in range(args.users):
        uid = hashlib.sha256(f"bursty:{args.seed}:{user}".encode()).hexdigest()[:16]
        for day in range(args.days):
            midnight = start + datetime.timedelta(days=day)
            factor = args.weekend_factor if midnight.weekday() >= 5 else 1.0
            for hour in range(24):
                rate = args.per_day / args.mean_size * weights[hour] * factor / 24
                for _ in range(poisson(rng, rate)):
                    thread += 1
                    tid = hashlib.sha256(f"thread:{args.seed}:{thread}".encode()).hexdigest()[:12]
                    t = midnight + datetime.timedelta(hours=hour, seconds=rng.random() * 3600)
                    while t < end:
                        rows.append((t, uid, tid))
                        if rng.random() >= go_on:
                            break
                        t += datetime.timedelta(seconds=rng.expovariate(1 / args.gap))
    rows.sort()
    out = sys.stdout
    out.write("time,user,topic,thread\n")
    for t, uid, tid in rows:
        out.write(f"{t.strftime('%Y-%m-%dT%H:%M:%S.%f')}{args.offset},{uid},{args.topic},{tid}\n")


if __name__ == "__main__":
    main()
