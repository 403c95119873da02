@testable import Base
@testable import FakeAPNs
@testable import Provider
@testable import Simulator
import Testing

/// The ledger alone, fed effects by hand: the talk's measurement branch by branch,
/// the funnel's stages, reordering and summaries, with exact expected counts.
@Suite("Ledger")
struct LedgerTests {
    static let hour = TimeUnit.hour
    static let day = TimeUnit.day

    /// A push for `message`, numbered at `position` when given.
    static func push(_ message: Int32, position: Int32? = nil, resend: Bool = false) -> PushNotification {
        PushNotification(token: DeviceToken(0),
                         payload: PushPayload(messageIndex: message,
                                              xiva: position.map { XivaInfo(position: $0, deviceIDHash: 0) },
                                              byteCount: 100),
                         isResend: resend)
    }

    /// A mail at `arrival` whose original is sent (numbered at `position`, when given),
    /// logged by the extension and shown at `shownAt`.
    @discardableResult
    static func deliver(_ ledger: inout Ledger, arrival: SimTime, shownAt: SimTime, position: Int32? = nil) -> Int32 {
        let message = ledger.newMessage(at: arrival)
        let original = push(message, position: position)
        ledger.pushSent(original)
        ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: message)
        ledger.reachedDevice(original)
        ledger.logged(original, at: shownAt)
        ledger.presented(original, replacedExisting: false, at: shownAt)
        return message
    }

    /// Folds `ledger` over `days` days with `launches`; the identity must hold.
    static func fold(_ ledger: Ledger, days: Int, launches: Ledger.LaunchLog) -> StrategyAggregate {
        var aggregate = StrategyAggregate(days: days)
        let broken = ledger.fold(into: &aggregate, launches: launches)
        #expect(broken == nil)
        #expect(withAPNsCounts(aggregate).checkIdentity() == nil)
        return aggregate
    }

    /// `aggregate` with the APNs console counts a real run would have beside the
    /// ledger's (these tests feed the ledger alone), so the balance rules that tie
    /// the funnel to FakeAPNs's counters hold and the ledger's own ones are checked.
    static func withAPNsCounts(_ aggregate: StrategyAggregate) -> StrategyAggregate {
        var complete = aggregate
        complete.apns[.accepted] = aggregate[.apnsAccepted]
        complete.apns[.delivered] = aggregate[.reachedDevice]
        // A hand-fed copy may reach the device without an acceptance noted: count it as bounced back in.
        complete.apns[.bounced] = max(0, aggregate[.reachedDevice] - aggregate[.apnsAccepted])
        // … on the first day, as the Console would show them.
        var console = DayCounts()
        console[.consoleReceived] = complete.apns[.accepted]
        console[.consoleDelivered] = complete.apns[.delivered]
        complete.add(console, day: 0, block: 0)
        return complete
    }

    /// Launches at `times`; each uploads at once (online) unless `uploads` says when the logs went up.
    static func launches(_ times: [SimTime], uploads: [SimTime]? = nil, measured: Bool = true) -> Ledger.LaunchLog {
        Ledger.LaunchLog(times: ContiguousArray(times), uploads: ContiguousArray(uploads ?? times), measured: measured)
    }

    // MARK: The talk's measurement

    /// One delivered mail (arrival 10:00 on day 0, logged and shown at 10:00:01)
    /// and the user's launches, each uploading at once unless `uploads` is given
    /// (a launch offline uploads at the next reconnect).
    struct MeasurementCase: Sendable, CustomTestStringConvertible {
        var name: String
        var launches: [SimTime]
        var uploads: [SimTime]? = nil
        /// In measured_sent (the user launched on the mail's day or the next).
        var counted: Int64
        /// In measured_received (its log was uploaded by the end of the next day).
        var received: Int64
        /// Uploaded at all, before the run's end.
        var uploaded: Int64
        var testDescription: String { name }
    }

    static let loggedAt = 10 * hour + TimeUnit.second

    static let measurementCases: [MeasurementCase] = [
        MeasurementCase(name: "a launch later the same day: counted and received",
                        launches: [12 * hour], counted: 1, received: 1, uploaded: 1),
        MeasurementCase(name: "a launch only on the next day: counted and received",
                        launches: [day + 5 * hour], counted: 1, received: 1, uploaded: 1),
        MeasurementCase(name: "a launch at the very instant of the log uploads it",
                        launches: [loggedAt], counted: 1, received: 1, uploaded: 1),
        MeasurementCase(name: "a launch at the last microsecond of the next day still counts it received",
                        launches: [2 * day - 1], counted: 1, received: 1, uploaded: 1),
        MeasurementCase(name: "only a launch the same day before the log: counted, not received, not uploaded",
                        launches: [5 * hour], counted: 1, received: 0, uploaded: 0),
        MeasurementCase(name: "a launch at the first instant of the mail's day, before it arrived: counted, not received",
                        launches: [0], counted: 1, received: 0, uploaded: 0),
        MeasurementCase(name: "a launch before the log and the next one two days later: counted, not received, but uploaded",
                        launches: [5 * hour, 2 * day + hour], counted: 1, received: 0, uploaded: 1),
        MeasurementCase(name: "a launch only two days later: not counted at all, but uploaded",
                        launches: [2 * day + hour], counted: 0, received: 0, uploaded: 1),
        MeasurementCase(name: "a launch exactly at the start of the day after next: not counted, but uploaded",
                        launches: [2 * day], counted: 0, received: 0, uploaded: 1),
        MeasurementCase(name: "no launch at all: not counted, not uploaded",
                        launches: [], counted: 0, received: 0, uploaded: 0),
        MeasurementCase(name: "a launch offline the same day, uploaded at a reconnect the next day: counted and received",
                        launches: [12 * hour], uploads: [day + 3 * hour], counted: 1, received: 1, uploaded: 1),
        MeasurementCase(name: "a launch offline the same day, uploaded only two days later: counted, not received, uploaded",
                        launches: [12 * hour], uploads: [2 * day + hour], counted: 1, received: 0, uploaded: 1),
        MeasurementCase(name: "a launch offline, never back online: counted, not received, not uploaded",
                        launches: [12 * hour], uploads: [], counted: 1, received: 0, uploaded: 0),
    ]

    @Test("the talk's measurement of one delivered mail", arguments: measurementCases)
    func measurement(_ example: MeasurementCase) {
        var ledger = Ledger()
        Self.deliver(&ledger, arrival: 10 * Self.hour, shownAt: Self.loggedAt)
        let aggregate = Self.fold(ledger, days: 3, launches: Self.launches(example.launches, uploads: example.uploads))
        #expect(aggregate[.measuredSent] == example.counted)
        #expect(aggregate[.measuredReceived] == example.received)
        #expect(aggregate.daily[0][.measuredSent] == example.counted)
        #expect(aggregate.daily[0][.measuredReceived] == example.received)
        #expect(aggregate[.uploaded] == example.uploaded)
        // The truth is untouched by the measurement.
        #expect(aggregate[.logged] == 1 && aggregate[.delivered] == 1 && aggregate[.providerSent] == 1)
    }

    @Test("a device on iOS < 10 is never counted, whatever its launches")
    func unmeasuredDeviceIsNeverCounted() {
        var ledger = Ledger()
        Self.deliver(&ledger, arrival: 10 * Self.hour, shownAt: Self.loggedAt)
        let aggregate = Self.fold(ledger, days: 3, launches: Self.launches([12 * Self.hour, Self.day + Self.hour],
                                                                           measured: false))
        #expect(aggregate[.measuredSent] == 0 && aggregate[.measuredReceived] == 0)
        #expect(aggregate.daily[0][.measuredSent] == 0 && aggregate.daily[0][.measuredReceived] == 0)
        // Only the talk's figure drops the user; the funnel stays the truth.
        #expect(aggregate[.logged] == 1 && aggregate[.uploaded] == 1)
    }

    @Test("a mail the provider never sent is not in measured_sent: XIVA's log of what it sent is the base")
    func droppedMailIsNotMeasured() {
        var ledger = Ledger()
        let dropped = ledger.newMessage(at: 9 * Self.hour)
        ledger.dropped(messageIndex: dropped, .providerOutage)
        Self.deliver(&ledger, arrival: 10 * Self.hour, shownAt: Self.loggedAt)
        let aggregate = Self.fold(ledger, days: 2, launches: Self.launches([12 * Self.hour]))
        #expect(aggregate[.messages] == 2)
        #expect(aggregate[.providerSent] == 1)
        #expect(aggregate[.measuredSent] == 1 && aggregate[.measuredReceived] == 1)
        #expect(aggregate.lost(.providerOutage) == 1)
    }

    @Test("measured_sent and measured_received land on the mail's arrival day, not the day it was logged")
    func measurementLandsOnArrivalDay() {
        var ledger = Ledger()
        // Day 1 23:00, shown and logged on day 2 at 01:00; a launch at 02:00 uploads it.
        Self.deliver(&ledger, arrival: Self.day + 23 * Self.hour, shownAt: 2 * Self.day + Self.hour)
        // Day 2 03:00, logged at once: the only launch (02:00) came before its log.
        Self.deliver(&ledger, arrival: 2 * Self.day + 3 * Self.hour, shownAt: 2 * Self.day + 3 * Self.hour)
        let aggregate = Self.fold(ledger, days: 3, launches: Self.launches([2 * Self.day + 2 * Self.hour]))
        #expect(aggregate.daily.map { $0[.measuredSent] } == [0, 1, 1])
        #expect(aggregate.daily.map { $0[.measuredReceived] } == [0, 1, 0])
        #expect(aggregate.daily.map { $0[.messages] } == [0, 1, 1])
        #expect(aggregate[.measuredSent] == 2 && aggregate[.measuredReceived] == 1)
        #expect(aggregate[.uploaded] == 1)
    }

    @Test("the first log is the one uploaded: a later log of the same mail does not move it")
    func loggedKeepsTheFirstTime() {
        var ledger = Ledger()
        let message = Self.deliver(&ledger, arrival: Self.hour, shownAt: Self.hour)
        // A re-sent copy logged again at 05:00; the only launch is at 03:00.
        let resend = Self.push(message, resend: true)
        ledger.pushSent(resend)
        ledger.logged(resend, at: 5 * Self.hour)
        ledger.presented(resend, replacedExisting: true, at: 5 * Self.hour)
        let aggregate = Self.fold(ledger, days: 1, launches: Self.launches([3 * Self.hour]))
        #expect(aggregate[.logged] == 1)
        #expect(aggregate[.uploaded] == 1)
        #expect(aggregate[.measuredSent] == 1 && aggregate[.measuredReceived] == 1)
        #expect(aggregate.collapsed == 1 && aggregate.duplicatesShown == 0 && aggregate[.delivered] == 1)
    }

    // MARK: The funnel

    @Test("funnel: provider_sent counts originals only; a retry is a request but not a copy; each stage counts a message once")
    func funnelStages() {
        var ledger = Ledger()
        let first = ledger.newMessage(at: 0)
        let second = ledger.newMessage(at: Self.hour)
        let third = ledger.newMessage(at: 2 * Self.hour)

        // First: the original gets no answer and is retried once; APNs accepts, it is shown and opened.
        let original = Self.push(first, position: 1)
        ledger.pushSent(original)
        ledger.pushSent(original, isRetry: true)
        #expect(ledger.pushesSent == 2)
        #expect(ledger.copiesInFlight == 1)
        ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: first)
        ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: first)
        ledger.reachedDevice(original)
        ledger.logged(original, at: 10)
        ledger.presented(original, replacedExisting: false, at: 10)
        ledger.reached(Ledger.Stage.opened, messageIndex: first)
        ledger.reached(Ledger.Stage.opened, messageIndex: first)

        // Second: the original is coalesced away at APNs; a re-send brings it.
        let coalesced = Self.push(second, position: 2)
        ledger.pushSent(coalesced)
        ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: second)
        ledger.lost(coalesced, .apnsCoalesced)
        let resend = Self.push(second, position: 2, resend: true)
        ledger.pushSent(resend)
        ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: second)
        ledger.reachedDevice(resend)
        ledger.logged(resend, at: 3 * Self.hour)
        ledger.presented(resend, replacedExisting: false, at: 3 * Self.hour)

        // Third: only a re-send ever went out for it; retried once, it then expired at APNs.
        let onlyResend = Self.push(third, position: 3, resend: true)
        ledger.pushSent(onlyResend)
        ledger.pushSent(onlyResend, isRetry: true)
        ledger.lost(onlyResend, .apnsExpired)

        #expect(ledger.copiesInFlight == 0)
        let aggregate = Self.fold(ledger, days: 1, launches: Self.launches([]))
        #expect(aggregate[.pushesSent] == 6)
        #expect(aggregate[.providerSent] == 2)
        #expect(aggregate[.apnsAccepted] == 2)
        #expect(aggregate[.reachedDevice] == 2)
        #expect(aggregate[.logged] == 2)
        #expect(aggregate[.opened] == 1)
        #expect(aggregate[.delivered] == 2 && aggregate.lost(.apnsExpired) == 1 && aggregate.lost == 1)
        #expect(aggregate.pending == 0)
        // The second, shown from its re-send, is recovered: its latency (2 h) counted apart too.
        #expect(aggregate.latency.total == 2 && aggregate.recoveredLatency.total == 1)
        #expect(aggregate.recoveredLatency.quantile(0.5) == LatencyHistogram.lowerBound(of: LatencyHistogram.bucket(of: 2 * Self.hour)))
    }

    @Test("retries add requests but no copies: one loss of the copy ends the message")
    func retryDoesNotAddACopy() {
        var ledger = Ledger()
        let message = ledger.newMessage(at: 0)
        let original = Self.push(message)
        ledger.pushSent(original)
        ledger.pushSent(original, isRetry: true)
        ledger.pushSent(original, isRetry: true)
        ledger.lost(original, .providerNetwork)
        // Had a retry added a copy, the message would still be in flight (pending).
        #expect(ledger.copiesInFlight == 0)
        let aggregate = Self.fold(ledger, days: 1, launches: Self.launches([]))
        #expect(aggregate[.pushesSent] == 3)
        #expect(aggregate.lost(.providerNetwork) == 1 && aggregate.pending == 0)
        #expect(aggregate[.providerSent] == 1)
    }

    // MARK: Reordering and summaries

    @Test("originals reaching the device out of mail order count once each; re-sends never")
    func reorderingCountsOriginalsOnly() {
        var ledger = Ledger()
        let messages = (0..<4).map { ledger.newMessage(at: SimTime($0) * Self.hour) }
        let originals = messages.map { Self.push($0, position: $0 + 1) }
        originals.forEach { ledger.pushSent($0) }
        // Mail 2 first, then 0 and 1 (both late), a re-send of 0 (late, but a re-send), then 3 (in order).
        for index in [2, 0, 1] {
            ledger.reachedDevice(originals[index])
            ledger.presented(originals[index], replacedExisting: false, at: 5 * Self.hour)
        }
        let resend = Self.push(messages[0], position: 1, resend: true)
        ledger.pushSent(resend)
        ledger.reachedDevice(resend)
        ledger.presented(resend, replacedExisting: true, at: 5 * Self.hour)
        ledger.reachedDevice(originals[3])
        ledger.presented(originals[3], replacedExisting: false, at: 5 * Self.hour)
        #expect(ledger.counts[.reordered] == 2)
        let aggregate = Self.fold(ledger, days: 1, launches: Self.launches([]))
        #expect(aggregate.chain[.reordered] == 2)
        #expect(aggregate[.reachedDevice] == 4 && aggregate[.delivered] == 4)
        #expect(aggregate.collapsed == 1 && aggregate.duplicatesShown == 0)
    }

    @Test("a summary covers exactly the positions it names, and a message shown stays delivered")
    func summaryCoversItsPositions() {
        var ledger = Ledger()
        let messages = (0..<5).map { ledger.newMessage(at: SimTime($0) * Self.hour) }
        let pushes = messages.map { Self.push($0, position: $0 + 1) }
        pushes.forEach { ledger.pushSent($0) }
        ledger.presented(pushes[0], replacedExisting: false, at: 5 * Self.hour)
        ledger.lost(pushes[1], .apnsCoalesced)
        ledger.lost(pushes[2], .apnsCoalesced)
        ledger.lost(pushes[4], .apnsCoalesced)
        // Position 4 arrives with a gap of 3 (positions 1…3): the summary names 1…4.
        ledger.summaryShown(pushes[3], from: 1, to: 4, replacedExisting: false)
        let aggregate = Self.fold(ledger, days: 1, launches: Self.launches([]))
        #expect(aggregate[.delivered] == 1)
        #expect(aggregate[.summarized] == 3)
        #expect(aggregate.lost(.apnsCoalesced) == 1)
    }

    // MARK: LaunchLog

    @Test("firstLaunch(notBefore:) is inclusive at every launch and nil past the last")
    func firstLaunchBoundaries() {
        let log = Self.launches([10, 20, 30])
        #expect(log.firstLaunch(notBefore: .min) == 10)
        #expect(log.firstLaunch(notBefore: 0) == 10)
        #expect(log.firstLaunch(notBefore: 10) == 10)
        #expect(log.firstLaunch(notBefore: 11) == 20)
        #expect(log.firstLaunch(notBefore: 19) == 20)
        #expect(log.firstLaunch(notBefore: 20) == 20)
        #expect(log.firstLaunch(notBefore: 30) == 30)
        #expect(log.firstLaunch(notBefore: 31) == nil)
        #expect(Self.launches([]).firstLaunch(notBefore: 0) == nil)
        #expect(Self.launches([7]).firstLaunch(notBefore: 7) == 7)
        #expect(Self.launches([7]).firstLaunch(notBefore: 8) == nil)
        // Two launches at one instant (a tap and the rhythm): the first of them.
        #expect(Self.launches([5, 5, 9]).firstLaunch(notBefore: 5) == 5)
        #expect(Self.launches([5, 5, 9]).firstLaunch(notBefore: 6) == 9)
    }

    @Test("lastUpload(before:hint:) and launched(from:before:hint:) answer as the plain lookups, for queries in any order")
    func hintedLookupsMatch() {
        var random = SplitMix64(seed: 9)
        for _ in 0..<50 {
            let count = Int(random.next() % 40)
            let uploads = (0..<count).map { _ in SimTime(random.next() % 1000) }.sorted()
            let log = Self.launches(uploads, uploads: uploads)
            var uploadHint = 0, launchHint = 0
            var time: SimTime = 0
            for _ in 0..<60 {
                // Mostly rising, like the fold's day ends, sometimes back.
                time = random.next() % 5 == 0 ? SimTime(random.next() % 1000) : time + SimTime(random.next() % 40)
                #expect(log.lastUpload(before: time, hint: &uploadHint) == (uploads.last { $0 < time } ?? SimTime.min))
                #expect(log.launched(from: time, before: time + 30, hint: &launchHint)
                        == log.launched(from: time, before: time + 30))
            }
            #expect(log.lastUpload == (uploads.last ?? SimTime.min))
        }
    }

    @Test("firstUpload(notBefore:) reads the uploads, not the launches, with the same inclusive boundaries")
    func firstUploadBoundaries() {
        let log = Self.launches([10, 20], uploads: [15, 40])
        #expect(log.firstUpload(notBefore: 10) == 15)
        #expect(log.firstUpload(notBefore: 15) == 15)
        #expect(log.firstUpload(notBefore: 16) == 40)
        #expect(log.firstUpload(notBefore: 40) == 40)
        #expect(log.firstUpload(notBefore: 41) == nil)
        #expect(log.firstLaunch(notBefore: 16) == 20)
        #expect(Self.launches([10], uploads: []).firstUpload(notBefore: 0) == nil)
    }

    @Test("launched(from:before:) includes its start and excludes its end")
    func launchedInHalfOpenRange() {
        let log = Self.launches([10, 20, 30])
        #expect(log.launched(from: 10, before: 11))
        #expect(!log.launched(from: 10, before: 10))
        #expect(!log.launched(from: 11, before: 20))
        #expect(log.launched(from: 11, before: 21))
        #expect(!log.launched(from: 31, before: .max))
        #expect(log.launched(from: .min, before: 11))
        #expect(!log.launched(from: .min, before: 10))
    }
}
