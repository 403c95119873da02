// two-states-floor.swift: tools/two-states-floor.c line for line in Swift (issue 32).
//
// The same draws (PushSim's SplitMix64 streams), the same lockstep loop over a user's mail and
// connectivity, the same extension logic and the same buckets as the C floor, so its counts are
// the C program's, which are `pushsim run scenarios/two-states.json`'s at 500 devices. It
// answers one question: how much of the distance between PushSim and the C floor is the
// language (this program against the C one) and how much the design (PushSim against this
// program: actors that answer with effects, one agenda, every message in the ledger).
// docs/performance.md keeps the figures.
//
// Build and run (tools/two-states-floor.sh builds all three and prints the ratios):
//   swiftc -O -o /tmp/two-states-floor-swift tools/two-states-floor.swift
//   /tmp/two-states-floor-swift [devices] [repeats]      # defaults: 500 devices, 20 repeats
import Glibc

let microsPerHour = 3_600_000_000.0
let microsPerDay = 24 * microsPerHour
let strategyNames = ["no-queue", "queue", "queue-as-published"]
let repeatMaxCount: Int32 = 5

enum StrategyKind { case noQueue, queue, queueAsPublished }

/// Bits of a message's fate, as the C program's.
let shownBit: UInt8 = 1
let summarizedBit: UInt8 = 2

@inline(__always) func mix(_ z0: UInt64) -> UInt64 {
    var z = z0
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
}

struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64, user: UInt64, purpose: UInt64) {
        state = mix(mix(seed ^ 0x5053_494d) &+ user) ^ (purpose &* 0x9e37_79b9_7f4a_7c15)
    }
    @inline(__always) mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        return mix(state)
    }
    /// (0, 1], never 0: its log is finite.
    @inline(__always) mutating func unit() -> Double { Double((next() >> 11) + 1) * 0x1.0p-53 }
    @inline(__always) mutating func exponential(mean: Double) -> Int64 {
        let gap = (-mean * log(unit())).rounded(.up)
        return gap < 1 ? 1 : Int64(gap)
    }
}

/// One strategy's world for one user: APNs's slot, the provider's numbering, the extension's
/// saved position, and the counts.
struct StrategyWorld {
    var kind: StrategyKind
    var stored: Int32 = -1       // message in APNs's slot, -1: none
    var lastPosition: Int32 = 0  // provider: last position handed out (position p is message p - 1)
    var saved: Int32 = 0         // extension: saved position, 0: none
    var pushes = 0, rerequests = 0
    var delivered = 0, summarized = 0, pending = 0, lost = 0

    /// A push of message m reaches the online device (the queue's extension logic).
    mutating func receive(_ fate: UnsafeMutablePointer<UInt8>, _ m: Int32) {
        if kind == .noQueue { fate[Int(m)] |= shownBit; return }
        let p = m + 1
        if saved == 0 { saved = p; fate[Int(m)] |= shownBit; return }
        let missed = p - saved - 1
        if missed <= 0 {
            if kind == .queue && p > saved { saved = p }
            fate[Int(m)] |= shownBit
            return
        }
        let first = saved + 1
        saved = p
        if missed > repeatMaxCount {
            for q in first...p { fate[Int(q - 1)] |= summarizedBit }
            return
        }
        rerequests += 1
        // The answer (ok) shows the push; the re-sent positions follow through APNs.
        fate[Int(m)] |= shownBit
        var q = first
        while q <= p - 1 { pushes += 1; receive(fate, q - 1); q += 1 }
    }

    /// A new mail, message m, while the device is online or not.
    @inline(__always) mutating func mail(_ fate: UnsafeMutablePointer<UInt8>, _ m: Int32, online: Bool) {
        pushes += 1
        lastPosition += 1
        if online { receive(fate, m) } else { stored = m }  // the newest replaces the stored one
    }

    @inline(__always) mutating func reconnect(_ fate: UnsafeMutablePointer<UInt8>) {
        if stored >= 0 { let m = stored; stored = -1; receive(fate, m) }
    }
}

let arguments = CommandLine.arguments
let devices = arguments.count > 1 ? Int(arguments[1]) ?? 500 : 500
let repeats = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
let seed: UInt64 = 7
let horizon = 28 * microsPerDay
let mailMean = microsPerDay / 48, onMean = 3 * microsPerHour, offMean = microsPerHour

var fateCapacity = 1 << 12
var fate = (0..<3).map { _ in UnsafeMutablePointer<UInt8>.allocate(capacity: fateCapacity) }
var totals: [StrategyWorld] = []
var messages = 0
var start = timespec(), end = timespec()
clock_gettime(CLOCK_MONOTONIC, &start)
for _ in 0..<repeats {
    totals = [StrategyWorld(kind: .noQueue), StrategyWorld(kind: .queue), StrategyWorld(kind: .queueAsPublished)]
    messages = 0
    for user in 0..<devices {
        var mailRandom = SplitMix64(seed: seed, user: UInt64(user), purpose: 1)
        var connectivityRandom = SplitMix64(seed: seed, user: UInt64(user), purpose: 2)
        var w0 = StrategyWorld(kind: .noQueue), w1 = StrategyWorld(kind: .queue), w2 = StrategyWorld(kind: .queueAsPublished)
        // The stationary start, then a whole exponential period (memoryless).
        var online = connectivityRandom.unit() * (onMean + offMean) <= onMean
        var flip = connectivityRandom.exponential(mean: online ? onMean : offMean)
        var nextMail = mailRandom.exponential(mean: mailMean)
        var m: Int32 = 0
        while true {
            if flip <= nextMail && Double(flip) < horizon {
                online.toggle()
                if online { w0.reconnect(fate[0]); w1.reconnect(fate[1]); w2.reconnect(fate[2]) }
                flip += connectivityRandom.exponential(mean: online ? onMean : offMean)
                continue
            }
            if Double(nextMail) >= horizon { break }
            if Int(m) == fateCapacity {
                let old = fateCapacity
                fateCapacity *= 2
                for s in 0..<3 {
                    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: fateCapacity)
                    grown.update(from: fate[s], count: old)
                    fate[s].deallocate()
                    fate[s] = grown
                }
            }
            for s in 0..<3 { fate[s][Int(m)] = 0 }
            w0.mail(fate[0], m, online: online)
            w1.mail(fate[1], m, online: online)
            w2.mail(fate[2], m, online: online)
            m += 1
            nextMail += mailRandom.exponential(mean: mailMean)
        }
        // Every message in one bucket: shown, summarised, in APNs's slot, else lost.
        var worlds = [w0, w1, w2]
        for s in 0..<3 {
            let f = fate[s]
            for i in 0..<Int(m) {
                if f[i] & shownBit != 0 { worlds[s].delivered += 1 }
                else if f[i] & summarizedBit != 0 { worlds[s].summarized += 1 }
                else if Int32(i) == worlds[s].stored { worlds[s].pending += 1 }
                else { worlds[s].lost += 1 }
            }
            totals[s].pushes += worlds[s].pushes
            totals[s].rerequests += worlds[s].rerequests
            totals[s].delivered += worlds[s].delivered
            totals[s].summarized += worlds[s].summarized
            totals[s].pending += worlds[s].pending
            totals[s].lost += worlds[s].lost
            messages += Int(m)
        }
    }
}
clock_gettime(CLOCK_MONOTONIC, &end)
let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) * 1e-9

func column(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}
func fixed(_ value: Double, _ digits: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    _ = withVaList([value]) { vsnprintf(&buffer, 64, "%.\(digits)f", $0) }
    return String(cString: buffer)
}
print("strategy            messages  deliverability  informed  lost      pushes/message  rerequests")
for s in 0..<3 {
    let n = Double(messages / 3)
    let t = totals[s]
    print(column(strategyNames[s], 20) + column("\(messages / 3)", 10)
        + column(fixed(Double(t.delivered) / n, 6), 16) + column(fixed(Double(t.delivered + t.summarized) / n, 6), 10)
        + column(fixed(Double(t.lost) / n, 6), 10) + column(fixed(Double(t.pushes) / n, 4), 16) + "\(t.rerequests)")
}
// Exact counts, as the C program prints them (.ci/run checks them against `pushsim run`'s).
for s in 0..<3 {
    let t = totals[s]
    print("counts \(strategyNames[s]),\(messages / 3),\(t.delivered),\(t.summarized),\(t.lost),\(t.pending),\(t.pushes),\(t.rerequests)")
}
print("devices           \(devices)\nrepeats           \(repeats)")
print("messages          \(messages)  (summed over strategies, one repeat)")
print("wall time s       " + fixed(seconds, 3))
print("messages/s        " + fixed(Double(messages * repeats) / seconds, 0))
