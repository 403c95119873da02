import Base
import FakeAPNs
import ProviderAuth
import Simulator
import Transport

/// What `pushsim serve` runs on the transport: APNs's HTTP/2 API over the live population
/// on one listener, the control and inspection API (`ControlAPI.swift`) on another.
/// Called on the transport's one thread: it owns the population without locks.
public final class ServeService: Service {
    /// Why a run ended.
    public enum Ending: Sendable, Equatable {
        /// The clock reached the end (`--for`, or the scenario's duration).
        case endReached
        /// `POST /stop` on the control API.
        case stopRequested
        /// SIGINT or SIGTERM (`stop(byRequest:)` from the signal's watcher).
        case signal
    }

    package var population: LivePopulation
    package let clock: LiveClock
    let authentication: ProviderAuthentication
    /// The listener APNs's requests come on, and the control API's (nil: none).
    let apnsListener: Int
    let controlListener: Int?
    /// A new connection's provider-token check (token authentication).
    let freshTokenCheck: ProviderTokenCheck?
    var tokenChecks: [Int: ProviderTokenCheck] = [:]
    /// Under `.clientCertificate`, each connection's certificate topic (its subject's UID, or
    /// none), read at its first request.
    var certificateTopics: [Int: String?] = [:]
    /// Provider-token signatures verified so far, all connections: a token a connection
    /// sends again (accepted or refused) is not verified again.
    package internal(set) var signatureVerifications = 0
    /// Makes the `apns-id` of requests that come without one, in request order.
    var apnsIDs: SplitMix64
    /// The machine's time in microseconds since the epoch: provider tokens are judged by
    /// it, since the provider signs them with its own clock (a test passes its own).
    let wallClock: () -> SimTime
    let started = ContinuousClock.now
    /// Why the run ended; nil while it runs.
    public private(set) var ending: Ending?
    var endedAt: ContinuousClock.Instant?
    /// `POST /stop` or a signal came (the end, with a provider, waits for one).
    var stopAsked = false
    /// Where APNs's API listens, as `GET /` and serve.json tell it (`h2c://host:port`, or
    /// `https://host:port` with `--tls`).
    public var apnsURL: String?
    /// With `--tls` and serve's local CA: the CA's PEM file a client is to trust, as `GET /`
    /// and serve.json tell it.
    public var apnsCAFile: String?
    /// The scenario as simulated, `ScenarioOverride.digest`, as `GET /` tells it: the
    /// provider checks it against its own.
    public var scenarioDigest: String?
    /// Where the phones call the provider (nil: they do not).
    public let provider: ProviderTarget?
    /// The transport's outgoing requests and later answers (`attach(to:)`).
    var outgoing: OutgoingRequests?
    var laterAnswers: LaterAnswers?
    var connectionOrders: ConnectionOrders?
    /// APNs's faults: the scenario's and one started on the control API (ServeFaults.swift).
    var faults: ServeFaults
    /// Calls sent and not yet returned, by tag.
    var callsInFlight: [Int: ProviderCall] = [:]
    var nextCallTag = 1
    /// Install registrations to send again, and when.
    var installRetries: [(due: ContinuousClock.Instant, call: ProviderCall)] = []
    /// `POST /clock` requests waiting for the clock to get where they asked.
    var clockWaiters: [LaterAnswer] = []
    /// `GET /devices` answers being built, a slice a turn (`DeviceListing`).
    var listings: [DeviceListing] = []
    /// Requests answered on the APNs listener, by HTTP status (100…599).
    package internal(set) var answeredByStatus = [Int64](repeating: 0, count: 600)

    /// The statuses answered so far, with their counts, in status order.
    package var answered: [(status: Int, count: Int64)] {
        answeredByStatus.indices.filter { answeredByStatus[$0] > 0 }.map { ($0, answeredByStatus[$0]) }
    }

    /// - Parameters:
    ///   - scenario: the population's scenario; `strategy` says which app the phones run.
    ///   - topics: the apps' topics by app index on a device.
    ///   - end: when the run ends, in simulated time.
    ///   - apnsListener, controlListener: the transport's listener numbers for each API.
    ///   - origin: where the clock starts (`serve --start now`: the wall clock's time of day); 0: the scenario's start.
    ///   - wallClock: microseconds since the epoch, for provider tokens.
    /// - Throws: `KeyError.duplicateKeyID` when two keys share an id.
    /// - Complexity: O(devices × apps).
    package init(scenario: Scenario, strategy: Strategy, topics: [String], end: SimTime, clock: ClockMode, origin: SimTime = 0,
                authentication: ProviderAuthentication, apnsListener: Int, controlListener: Int?,
                provider: ProviderTarget? = nil, fieldsWithoutProvider: ProviderFields = .xiva,
                wallClock: @escaping () -> SimTime) throws(KeyError) {
        let holdsClock = if case .controlled = clock { true } else { false }
        population = LivePopulation(
            scenario: scenario, strategy: strategy, topics: topics, end: end, fields: provider?.fields ?? fieldsWithoutProvider,
            link: provider.map { _ in ProviderLink(holdsClock: holdsClock, sendsSubscriptions: scenario.chain.provider.subscriptions != nil) })
        self.provider = provider
        self.clock = LiveClock(mode: clock, origin: origin)
        if origin > 0 { population.advance(to: origin) }
        self.authentication = authentication
        self.apnsListener = apnsListener
        self.controlListener = controlListener
        self.wallClock = wallClock
        if case .token(let keys) = authentication { freshTokenCheck = try ProviderTokenCheck(keys: keys) } else { freshTokenCheck = nil }
        apnsIDs = RandomStream.apnsID.generator(seed: scenario.seed, user: 0)
        faults = ServeFaults(scenario: scenario)
    }

    /// Sends the phones' calls and takes later answers through `server` (needed with a provider).
    public func attach(to server: Server) {
        outgoing = server.outgoing
        laterAnswers = server.laterAnswers
        connectionOrders = server.connectionOrders
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        followWallClock()
        defer { afterTurn() }
        if request.listener == apnsListener { return answerAPNsUnderFaults(request) }
        if request.listener == controlListener { return answerControl(request) }
        return ControlAPI.error(404, "no API on this listener")
    }

    public func received(_ outcome: OutgoingOutcome, tag: Int) {
        callReturned(outcome, tag: tag)
        afterTurn()
    }

    /// What any turn ends with: the calls made go out, waiting clock requests are answered.
    func afterTurn() {
        retryInstallRegistrations()
        sendCalls()
        answerClockWaiters()
    }

    public func tick(elapsed: Duration) -> Duration? {
        if signalled?() == true { stop(.signal) }
        followWallClock()
        afterTurn()
        if continueListings() { return .zero }
        let faultWait = tickFaults()
        // A scaled clock moves on its own: look again soon. A controlled one waits for requests.
        let wait: Duration? = switch clock.mode {
        case .scaled: .milliseconds(10)
        case .controlled: installRetries.isEmpty && ending == nil ? nil : .milliseconds(100)
        }
        guard let faultWait else { return wait }
        return min(wait ?? faultWait, faultWait)
    }

    public func connectionClosed(_ connection: Int) {
        tokenChecks[connection] = nil
        certificateTopics[connection] = nil
    }

    public var shouldStop: Bool {
        if signalled?() == true { stop(.signal) }
        guard let ending else { return false }
        // With a provider, the end waits for it to collect the counts and POST /stop (bounded).
        if ending == .endReached, provider != nil, !stopAsked, let endedAt {
            return ContinuousClock.now - endedAt >= Self.providerCollectionGrace
        }
        return true
    }

    /// How long serve waits at the end for the provider's `POST /stop`.
    static let providerCollectionGrace = Duration.seconds(60)

    /// Whether SIGINT or SIGTERM came (the CLI's handler sets what this reads); checked every turn.
    public var signalled: (() -> Bool)?

    /// Ends the run (a signal's watcher calls it; the transport then shuts down).
    /// - Complexity: O(1).
    public func stop(_ why: Ending) {
        if ending == nil {
            ending = why
            endedAt = ContinuousClock.now
        }
        if why != .endReached { stopAsked = true }
    }

    /// Under a scaled clock, brings the population to the time the wall clock says.
    func followWallClock() {
        guard ending == nil, let time = clock.reading(elapsed: ContinuousClock.now - started) else { return }
        if Self.advance(&population, to: time) { stop(.endReached) }
    }

    /// Moves `population`'s clock to `time`, in one access to the property (each is checked
    /// at run time, on every request); whether the run's end is reached.
    private static func advance(_ population: inout LivePopulation, to time: SimTime) -> Bool {
        population.advance(to: time)
        return population.now >= population.end && population.pendingTarget == nil
    }

    /// The simulated instant now, as `apns-id`'s are made and answers stamped.
    package var now: SimTime { population.now }

    /// A made `apns-id`: a version 4 UUID drawn from the seed, in request order.
    func makeAPNsID() -> String {
        let high = apnsIDs.next(), low = apnsIDs.next()
        let a = (high & 0xffff_ffff_ffff_0fff) | 0x4000          // version 4
        let b = (low & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000  // variant 1
        return Self.uuidText(a, b)
    }

    /// The canonical lowercase form (8-4-4-4-12) of the UUID whose 128 bits are `high` then `low`.
    /// Written octet by octet: five `String(radix:)` groups padded and joined cost about 14,000
    /// instructions an id, an eighth of a whole request (tools/serve-bench.sh, docs/performance.md).
    /// - Complexity: O(1).
    static func uuidText(_ high: UInt64, _ low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { out in
            let hex: StaticString = "0123456789abcdef"
            var at = 0
            // `count` hex digits of `word`, the first from the nibble at bit `shift`.
            func group(_ word: UInt64, from shift: Int, count: Int, dash: Bool) {
                for index in 0..<count {
                    out[at] = hex.utf8Start[Int(truncatingIfNeeded: word >> UInt64(shift - 4 * index)) & 0xf]
                    at += 1
                }
                if dash {
                    out[at] = UInt8(ascii: "-")
                    at += 1
                }
            }
            group(high, from: 60, count: 8, dash: true)
            group(high, from: 28, count: 4, dash: true)
            group(high, from: 12, count: 4, dash: true)
            group(low, from: 60, count: 4, dash: true)
            group(low, from: 44, count: 12, dash: false)
            return at
        }
    }
}
