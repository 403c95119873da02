/*
 * two-states-floor.c: the speed floor for PushSim's engine (issue 32, "The engine per core").
 *
 * A plain C program of scenarios/two-states.json: 500 users over 28 days, Poisson mail at
 * 48 a day, connectivity alternating exponential online (mean 3 h) and offline (mean 1 h)
 * periods from their stationary start, no latency; APNs's one-slot storage for an offline
 * device (the newest replaces the stored one, which is lost); and the three strategies'
 * extension logic: no-queue (shows what comes), queue (saves every newer position; a gap of
 * at most 5 is re-requested and the provider re-sends it, a larger one is summarised) and
 * queue-as-published (saves a position only when it finds a gap). Every message of every
 * strategy ends in one bucket: delivered, summarized, pending (in APNs's slot at the end)
 * or lost. No event heap: each user's mail and connectivity are drawn once, merged by time
 * (connectivity first at one instant, as PushSim's timeline), and the three strategies are
 * played in lockstep over them. The draws are PushSim's own streams (SplitMix64 seeded from
 * the scenario's seed, the user and the purpose: mail, connectivity), so at 500 devices
 * its counts are those of `pushsim run scenarios/two-states.json` (messages, delivered,
 * summarised, lost, pushes, re-requests): it does the same work.
 *
 * It prints each strategy's rates, then its exact counts on lines `counts name,messages,delivered,
 * summarized,lost,pending,pushes,rerequests` (.ci/run checks them against `pushsim run`'s
 * summary.csv), and, as `pushsim bench` does, messages summed over the strategies and
 * messages/s on one core; under `valgrind --tool=callgrind`, instructions per message.
 * tools/two-states-floor.swift is the same program in Swift.
 *
 * Build and run (tools/two-states-floor.sh builds all three and prints the ratios; docs/performance.md):
 *   cc -O2 -o /tmp/two-states-floor tools/two-states-floor.c -lm
 *   /tmp/two-states-floor [devices] [repeats]      # defaults: 500 devices, 20 repeats
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MICROS_PER_HOUR 3600000000.0
#define MICROS_PER_DAY (24.0 * MICROS_PER_HOUR)
#define STRATEGIES 3
#define REPEAT_MAX_COUNT 5

enum { NO_QUEUE, QUEUE, QUEUE_AS_PUBLISHED };
enum { SHOWN = 1, SUMMARIZED = 2 };

typedef struct { uint64_t state; } splitmix64;

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static inline uint64_t next64(splitmix64 *r) { r->state += 0x9e3779b97f4a7c15ULL; return mix(r->state); }
/* (0, 1], never 0: log of it is finite. */
static inline double unit(splitmix64 *r) { return (double)((next64(r) >> 11) + 1) * 0x1.0p-53; }
static inline int64_t exponential(splitmix64 *r, double mean) {
    double gap = ceil(-mean * log(unit(r)));
    return gap < 1 ? 1 : (int64_t)gap;
}
static splitmix64 stream(uint64_t seed, uint64_t user, uint64_t purpose) {
    splitmix64 r = { mix(mix(seed ^ 0x5053494d) + user) ^ (purpose * 0x9e3779b97f4a7c15ULL) };
    return r;
}

/* One strategy's world for one user: APNs's slot, the provider's numbering, the extension's
 * saved position, and each message's fate. */
typedef struct {
    int kind;
    int32_t stored;        /* message in APNs's slot, -1: none */
    int32_t storedResend;
    int32_t lastPosition;  /* provider: last position handed out (position p is message p - 1) */
    int32_t saved;         /* extension: saved position, 0: none */
    int64_t pushes, rerequests;
    int64_t delivered, summarized, pending, lost;
} world;

static uint8_t *fate[STRATEGIES];
static int32_t fateCapacity;

/* The extension shows message m's own notification. */
static inline void show(uint8_t *f, int32_t m) { f[m] |= SHOWN; }

/* A push of message m reaches the online device (the queue's extension logic). */
static void receive(world *w, uint8_t *f, int32_t m, int resend);

static void resend(world *w, uint8_t *f, int32_t from, int32_t to) {
    /* The provider re-sends positions from…to; APNs hands each to the online device at once. */
    for (int32_t p = from; p <= to; p++) { w->pushes++; receive(w, f, p - 1, 1); }
}

static void receive(world *w, uint8_t *f, int32_t m, int resend_) {
    (void)resend_;
    if (w->kind == NO_QUEUE) { show(f, m); return; }
    int32_t p = m + 1;
    if (w->saved == 0) { w->saved = p; show(f, m); return; }
    int32_t missed = p - w->saved - 1;
    if (missed <= 0) {
        if (w->kind == QUEUE && p > w->saved) w->saved = p;
        show(f, m);
        return;
    }
    int32_t first = w->saved + 1;
    w->saved = p;
    if (missed > REPEAT_MAX_COUNT) {
        for (int32_t q = first; q <= p; q++) f[q - 1] |= SUMMARIZED;
        return;
    }
    w->rerequests++;
    /* The answer (ok) shows the push; the re-sent positions follow through APNs. */
    show(f, m);
    resend(w, f, first, p - 1);
}

/* A new mail, message m, while the device is online or not. */
static inline void mail(world *w, uint8_t *f, int32_t m, int online) {
    w->pushes++;
    w->lastPosition++;
    if (online) { receive(w, f, m, 0); return; }
    w->stored = m;   /* the newest replaces the stored one, whose copy is lost */
}

static inline void reconnect(world *w, uint8_t *f) {
    if (w->stored >= 0) { int32_t m = w->stored; w->stored = -1; receive(w, f, m, 0); }
}

int main(int argc, char **argv) {
    int devices = argc > 1 ? atoi(argv[1]) : 500;
    int repeats = argc > 2 ? atoi(argv[2]) : 20;
    const uint64_t seed = 7;
    const double horizon = 28 * MICROS_PER_DAY;
    const double mailMean = MICROS_PER_DAY / 48, onMean = 3 * MICROS_PER_HOUR, offMean = 1 * MICROS_PER_HOUR;
    fateCapacity = 1 << 12;
    for (int s = 0; s < STRATEGIES; s++) fate[s] = malloc(fateCapacity);
    world totals[STRATEGIES];
    int64_t messages = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int repeat = 0; repeat < repeats; repeat++) {
        memset(totals, 0, sizeof totals);
        messages = 0;
        for (int user = 0; user < devices; user++) {
            splitmix64 mailRandom = stream(seed, user, 1), connectivityRandom = stream(seed, user, 2);
            world w[STRATEGIES];
            for (int s = 0; s < STRATEGIES; s++) {
                memset(&w[s], 0, sizeof w[s]);
                w[s].kind = s;
                w[s].stored = -1;
            }
            /* The stationary start: online with probability E[on] / (E[on] + E[off]), then
             * what is left of the period (memoryless: a whole exponential period). */
            int online = unit(&connectivityRandom) * (onMean + offMean) <= onMean;
            int64_t flip = exponential(&connectivityRandom, online ? onMean : offMean);
            int64_t nextMail = exponential(&mailRandom, mailMean);
            int32_t m = 0;
            for (;;) {
                if (flip <= nextMail && flip < horizon) {
                    online = !online;
                    if (online) for (int s = 0; s < STRATEGIES; s++) reconnect(&w[s], fate[s]);
                    flip += exponential(&connectivityRandom, online ? onMean : offMean);
                    continue;
                }
                if (nextMail >= horizon) break;
                if (m == fateCapacity) {
                    fateCapacity *= 2;
                    for (int s = 0; s < STRATEGIES; s++) fate[s] = realloc(fate[s], fateCapacity);
                }
                for (int s = 0; s < STRATEGIES; s++) { fate[s][m] = 0; mail(&w[s], fate[s], m, online); }
                m++;
                nextMail += exponential(&mailRandom, mailMean);
            }
            /* Every message in one bucket: shown, summarised, in APNs's slot, else lost. */
            for (int s = 0; s < STRATEGIES; s++) {
                uint8_t *f = fate[s];
                for (int32_t i = 0; i < m; i++) {
                    if (f[i] & SHOWN) w[s].delivered++;
                    else if (f[i] & SUMMARIZED) w[s].summarized++;
                    else if (i == w[s].stored) w[s].pending++;
                    else w[s].lost++;
                }
                totals[s].pushes += w[s].pushes;
                totals[s].rerequests += w[s].rerequests;
                totals[s].delivered += w[s].delivered;
                totals[s].summarized += w[s].summarized;
                totals[s].pending += w[s].pending;
                totals[s].lost += w[s].lost;
                messages += m;
            }
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    static const char *names[STRATEGIES] = { "no-queue", "queue", "queue-as-published" };
    printf("strategy            messages  deliverability  informed  lost      pushes/message  rerequests\n");
    for (int s = 0; s < STRATEGIES; s++) {
        double n = (double)(messages / STRATEGIES);
        printf("%-19s %-9lld %-15.6f %-9.6f %-9.6f %-15.4f %lld\n", names[s], (long long)(messages / STRATEGIES),
               totals[s].delivered / n, (totals[s].delivered + totals[s].summarized) / n, totals[s].lost / n,
               totals[s].pushes / n, (long long)totals[s].rerequests);
    }
    /* Exact counts, in the order of summary.csv's strategy,messages,delivered,summarized,lost,
     * pending,pushes_sent,rerequests (.ci/run checks them against `pushsim run`'s). */
    for (int s = 0; s < STRATEGIES; s++)
        printf("counts %s,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n", names[s], (long long)(messages / STRATEGIES),
               (long long)totals[s].delivered, (long long)totals[s].summarized, (long long)totals[s].lost,
               (long long)totals[s].pending, (long long)totals[s].pushes, (long long)totals[s].rerequests);
    printf("devices           %d\nrepeats           %d\n", devices, repeats);
    printf("messages          %lld  (summed over strategies, one repeat)\n", (long long)messages);
    printf("wall time s       %.3f\n", seconds);
    printf("messages/s        %.0f\n", (double)messages * repeats / seconds);
    return 0;
}
