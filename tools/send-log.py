#!/usr/bin/env python3
"""Writes a synthetic send log (docs/send-log.md) to standard output, time-ordered.

    tools/send-log.py --rows 1000000 --users 10000 > /tmp/log.csv

Pushes come as a Poisson process over the window (--start, --days), at a rate that follows
the hour of day, each to a user drawn uniformly (--users), ids hashed (16 hex digits, as a
team would ship them). A share of them (--threads) continue a thread (collapse id and
thread id); a share (--background) are background pushes; a share (--other-topic) go to
another app. The same arguments write the same bytes. For benchmarks and the shipped example.
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--start", default="2026-03-02", help="first day, YYYY-MM-DD (local midnight)")
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--offset", default="+03:00", help="the zone's offset written on every row")
    parser.add_argument("--topic", default="ru.yandex.mail")
    parser.add_argument("--threads", type=float, default=0.3, help="share of pushes that continue a thread")
    parser.add_argument("--background", type=float, default=0.0, help="share of background pushes")
    parser.add_argument("--other-topic", type=float, default=0.0, help="share of pushes to another app")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    ids = [hashlib.sha256(f"{args.seed}:{u}".encode()).hexdigest()[:16] for u in range(args.users)]
    start = datetime.datetime.fromisoformat(args.start)
    seconds = args.days * 86400
    # Exactly --rows pushes, in time order: sorted uniforms from exponential spacings (their
    # sum drawn first from a copy of the stream), mapped through the hour weights' cumulative sum.
    spacing = random.Random(args.seed + 1)
    total = sum(spacing.expovariate(1.0) for _ in range(args.rows + 1))
    spacing = random.Random(args.seed + 1)
    hours = args.days * 24
    weight_total = sum(DIURNAL[h % 24] for h in range(hours))
    out = sys.stdout
    out.write("time,user,topic,collapse_id,thread,kind\n")
    buffer = []
    cumulative = 0.0
    hour = 0
    hour_start = 0.0
    last_thread = {}
    for _ in range(args.rows):
        cumulative += spacing.expovariate(1.0)
        target = cumulative / total * weight_total
        while hour < hours - 1 and target >= hour_start + DIURNAL[hour % 24]:
            hour_start += DIURNAL[hour % 24]
            hour += 1
        t = min(hour * 3600 + (target - hour_start) / DIURNAL[hour % 24] * 3600, seconds - 1e-6)
        user = rng.randrange(args.users)
        collapse = thread = ""
        if rng.random() < args.threads:
            thread_id = last_thread.setdefault(user, rng.randrange(1 << 30))
            thread = f"t{thread_id:x}"
            collapse = f"c{thread_id:x}"
        else:
            last_thread[user] = rng.randrange(1 << 30)
        kind = "background" if rng.random() < args.background else ""
        topic = "com.example.other" if rng.random() < args.other_topic else args.topic
        moment = start + datetime.timedelta(microseconds=int(t * 1e6))
        buffer.append(f"{moment.strftime('%Y-%m-%dT%H:%M:%S.%f')}{args.offset},{ids[user]},{topic},{collapse},{thread},{kind}\n")
        if len(buffer) >= 65536:
            out.write("".join(buffer))
            buffer.clear()
    out.write("".join(buffer))


if __name__ == "__main__":
    main()
