import Base
import Device
import FakeAPNs
import FoundationEssentials
import Glibc
import Provider
import Simulator

/// Reads scenario files: JSON with positions first, then every field checked
/// with its path, unknown fields refused (a typo must not silently mean "absent").
public enum ScenarioDecoder {
    /// Loads and validates the scenario at `path` (`-`: standard input, named `<stdin>`).
    /// - Complexity: O(n) in the file's size.
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        try loadKeepingBytes(path: path).scenario
    }

    /// `load(path:)` that also returns the bytes it decoded, read once: a caller that
    /// keeps the scenario's text (a shard's partial result) keeps exactly what was
    /// simulated, even from a pipe or a file edited meanwhile. `-` reads `standardInput`.
    /// - Complexity: O(n) in the file's size.
    public static func loadKeepingBytes(path: String, standardInput: Int32 = STDIN_FILENO)
        throws(ScenarioError) -> (scenario: Scenario, bytes: [UInt8]) {
        let file = FileBytes.displayName(path)
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: path, standardInput: standardInput, limit: ScenarioLimits.fileBytes)
        } catch {
            throw ScenarioError(.unreadable(error.reason), file: file, path: "", location: nil)
        }
        return (try decode(bytes, file: file), bytes)
    }

    /// Validates a scenario held in memory; `file` names it in errors. Every error
    /// that can be found in one pass is reported: the thrown error is the first in file
    /// order, with the others in its `more`.
    /// - Complexity: O(n) in the text's size.
    public static func decode(_ bytes: [UInt8], file: String) throws(ScenarioError) -> Scenario {
        try decode(try parse(bytes, file: file), file: file)
    }

    /// The JSON tree of a scenario text; a syntax error names `file`.
    /// - Complexity: O(n) in the text's size.
    package static func parse(_ bytes: [UInt8], file: String) throws(ScenarioError) -> JSONNode {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw ScenarioError(.syntax(error.message), file: file, path: "", location: error.location)
        }
    }

    /// Validates a parsed scenario (`--set` overrides may have changed the tree).
    /// - Complexity: O(n) in the tree's size.
    package static func decode(_ root: JSONNode, file: String) throws(ScenarioError) -> Scenario {
        let log = ScenarioErrorLog(file: file)
        let scenario = log.attemptOptional { try decodeScenario(FieldReader(file: file, node: root, path: "", log: log)) }
        if let error = log.combined() { throw error }
        guard let scenario else {
            throw ScenarioError(.invalidValue("the scenario could not be read"), file: file, path: "", location: nil)
        }
        return scenario
    }

    /// Keys of the file itself.
    package static var topLevelFields: [String] { Top.object.keys }

    typealias Top = ScenarioFields.Top

    /// Reads every field; a field with an error is logged and taken as absent (its
    /// default), and a check across fields is skipped when one of them is broken. The
    /// result (nil when the start or the duration is broken) is only used when nothing was logged.
    private static func decodeScenario(_ reader: FieldReader) throws -> Scenario? {
        let top = try reader.object(Top.object)
        let log = reader.log

        let name = decodeName(top, log: log)
        let description = log.attemptOptional { try top.optional(Top.description)?.string() } ?? ""
        let seed = log.attemptOptional { try top.optional(Top.seed)?.integer() }.map(UInt64.init) ?? 0
        let (start, duration) = decodePeriod(top, log: log)
        let devices = log.attempt { Int(try top.required(Top.devices).integer()) } ?? 1

        let mail = log.attempt { try decodeRhythm(try top.required(Top.mail), events: "mails") } ?? MailModel(perDay: 0)
        let mailBursts = top.optional(Top.mailBursts).flatMap { field in log.attempt { try decodeMailBursts(field) } ?? nil }
        let connectivity = top.optional(Top.connectivity).flatMap { field in log.attempt { try decodeConnectivity(field) } }
        let latency = decodeLatency(top, log: log)

        var chain = ChainModel()
        var payloadTTL: SimDuration?
        var subscriptionSyncReader: FieldReader?
        if let providerReader = top.optional(Top.provider),
           let provider = log.attempt({ try decodeProvider(providerReader, start: start, duration: duration, chain: &chain) }) {
            payloadTTL = provider.payloadTTL
            subscriptionSyncReader = provider.syncOn
        }

        var expiration = ExpirationPolicy.absent
        if let apnsReader = top.optional(Top.apns) {
            expiration = log.attempt { try decodeAPNs(apnsReader, start: start, duration: duration, chain: &chain) } ?? .absent
        }

        let push = decodePush(top, log: log)

        var extensionTimeLimit = 30 * TimeUnit.second
        var launchesNamed = false
        if let deviceReader = top.optional(Top.device) {
            let device = log.attempt { try decodeDevice(deviceReader, chain: &chain) }
            extensionTimeLimit = device?.extensionTimeLimit ?? extensionTimeLimit
            launchesNamed = device?.launchesNamed ?? true
        }
        // Checked once the device is read: launches are named after the provider in the file.
        if chain.provider.subscriptions?.syncOn == .launch && !launchesNamed, let subscriptionSyncReader {
            log.record(subscriptionSyncReader.invalid("needs device.launches: nothing would ever sync"))
        }

        if let backgroundReader = top.optional(Top.background) {
            chain.background = log.attempt { try decodeBackground(backgroundReader) }
        }

        let (strategies, readWithoutErrors) = decodeStrategies(top, log: log, start: start, duration: duration)
        // Labels are checked only against a strategy list read without errors.
        let labels = readWithoutErrors ? strategies.map(\.label) : nil
        let expectations = top.optional(Top.expect).flatMap { field in log.attempt { try decodeExpectations(field, labels: labels) } }

        let events = top.optional(Top.events).flatMap { field in
            log.attempt { try decodeEvents(field, start: start, duration: duration, devices: devices) }
        }

        let sendLog = top.optional(Top.sendLog).flatMap { field in log.attempt { try decodeSendLog(field, chain: chain) } }

        guard let start, let duration else { return nil }
        var scenario = Scenario(name: name, description: description, seed: seed, start: start,
                                duration: duration, devices: devices, mail: mail, connectivity: connectivity,
                                latency: latency, payloadTTL: payloadTTL, expiration: expiration, app: push.app,
                                alertBodyBytes: push.alertBodyBytes, extensionTimeLimit: extensionTimeLimit, strategies: strategies,
                                chain: chain, expectations: expectations ?? [], events: events ?? [], mailBursts: mailBursts)
        scenario.sendLog = sendLog
        return scenario
    }

    /// `sendLog`: the log's path, resolved against the scenario file's folder (standard
    /// input's against the working directory). Its rows are read when a command runs it.
    private static func decodeSendLog(_ field: FieldReader, chain: ChainModel) throws -> SendLogInput {
        let path = try field.string()
        // The log replays one app a device: a second app's mail would have no rows to come from.
        guard chain.device.apps == .one else { throw field.invalid("a send log replays one app a device: device.apps must be 1") }
        guard !path.hasPrefix("/"), field.file != FileBytes.standardInputName,
              let slash = field.file.lastIndex(of: "/") else { return SendLogInput(path: path) }
        return SendLogInput(path: String(field.file[...slash]) + path)
    }

    /// `name`: 1–100 letters, digits, '-', '_' or '.', for it names the report folder ("" when broken).
    private static func decodeName(_ top: ObjectReader, log: ScenarioErrorLog) -> String {
        log.attempt {
            let nameReader = try top.required(Top.name)
            let name = try nameReader.string()
            guard !name.isEmpty, name.count <= 100,
                  name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                      || "-_.".unicodeScalars.contains($0) }),
                  name != ".", name != ".." else {
                throw nameReader.invalid("a name is 1–100 letters, digits, '-', '_' or '.' (it names the report folder)")
            }
            return name
        } ?? ""
    }

    /// `start` and `duration` (each nil when broken), the run ending by 9999-12-31.
    private static func decodePeriod(_ top: ObjectReader, log: ScenarioErrorLog) -> (start: CivilDate?, duration: SimDuration?) {
        let startReader = top.optional(Top.start)
        let start = log.attempt { () throws -> CivilDate in
            try top.required(Top.start).date()
        }
        let duration = log.attempt { try top.required(Top.duration).duration() }
        if let start, let duration, let startReader {
            // Reports write days as YYYY-MM-DD: four digits.
            let lastDay = start.adding(days: Int((duration - 1) / TimeUnit.day))
            if lastDay.year > 9999 {
                log.record(startReader.invalid("the run would end on \(lastDay), after 9999-12-31 (reports write YYYY-MM-DD)"))
            }
        }
        return (start, duration)
    }

    /// `latency`: each hop's distribution, 0 when absent or broken.
    private static func decodeLatency(_ top: ObjectReader, log: ScenarioErrorLog) -> LatencyModel {
        var latency = LatencyModel()
        if let latencyReader = top.optional(Top.latency),
           let fields = log.attempt({ try latencyReader.object(ScenarioFields.Latency.object) }) {
            func hop(_ declaration: FieldDeclaration) -> Distribution {
                fields.optional(declaration).flatMap { field in log.attempt { try field.distribution() } } ?? .constant(0)
            }
            latency.providerToAPNs = hop(ScenarioFields.Latency.providerToAPNs)
            latency.apnsToDevice = hop(ScenarioFields.Latency.apnsToDevice)
            latency.rerequestRoundTrip = hop(ScenarioFields.Latency.rerequestRoundTrip)
        }
        return latency
    }

    /// `push`: the app's bundle id and the alert body's size, their defaults when absent or broken.
    private static func decodePush(_ top: ObjectReader, log: ScenarioErrorLog) -> (app: String, alertBodyBytes: Int) {
        var app = "ru.yandex.mail"
        var alertBodyBytes = 120
        if let pushReader = top.optional(Top.push),
           let fields = log.attempt({ try pushReader.object(ScenarioFields.Push.object) }) {
            if let appReader = fields.optional(ScenarioFields.Push.app) {
                app = log.attempt {
                    let app = try appReader.string()
                    guard !app.isEmpty else { throw appReader.invalid("the bundle id must not be empty") }
                    return app
                } ?? app
            }
            alertBodyBytes = log.attemptOptional { try fields.optional(ScenarioFields.Push.alertBodyBytes)?.integer() }
                .map { Int($0) } ?? 120
        }
        return (app, alertBodyBytes)
    }

    /// `strategies`: 1 to the limit of them, within the strategy-days limit, each label once;
    /// with whether they were read without an error (only then are labels checked against them).
    private static func decodeStrategies(_ top: ObjectReader, log: ScenarioErrorLog, start: CivilDate?,
                                         duration: SimDuration?) -> (strategies: [Strategy], readWithoutErrors: Bool) {
        var strategies: [Strategy] = []
        let errorsBeforeStrategies = log.errors.count
        if let strategyReaders = log.attempt({ () throws -> [FieldReader] in
            let strategiesReader = try top.required(Top.strategies)
            let readers = try strategiesReader.array()
            guard readers.count >= Top.strategies.itemCount?.lowerBound ?? 0 else {
                throw strategiesReader.invalid("at least one strategy is needed")
            }
            guard readers.count <= ScenarioLimits.strategies else {
                throw strategiesReader.invalid("at most \(ScenarioLimits.strategies) strategies, found \(readers.count)")
            }
            // Every strategy keeps per-day counts on every thread.
            if let duration {
                let days = Int((duration + TimeUnit.day - 1) / TimeUnit.day)
                guard readers.count * days <= ScenarioLimits.strategyDays else {
                    throw strategiesReader.invalid("\(readers.count) strategies × \(days) days is more than "
                                                   + "\(ScenarioLimits.strategyDays) strategy-days; run fewer strategies or a shorter run")
                }
            }
            return readers
        }) {
            var labels = Set<String>()
            for strategyReader in strategyReaders {
                guard let strategy = decodeStrategy(strategyReader, start: start, duration: duration) else { continue }
                if !labels.insert(strategy.label).inserted {
                    log.record(strategyReader.invalid("two strategies are labelled \(UserText.quote(strategy.label)); give one a distinct \"label\""))
                    continue
                }
                strategies.append(strategy)
            }
        }
        return (strategies, log.errors.count == errorsBeforeStrategies)
    }

    /// `background`: its rhythm, iOS's hourly budget and the force-quit share.
    private static func decodeBackground(_ reader: FieldReader) throws -> BackgroundStreamModel {
        typealias Fields = ScenarioFields.Background
        let fields = try reader.object(Fields.object)
        let log = reader.log
        let rhythm = log.attempt { try decodeRhythm(try fields.required(Fields.rhythm), events: "background pushes") }
            ?? MailModel(perDay: 0)
        let perHour = log.attemptOptional { try fields.optional(Fields.budgetPerHour)?.integer() }
        let forceQuit = log.attemptOptional { try fields.optional(Fields.forceQuit)?.probability() } ?? 0
        return BackgroundStreamModel(rhythm: rhythm, budget: BackgroundBudget(
            perHour: perHour.map { Int32($0) } ?? BackgroundBudget.defaultPerHour, forceQuitShare: forceQuit))
    }

    /// A Poisson process with a daily rhythm (mail arrivals, app launches): `perDay`,
    /// 24 `diurnal` weights, `weekendFactor`; `events` names them in messages.
    private static func decodeRhythm(_ reader: FieldReader, events: String) throws -> MailModel {
        typealias Rhythm = ScenarioFields.Rhythm
        let fields = try reader.object(Rhythm.object)
        let log = reader.log
        let perDay = log.attempt { try fields.required(Rhythm.perDay).perDay(events) } ?? 0
        var diurnal: [Double]?
        if let diurnalReader = fields.optional(Rhythm.diurnal) {
            diurnal = log.attempt {
                let hours = try diurnalReader.array()
                let hoursNeeded = Rhythm.diurnal.itemCount ?? 0...Int.max
                guard hoursNeeded.contains(hours.count) else {
                    throw diurnalReader.invalid("needs \(hoursNeeded.lowerBound) hourly weights, found \(hours.count)")
                }
                let weights = try hours.map { hour throws -> Double in
                    let weight = try hour.number()
                    guard weight <= ScenarioLimits.diurnalWeight else {
                        throw hour.invalid("a weight is at most \(format(ScenarioLimits.diurnalWeight)) (they are relative), found \(format(weight))")
                    }
                    return weight
                }
                guard weights.contains(where: { $0 > 0 }) else { throw diurnalReader.invalid("at least one weight must be positive") }
                return weights
            }
        }
        let weekendFactor = log.attemptOptional { () throws -> Double? in
            guard let field = fields.optional(Rhythm.weekendFactor) else { return nil }
            let factor = try field.number()
            guard factor <= ScenarioLimits.weekendFactor else {
                throw field.invalid("weekendFactor is at most \(format(ScenarioLimits.weekendFactor)), found \(format(factor))")
            }
            return factor
        } ?? 1
        return MailModel(perDay: perDay, diurnal: diurnal, weekendFactor: weekendFactor)
    }

    private static func decodeConnectivity(_ reader: FieldReader) throws -> ConnectivityModel {
        typealias Connectivity = ScenarioFields.Connectivity
        typealias Window = ScenarioFields.OfflineWindow
        let fields = try reader.object(Connectivity.object)
        let log = reader.log
        let online = fields.optional(Connectivity.online).flatMap { field in log.attempt { try field.distribution() } }
        let offline = fields.optional(Connectivity.offline).flatMap { field in log.attempt { try field.distribution() } }
        // Named, not decoded: a broken one is already logged.
        if (fields.optional(Connectivity.online) == nil) != (fields.optional(Connectivity.offline) == nil) {
            _ = log.attempt {
                try fields.required(fields.optional(Connectivity.online) == nil ? Connectivity.online : Connectivity.offline)
            }
        }
        var windows: [OfflineWindow] = []
        if let windowsReader = fields.optional(Connectivity.offlineWindows), let windowReaders = log.attempt({ () throws -> [FieldReader] in
            let readers = try windowsReader.array()
            guard readers.count <= ScenarioLimits.offlineWindows else {
                throw windowsReader.invalid("at most \(ScenarioLimits.offlineWindows) offline windows, found \(readers.count)")
            }
            return readers
        }) {
            for windowReader in windowReaders {
                guard let window = log.attempt({ try windowReader.object(Window.object) }) else {
                    continue
                }
                let start = log.attempt { () throws -> SimDuration in
                    let startReader = try window.required(Window.start)
                    let startText = try startReader.string()
                    guard let start = parseClock(startText) else {
                        throw startReader.invalid("not a time of day: \(UserText.quote(startText)) (write HH:MM, 00:00–23:59)")
                    }
                    return start
                }
                let duration = log.attempt { try window.required(Window.duration).distribution() }
                let probability = log.attempt { try window.required(Window.probability).probability() }
                let days = log.attemptOptional {
                    try window.optional(Window.days)?.choice { word -> DaySet? in
                        switch word {
                        case "all": .all
                        case "weekdays": .weekdays
                        case "weekends": .weekends
                        default: nil
                        }
                    }
                } ?? .all
                guard let start, let duration, let probability else { continue }
                windows.append(OfflineWindow(start: start, duration: duration, probability: probability, days: days))
            }
        }
        windows.sort { $0.start < $1.start }
        return ConnectivityModel(online: online, offline: offline, offlineWindows: windows)
    }

    private static func parseClock(_ text: String) -> SimDuration? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let hours = Int(parts[0]), let minutes = Int(parts[1]),
              (0..<24).contains(hours), (0..<60).contains(minutes) else { return nil }
        return SimDuration(hours) * TimeUnit.hour + SimDuration(minutes) * TimeUnit.minute
    }

    /// One `strategies[]` entry, or nil when it has an error (logged).
    private static func decodeStrategy(_ reader: FieldReader, start: CivilDate?, duration: SimDuration?) -> Strategy? {
        let log = reader.log
        typealias Fields = ScenarioFields.Strategy
        guard let fields = log.attempt({ try reader.object(Fields.object) }) else { return nil }
        let errorsBefore = log.errors.count
        let kind = log.attempt { try fields.required(Fields.name).strategyKind() }
        var label = kind?.rawValue ?? ""
        if let labelReader = fields.optional(Fields.label) {
            label = log.attempt {
                let label = try labelReader.string()
                // Labels head table columns and CSV rows: nothing a terminal would act on.
                guard !label.isEmpty, !label.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }),
                      !label.unicodeScalars.contains(where: UserText.isInvisible) else {
                    throw labelReader.invalid("a label is non-empty and has no comma, quote, line break or control character")
                }
                return label
            } ?? label
        }
        for declaration in [Fields.repeatMaxCount, Fields.collapseID] where kind?.numbersPushes == false {
            if let field = fields.optional(declaration) {
                log.record(field.invalid("only the queue strategies have \(declaration.key)"))
            }
        }
        let repeatMaxCount = log.attemptOptional { try fields.optional(Fields.repeatMaxCount)?.integer() }
            .map { Int32($0) } ?? Int32.max
        let collapseID = log.attemptOptional { try fields.optional(Fields.collapseID)?.bool() } ?? true
        let registration = log.attemptOptional {
            try fields.optional(Fields.registration)?.choice { word -> RegistrationPolicy? in
                switch word {
                case "everyLaunch": .everyLaunch
                case "once": .onceAtPrompt
                default: nil
                }
            }
        } ?? .everyLaunch
        let priority = log.attempt { () throws -> UInt8 in
            guard let field = fields.optional(Fields.priority) else { return 10 }
            // APNs also has 1 (never wake the device); the comparison is 10 (now) against 5 (power considerations).
            return UInt8(try field.integerChoice("apns-priority for alerts"))
        } ?? 10
        let rollout = decodeRollout(fields, kind: kind, start: start, duration: duration)
        guard let kind, log.errors.count == errorsBefore else { return nil }
        return Strategy(label: label, kind: kind, repeatMaxCount: repeatMaxCount, collapseID: collapseID,
                        registration: registration, priority: priority, rollout: rollout)
    }

    /// A strategy's `from`, `before` and `adoption`: nil when it names none of them
    /// (or on an error, logged).
    private static func decodeRollout(_ fields: ObjectReader, kind: StrategyKind?, start: CivilDate?,
                                      duration: SimDuration?) -> Rollout? {
        let log = fields.reader.log
        typealias Fields = ScenarioFields.Strategy
        let fromReader = fields.optional(Fields.from), beforeReader = fields.optional(Fields.before)
        let adoptionReader = fields.optional(Fields.adoption)
        guard fromReader != nil || beforeReader != nil || adoptionReader != nil else { return nil }
        guard let fromReader else {
            log.record((beforeReader ?? adoptionReader!).invalid("a rollout needs \"from\", the day it starts"))
            return nil
        }
        if let kind, !kind.numbersPushes {
            log.record(fromReader.invalid("only a queue strategy rolls out: \(kind.rawValue) has nothing to switch on"))
        }
        let from = log.attempt { () throws -> CivilDate in
            let date = try fromReader.date()
            if let start, let duration {
                let offset = SimTime(date.daysSinceEpoch - start.daysSinceEpoch) * TimeUnit.day
                guard offset >= 0, offset < duration else {
                    throw fromReader.invalid("\(date) is outside the run (\(start) for \(duration / TimeUnit.day) days)")
                }
            }
            return date
        }
        let before = log.attemptOptional {
            try beforeReader?.strategyKind()
        } ?? .noQueue
        let adoption = log.attemptOptional { try adoptionReader?.distribution() } ?? .constant(0)
        guard let from else { return nil }
        return Rollout(from: from, before: before, adoption: adoption)
    }
}

// MARK: The delivery chain's fields: provider, APNs and device behaviour beyond the core model.

extension ScenarioDecoder {
    /// Keys of a `strategies[]` entry.
    package static var strategyFields: [String] { ScenarioFields.Strategy.object.keys }
    /// Keys of `provider`.
    package static var providerFields: [String] { ScenarioFields.Provider.object.keys }
    /// Keys of `apns`.
    package static var apnsFields: [String] { ScenarioFields.APNs.object.keys }
    /// Keys of `device`.
    package static var deviceFields: [String] { ScenarioFields.Device.object.keys }

    /// Reads `provider` into `chain`; returns the payload TTL and the reader of
    /// `subscriptions.syncOn` (checked against `device.launches` once the device is read).
    /// `start` and `duration` are nil when broken (outage times are then not checked against the run).
    private static func decodeProvider(_ reader: FieldReader, start: CivilDate?, duration: SimDuration?,
                                       chain: inout ChainModel) throws -> (payloadTTL: SimDuration?, syncOn: FieldReader?) {
        typealias Fields = ScenarioFields.Provider
        typealias Network = ScenarioFields.ProviderNetwork
        typealias Subscriptions = ScenarioFields.Subscriptions
        let fields = try reader.object(Fields.object)
        let log = reader.log
        let payloadTTL = log.attemptOptional { try fields.optional(Fields.payloadTTL)?.duration() }
        chain.provider.expiredPositions = log.attemptOptional {
            try fields.optional(Fields.expiredPositions)?.choice { word -> ExpiredPositionsAnswer? in
                switch word {
                case "resendRest": .resendRest
                case "error": .error
                default: nil
                }
            }
        } ?? .resendRest

        var retry = RetryPolicy()
        if let field = fields.optional(Fields.retries), let value = log.attempt({ try field.integer() }) {
            retry.maxRetries = Int32(value)
        }
        if let field = fields.optional(Fields.backoff), let value = log.attempt({ try field.duration() }) {
            retry.backoff = value
        }
        chain.provider.retry = retry

        if let networkReader = fields.optional(Fields.network) {
            chain.provider.network = log.attempt {
                let network = try networkReader.object(Network.object)
                let timeout = log.attemptOptional { try network.optional(Network.timeout)?.duration() }
                return ProviderNetworkModel(failureProbability: try network.required(Network.failureProbability).probability(),
                                            timeout: timeout ?? 10 * TimeUnit.second)
            }
        }

        if let outagesReader = fields.optional(Fields.outages) {
            chain.provider.outages = log.attempt { try decodeOutages(outagesReader, start: start, duration: duration) }
        }

        var syncOnReader: FieldReader?
        if let subscriptionsReader = fields.optional(Fields.subscriptions) {
            chain.provider.subscriptions = log.attempt {
                let subscriptions = try subscriptionsReader.object(Subscriptions.object)
                let changesPerDay = log.attempt {
                    try subscriptions.required(Subscriptions.changesPerDay).perDay("subscription changes")
                }
                let mailShare = log.attempt { try subscriptions.required(Subscriptions.mailShare).probability() }
                let syncOn = try subscriptions.optional(Subscriptions.syncOn)?.choice { word -> SubscriptionSync? in
                    switch word {
                    case "reconnect": .reconnect
                    case "launch": .launch
                    default: nil
                    }
                } ?? .reconnect
                syncOnReader = subscriptions.optional(Subscriptions.syncOn)
                return SubscriptionModel(changesPerDay: changesPerDay ?? 0, mailShare: mailShare ?? 0, syncOn: syncOn)
            }
        }
        return (payloadTTL, syncOnReader)
    }

    /// A scheduled window's `start` (`text`, read from `reader`): a local `YYYY-MM-DDTHH:MM`
    /// inside the run, as microseconds from the run's start (provider outages, APNs's faults).
    /// - Complexity: O(n) in the text.
    static func windowStart(_ text: String, of reader: FieldReader, runStart start: CivilDate,
                            duration: SimDuration?) throws -> SimTime {
        let offset: SimTime
        switch parseLocalTime(text, from: start) {
        case .success(let parsed): offset = parsed
        case .failure(let error): throw reader.invalid(error.message)
        }
        guard offset >= 0 else { throw reader.invalid("starts before the run (\(start)T00:00)") }
        if let duration, offset >= duration { throw reader.invalid("starts at or after the end of the run") }
        return offset
    }

    /// Scheduled windows (local `YYYY-MM-DDTHH:MM`, inside the run, sorted by start)
    /// and random ones (`between` and `duration`, both with positive means).
    private static func decodeOutages(_ reader: FieldReader, start: CivilDate?,
                                      duration: SimDuration?) throws -> OutageModel {
        typealias Outages = ScenarioFields.Outages
        typealias Scheduled = ScenarioFields.ScheduledOutage
        typealias Random = ScenarioFields.RandomOutages
        let fields = try reader.object(Outages.object)
        let log = reader.log
        var scheduled: [OutageWindow] = []
        if let scheduledReader = fields.optional(Outages.scheduled), let windowReaders = log.attempt({ try scheduledReader.array() }) {
            for windowReader in windowReaders {
                let outage = log.attempt { () throws -> OutageWindow? in
                    let window = try windowReader.object(Scheduled.object)
                    let length = log.attempt { try window.required(Scheduled.duration).duration() }
                    let startReader = try window.required(Scheduled.start)
                    let text = try startReader.string()
                    // Without the run's start (broken, and so already reported) there is nothing to place it by.
                    guard let start else { return nil }
                    let offset = try windowStart(text, of: startReader, runStart: start, duration: duration)
                    return length.map { OutageWindow(start: offset, duration: $0) }
                }
                if let outage = outage ?? nil { scheduled.append(outage) }
            }
        }
        // Ties broken by length so the order never depends on the file's order.
        scheduled.sort { ($0.start, $0.duration) < ($1.start, $1.duration) }
        var between: Distribution?
        var length: Distribution?
        if let scheduledReader = fields.optional(Outages.scheduled), scheduled.count > ScenarioLimits.scheduledOutages {
            log.record(scheduledReader.invalid("at most \(ScenarioLimits.scheduledOutages) scheduled outages, found \(scheduled.count)"))
        }
        if let randomReader = fields.optional(Outages.random),
           let random = log.attempt({ try randomReader.object(Random.object) }) {
            between = log.attempt { try random.required(Random.between).distribution() }
            length = log.attempt { try random.required(Random.duration).distribution() }
            // Every outage is two events in every device's timeline: bound how many the run expects.
            if let between, let length, let duration {
                let expected = OutageModel.expectedRandomOutages(between: between, duration: length, horizon: duration)
                if expected > ScenarioLimits.randomOutages {
                    log.record(randomReader.invalid("about \(format(expected.rounded())) random outages over the run, more than "
                                                    + "\(format(ScenarioLimits.randomOutages)); make them rarer (a longer \"between\")"))
                }
            }
        }
        return OutageModel(scheduled: scheduled, between: between, duration: length)
    }

    /// `YYYY-MM-DDTHH:MM` as microseconds from `start`'s midnight (negative before it), or
    /// what is wrong with it: a day the calendar lacks is said so, any other shape gets the
    /// format to write.
    static func parseLocalTime(_ text: String, from start: CivilDate) -> Result<SimTime, LocalTimeError> {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let clock = parseClock(String(parts[1])) else {
            return .failure(LocalTimeError("not a local time: \(UserText.quote(text)) (write YYYY-MM-DDTHH:MM)"))
        }
        switch CivilDate.parse(iso: String(parts[0])) {
        case .success(let date):
            return .success(SimTime(date.daysSinceEpoch - start.daysSinceEpoch) * TimeUnit.day + clock)
        case .failure(.notISO):
            return .failure(LocalTimeError("not a local time: \(UserText.quote(text)) (write YYYY-MM-DDTHH:MM)"))
        case .failure(let problem):
            return .failure(LocalTimeError(FieldReader.dateMessage(text, problem)))
        }
    }

    /// Why a text is not a local time, as its message.
    struct LocalTimeError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// Reads `apns` into `chain`; returns the `apns-expiration` policy.
    /// `start` and `duration` are nil when broken (fault times are then not checked against the run).
    private static func decodeAPNs(_ reader: FieldReader, start: CivilDate?, duration: SimDuration?,
                                   chain: inout ChainModel) throws -> ExpirationPolicy {
        typealias Fields = ScenarioFields.APNs
        typealias RateLimit = ScenarioFields.RateLimit
        let fields = try reader.object(Fields.object)
        let log = reader.log
        var expiration = ExpirationPolicy.absent
        if let field = fields.optional(Fields.expiration), let value = log.attempt({ try field.duration() }) {
            expiration = value == 0 ? .immediately : .after(value)
        }

        let nondeterministic: Bool? = log.attempt {
            try fields.optional(Fields.storage)?.choice { word -> Bool? in
                switch word {
                case "latest": false
                case "nondeterministic": true
                default: nil
                }
            } ?? false
        }
        let closeTogetherReader = fields.optional(Fields.closeTogether)
        if nondeterministic == true {
            let closeTogether = closeTogetherReader.flatMap { field in log.attempt { try field.duration() } }
            chain.apns.storage = .nondeterministic(closeTogether: closeTogether ?? TimeUnit.second)
        } else if nondeterministic == false, let closeTogetherReader {
            log.record(closeTogetherReader.invalid("only apns.storage \"nondeterministic\" has closeTogether"))
        }

        if let rateLimitReader = fields.optional(Fields.rateLimit) {
            chain.apns.rateLimit = log.attemptOptional {
                let rateLimit = try rateLimitReader.object(RateLimit.object)
                let burst = log.attempt { Int32(try rateLimit.required(RateLimit.burst).integer()) }
                let window = try rateLimit.required(RateLimit.window).duration()
                return burst.map { APNsRateLimit(burst: $0, window: window) }
            }
        }
        if let field = fields.optional(Fields.priority5Deferral) {
            chain.apns.lowPriorityDeferral = log.attempt { try field.distribution() }
        }
        if let faultsReader = fields.optional(Fields.faults) {
            chain.apns.faults = log.attempt { try decodeFaults(faultsReader, start: start, duration: duration) }
        }
        return expiration
    }

    /// Reads `device` into `chain`; returns `extensionTimeLimit` when named, and whether
    /// `launches` is named (broken or not).
    private static func decodeDevice(_ reader: FieldReader, chain: inout ChainModel) throws
        -> (extensionTimeLimit: SimDuration?, launchesNamed: Bool) {
        typealias Fields = ScenarioFields.Device
        typealias Memory = ScenarioFields.ExtensionMemory
        typealias Rotation = ScenarioFields.TokenRotation
        typealias Taps = ScenarioFields.Taps
        let fields = try reader.object(Fields.object)
        let log = reader.log
        let extensionTimeLimit = log.attemptOptional { try fields.optional(Fields.extensionTimeLimit)?.duration() }

        func share(_ declaration: FieldDeclaration) -> Double {
            log.attemptOptional { try fields.optional(declaration)?.probability() } ?? 0
        }
        chain.device.notificationsDisabledShare = share(Fields.notificationsDisabled)
        chain.device.alertsNotAllowedShare = share(Fields.alertsNotAllowed)
        chain.device.displayOffShare = share(Fields.displayOff)
        chain.device.legacyIOSShare = share(Fields.legacyIOS)

        if let memoryReader = fields.optional(Fields.extensionMemory) {
            chain.device.memory = log.attempt {
                let memory = try memoryReader.object(Memory.object)
                let olderIOS = log.attemptOptional { try memory.optional(Memory.olderIOS)?.probability() }
                let olderLimit = log.attemptOptional { try memory.optional(Memory.olderLimitMB)?.megabytes() }
                let newerLimit = log.attemptOptional { try memory.optional(Memory.newerLimitMB)?.megabytes() }
                return ExtensionMemoryModel(footprintKB: try memory.required(Memory.footprintMB).sizeDistribution(),
                                            olderIOSShare: olderIOS ?? 0,
                                            olderLimitKB: olderLimit ?? 12 * 1024,
                                            newerLimitKB: newerLimit ?? 24 * 1024)
            }
        }

        if let rotationReader = fields.optional(Fields.tokenRotation) {
            chain.device.tokenRotation = log.attempt {
                let rotation = try rotationReader.object(Rotation.object)
                let withPrompt = log.attemptOptional { try rotation.optional(Rotation.withPrompt)?.probability() }
                return TokenRotationModel(perDay: try rotation.required(Rotation.perDay).perDay("token rotations"),
                                          withPromptShare: withPrompt ?? 0)
            }
        }
        chain.device.deviceIDChangesPerDay = log.attemptOptional {
            try fields.optional(Fields.deviceIDChangesPerDay)?.perDay("device id changes")
        } ?? 0
        chain.device.accounts = log.attemptOptional {
            try fields.optional(Fields.accounts)?.countShares(maxCount: ScenarioFields.maxCount)
        } ?? .one
        chain.device.apps = log.attemptOptional {
            try fields.optional(Fields.apps)?.countShares(maxCount: ScenarioFields.maxCount)
        } ?? .one
        let launchesReader = fields.optional(Fields.launches)
        chain.device.launches = launchesReader.flatMap { field in
            log.attempt { LaunchModel(rhythm: try decodeRhythm(field, events: "launches")) }
        }

        if let tapsReader = fields.optional(Fields.taps) {
            chain.device.taps = log.attempt {
                let taps = try tapsReader.object(Taps.object)
                let delay = log.attemptOptional { try taps.optional(Taps.delay)?.distribution() }
                return TapModel(probability: try taps.required(Taps.probability).probability(), delay: delay ?? .constant(0))
            }
        }
        return (extensionTimeLimit, launchesReader != nil)
    }
}
