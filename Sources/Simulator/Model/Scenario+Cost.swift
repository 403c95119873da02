import Base
import FakeAPNs

/// What a run of the scenario will cost: the messages it simulates, in expectation.
extension Scenario {
    /// Expected mails for one device + app with one account over the run: the mail
    /// rate integrated over [0, `duration`), each day with its own weekday factor and,
    /// in a last partial day, the hours it reaches (the last one pro rata).
    /// - Complexity: O(days) in the run's length.
    public var expectedMailsPerLane: Double {
        let fullDays = Int(duration / TimeUnit.day)
        var weekday = start.weekday
        var dayFactors = 0.0
        for _ in 0..<fullDays {
            dayFactors += weekday >= 5 ? mail.weekendFactor : 1
            weekday = (weekday + 1) % 7
        }
        // The diurnal weights have mean 1, so a whole day carries `perDay` up to rounding.
        let wholeDay = mail.diurnal.reduce(0, +)
        var mails = mail.perDay * dayFactors * wholeDay / 24
        let rest = duration % TimeUnit.day
        if rest > 0 {
            let wholeHours = Int(rest / TimeUnit.hour)
            var weight = mail.diurnal[..<wholeHours].reduce(0, +)
            weight += mail.diurnal[wholeHours] * Double(rest % TimeUnit.hour) / Double(TimeUnit.hour)
            mails += mail.perDay * (weekday >= 5 ? mail.weekendFactor : 1) * weight / 24
        }
        return mails
    }

    /// Expected messages a run simulates, summed over strategies: devices × mean apps ×
    /// mean accounts × `expectedMailsPerLane` × strategies. In floating point: 10⁸
    /// devices over a century stays far from any overflow.
    /// - Complexity: O(days) in the run's length.
    public var expectedMessages: Double {
        Double(devices) * chain.device.apps.mean * chain.device.accounts.mean * expectedMailsPerLane
            * Double(strategies.count)
    }
}

extension OutageModel {
    /// Random outages a run of length `horizon` expects: `horizon` / (mean `between` +
    /// mean `duration`), each at least 1 µs as drawn.
    /// - Complexity: O(1).
    public static func expectedRandomOutages(between: Distribution, duration: Distribution, horizon: SimDuration) -> Double {
        Double(horizon) / (Swift.max(between.mean, 1) + Swift.max(duration.mean, 1))
    }
}

/// What a run will cost, estimated before it starts: the messages, the kernel events
/// and the memory, for the checks against `ScenarioLimits` (`--allow-large` lifts them).
public struct RunCost: Sendable, Equatable {
    /// Expected messages, summed over strategies.
    public var messages: Double
    /// Expected kernel events: `eventsPerMessage` a message, plus every timeline entry
    /// replayed for every strategy.
    public var events: Double
    /// Entries of one device app's timeline over the run, in expectation, for the app
    /// with the most accounts. A thread holds at most `UserTimeline.window` of them at once.
    public var timelineEntriesPerLane: Double
    /// Messages of one device app (the one with the most accounts), in expectation. The
    /// ledger holds at most about `UserTimeline.window` of them at once (it folds a long
    /// app's messages as they settle).
    public var messagesPerLane: Double
    /// What the modelled systems themselves keep of one device app's messages under a
    /// numbering strategy, in bytes: the provider's held payloads with their times, for
    /// `payloadTTL` (without one it keeps runs of consecutive messages, next to nothing).
    /// The one part of memory that grows with one device's volume: Notification Center's
    /// collapse ids are forgotten once no copy can match them (the phone's own bound).
    public var modelBytesPerLane: Double
    /// Token rotations of one device app over the run, in expectation.
    public var rotationsPerLane: Double
    /// What APNs keeps of one device app's tokens at its peak, in bytes, on each working
    /// thread: a slot for every token handed out (`tokenBytes`). It grows with the
    /// rotations of one device, not with the device count.
    public var tokenBytesPerThread: Double
    /// The per-day counts of every strategy at their peak, in bytes: while simulating, each
    /// working thread's and the sum's; while the reports are rendered, the sum's and the
    /// reports' text (`countsBytes`).
    public var dailyBytes: Double
    /// Estimated peak memory in bytes on `threads` threads.
    public var memoryBytes: Double

    /// Kernel events per message, measured on the shipped scenarios (4.2–4.3), rounded up.
    public static let eventsPerMessage = 5.0
    /// Memory of one timeline entry.
    package static let entryBytes = Double(MemoryLayout<TimelineEntry>.stride)
    /// Memory of one ledger record.
    package static let recordBytes = Double(MemoryLayout<Ledger.Record>.stride)
    /// Memory of a payload the provider holds (a message index and a time).
    package static let heldPayloadBytes = 16.0
    /// Memory of a collapse id in Notification Center: 8 bytes in its set (at most 3/4
    /// full), and 16 (its key, second and position) in the order a long lane forgets them by.
    package static let collapseIDBytes = 8.0 / 0.75 + 16
    /// Room arrays take beyond what they hold (capacity doubles as they grow).
    package static let growth = 2.0
    /// Memory of one strategy-day of counts on one thread: the day's counts, its losses by
    /// reason and its blocks of users (the daily standard errors).
    package static let strategyDayBytes = Double(MemoryLayout<DayCounts>.stride + LossReason.allCases.count * 8
                                         + UserBlocks.count * RateCount.daily.count * 8)
    /// Memory of the reports rendered from one strategy-day of counts: about 670 bytes of
    /// it end in the files (`result.json`'s per-day counts and blocks, a row of
    /// `daily.csv`, the page's points), the rest is their pieces and bytes while written.
    /// Measured with `/usr/bin/time -v` at 100,000–400,000 strategy-days (2.4–2.6 KB above
    /// the counts; docs/performance.md), rounded up.
    package static let reportBytesPerStrategyDay = 2.5 * 1024
    /// Memory of everything else (the program, buffers, reports of a small run).
    package static let baseBytes = 64.0 * 1024 * 1024

    /// What APNs holds at its peak for `tokens` tokens handed out in one world: its two
    /// per-token arrays grow by doubling, and while one is copied into its new buffer both
    /// are in memory, so the peak is the capacity reached, the power of two at or above
    /// the count, however many of it are in use. The count is the expected one plus three
    /// standard deviations (Poisson), so the doubling a run's own count may pass is counted.
    /// - Complexity: O(log n) in the count.
    package static func tokenBytes(tokens: Double) -> Double {
        let count = tokens + 3 * tokens.squareRoot()
        var capacity = 1.0
        while capacity < count { capacity *= 2 }
        return capacity * Double(APNsServer.bytesPerToken)
    }

    /// The per-day counts' peak for `strategyDays` strategy-days on `working` threads:
    /// simulating, each thread's counts and the sum's (measured: threads + 1 copies);
    /// rendering the reports, the sum's and the reports'. The larger of the two.
    /// - Complexity: O(1).
    package static func countsBytes(strategyDays: Double, working: Double) -> Double {
        let counts = strategyDays * strategyDayBytes
        return Swift.max((working + 1) * counts, counts + strategyDays * reportBytesPerStrategyDay)
    }

    /// The cost of simulating `devices` (a shard's count, or all) of `scenario` on `threads` threads.
    /// - Complexity: O(days) in the run's length.
    public init(_ scenario: Scenario, devices: Int? = nil, threads: Int) {
        let devices = Double(devices ?? scenario.devices)
        let days = Double(scenario.dayCount)
        let duration = Double(scenario.duration)
        let chain = scenario.chain
        let strategies = Double(scenario.strategies.count)
        let lanesPerDevice = chain.device.apps.mean
        messages = scenario.expectedMessages / Double(scenario.devices) * devices

        let maxAccounts = Double(chain.device.accounts.shares.count)
        messagesPerLane = scenario.expectedMailsPerLane * maxAccounts
        var entries = messagesPerLane
        if let launches = chain.device.launches {
            var launchScenario = scenario
            launchScenario.mail = launches.rhythm
            entries += launchScenario.expectedMailsPerLane
        }
        if let background = chain.background {
            // The backend's background pushes are timeline entries too, drawn like the mail.
            var backgroundScenario = scenario
            backgroundScenario.mail = background.rhythm
            entries += backgroundScenario.expectedMailsPerLane
        }
        if let connectivity = scenario.connectivity {
            if let online = connectivity.online, let offline = connectivity.offline {
                entries += 2 * duration / (Swift.max(online.mean, 1) + Swift.max(offline.mean, 1))
            }
            entries += 2 * days * Double(connectivity.offlineWindows.count)
        }
        if let outages = chain.provider.outages {
            entries += 2 * Double(outages.scheduled.count)
            if let between = outages.between, let length = outages.duration {
                entries += 2 * OutageModel.expectedRandomOutages(between: between, duration: length,
                                                                 horizon: scenario.duration)
            }
        }
        let rare = chain.device.deviceIDChangesPerDay + (chain.device.tokenRotation?.perDay ?? 0)
            + (chain.provider.subscriptions?.changesPerDay ?? 0)
        entries += rare * days
        // Rotations are Poisson at a constant rate over the whole run, the partial last day pro rata.
        rotationsPerLane = (chain.device.tokenRotation?.perDay ?? 0) * duration / Double(TimeUnit.day)
        timelineEntriesPerLane = entries

        events = messages * Self.eventsPerMessage + entries * devices * lanesPerDevice * strategies
        let working = Double(Swift.max(1, Swift.min(threads, Int(devices))))
        let window = Double(UserTimeline.window)
        // What the provider keeps; without a TTL, runs of consecutive messages: next to nothing.
        let numbers = scenario.strategies.contains { $0.kind.numbersPushes }
        let held = scenario.payloadTTL.map { Swift.min(1, Double($0) / Swift.max(duration, 1)) } ?? 0
        modelBytesPerLane = numbers ? messagesPerLane * held * Self.heldPayloadBytes : 0
        // Notification Center's collapse ids: a short lane's all, a long lane's about a
        // window's (those a copy may still match).
        let collapses = scenario.strategies.contains { $0.kind.numbersPushes && $0.collapseID }
        let collapseBytes = collapses ? Swift.min(messagesPerLane, window) * Self.collapseIDBytes : 0
        // Each thread holds each of one device's apps' timelines up to a window (and the
        // window a long one is read through), the ledger records of the app being played up
        // to about a window (a long app's are folded as they settle), what the model keeps
        // of that app's messages, and per-day counts of every strategy. Arrays grow by
        // doubling, so one may take twice what it holds.
        let heldEntries = Swift.min(entries, window)
        let timelineBytes = (heldEntries * Double(chain.device.apps.shares.count) + (entries > window ? window : 0))
            * Self.entryBytes
        // A long lane's ledger also counts its folded messages' measurement per day (two counts).
        let ledgerBytes = Swift.min(messagesPerLane, window) * Self.recordBytes + (entries > window ? 16 * days : 0)
        // APNs keeps every token a lane's app was handed (the installed one and each rotation's).
        tokenBytesPerThread = rotationsPerLane > 0 ? Self.tokenBytes(tokens: rotationsPerLane + 1) : 0
        let perThread = Self.growth * (timelineBytes + ledgerBytes + collapseBytes + modelBytesPerLane) + tokenBytesPerThread
        dailyBytes = Self.countsBytes(strategyDays: strategies * days, working: working)
        memoryBytes = Self.baseBytes + working * perThread + dailyBytes + strategies * Double(scenario.alertBodyBytes)
    }

    /// The first limit the cost passes, as a phrase ("about 2.0e10 messages, above the limit
    /// of 10,000,000,000"), or nil within every limit.
    /// - Complexity: O(1).
    public var limitPassed: String? {
        if messages > ScenarioLimits.messages {
            return "about \(Self.count(messages)) messages, above the limit of \(Self.count(ScenarioLimits.messages))"
        }
        if events > ScenarioLimits.events {
            return "about \(Self.count(events)) kernel events, above the limit of \(Self.count(ScenarioLimits.events))"
        }
        if memoryBytes > ScenarioLimits.memoryBytes {
            return "about \(Self.megabytes(memoryBytes)) of memory (\(Self.megabytes(modelBytesPerLane)) per device app "
                + "kept by the provider's payloads within provider.payloadTTL, \(Self.megabytes(tokenBytesPerThread)) per "
                + "thread by APNs for the tokens of \(Self.count(rotationsPerLane)) rotations, "
                + "\(Self.megabytes(dailyBytes)) by per-day counts and reports), above the limit of "
                + "\(Self.megabytes(ScenarioLimits.memoryBytes))"
        }
        return nil
    }

    /// A count with thousands separators below 10¹⁸, else in scientific notation.
    /// - Complexity: O(1).
    package static func count(_ value: Double) -> String {
        guard value < 1e18 else { return DecimalText.significant(value, digits: 3) }
        let digits = String(Int64(value.rounded()))
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return grouped
    }

    /// Bytes as whole megabytes ("4,096 MB").
    /// - Complexity: O(1).
    package static func megabytes(_ bytes: Double) -> String { count((bytes / 1_048_576).rounded(.up)) + " MB" }
}
