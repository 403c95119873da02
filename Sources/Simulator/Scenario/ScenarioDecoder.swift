import Device
import FakeAPNs
import Foundation
import Provider

/// Reads scenario files: JSON with positions first, then every field checked
/// with its path, unknown fields refused (a typo must not silently mean "absent").
public enum ScenarioDecoder {
    /// Loads and validates the scenario at `path`.
    /// - Complexity: O(n) in the file's size.
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: path)
        } catch {
            throw ScenarioError(.unreadable(error.reason), file: path, path: "", location: nil)
        }
        return try decode(bytes, file: path)
    }

    /// Validates a scenario held in memory; `file` names it in errors.
    /// - Complexity: O(n) in the text's size.
    public static func decode(_ bytes: [UInt8], file: String) throws(ScenarioError) -> Scenario {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ScenarioError(.syntax(error.message), file: file, path: "", location: error.location)
        }
        do {
            return try decodeScenario(FieldReader(file: file, node: root, path: ""))
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw ScenarioError(.invalidValue("\(error)"), file: file, path: "", location: nil)
        }
    }

    static let topLevelFields = ["name", "description", "seed", "start", "duration", "devices", "mail",
                                 "connectivity", "latency", "provider", "apns", "push", "device", "strategies"]

    private static func decodeScenario(_ reader: FieldReader) throws -> Scenario {
        let top = try reader.object(known: topLevelFields)

        let nameReader = try top.required("name")
        let name = try nameReader.string()
        guard !name.isEmpty, name.count <= 100,
              name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }),
              name != ".", name != ".." else {
            throw nameReader.invalid("a name is 1–100 letters, digits, '-', '_' or '.' (it names the report folder)")
        }
        let description = try top.optional("description")?.string() ?? ""
        let seed = UInt64(try top.optional("seed")?.integer(in: 0...Int64.max) ?? 0)

        let startReader = try top.required("start")
        let startText = try startReader.string()
        guard let start = CivilDate(iso: startText) else {
            throw startReader.invalid("not a date: \"\(startText)\" (write YYYY-MM-DD)")
        }
        let duration = try top.required("duration").duration(positive: true)
        // Reports write days as YYYY-MM-DD: four digits.
        let lastDay = start.adding(days: Int((duration - 1) / TimeUnit.day))
        guard lastDay.year <= 9999 else {
            throw startReader.invalid("the run would end on \(lastDay), after 9999-12-31 (reports write YYYY-MM-DD)")
        }
        let devices = Int(try top.required("devices").integer(in: 1...100_000_000))

        let mail = try decodeMail(try top.required("mail"))
        let connectivity = try top.optional("connectivity").map(decodeConnectivity)

        var latency = LatencyModel()
        if let latencyReader = top.optional("latency") {
            let fields = try latencyReader.object(known: ["providerToAPNs", "apnsToDevice", "rerequestRoundTrip"])
            latency.providerToAPNs = try fields.optional("providerToAPNs")?.distribution() ?? .constant(0)
            latency.apnsToDevice = try fields.optional("apnsToDevice")?.distribution() ?? .constant(0)
            latency.rerequestRoundTrip = try fields.optional("rerequestRoundTrip")?.distribution() ?? .constant(0)
        }

        var chain = ChainModel()
        var payloadTTL: SimDuration?
        var subscriptionSyncReader: FieldReader?
        if let providerReader = top.optional("provider") {
            let provider = try decodeProvider(providerReader, start: start, duration: duration, chain: &chain)
            payloadTTL = provider.payloadTTL
            subscriptionSyncReader = provider.syncOn
        }

        var expiration = ExpirationPolicy.absent
        if let apnsReader = top.optional("apns") {
            expiration = try decodeAPNs(apnsReader, chain: &chain)
        }

        var app = "ru.yandex.mail"
        var alertBodyBytes = 120
        if let pushReader = top.optional("push") {
            let fields = try pushReader.object(known: ["app", "alertBodyBytes"])
            if let appReader = fields.optional("app") {
                app = try appReader.string()
                guard !app.isEmpty else { throw appReader.invalid("the bundle id must not be empty") }
            }
            alertBodyBytes = Int(try fields.optional("alertBodyBytes")?.integer(in: 0...1_000_000) ?? 120)
        }

        var extensionTimeLimit = 30 * TimeUnit.second
        if let deviceReader = top.optional("device") {
            extensionTimeLimit = try decodeDevice(deviceReader, chain: &chain) ?? extensionTimeLimit
        }
        // Checked once the device is read: launches are named after the provider in the file.
        if chain.provider.subscriptions?.syncOn == .launch && chain.device.launches == nil, let subscriptionSyncReader {
            throw subscriptionSyncReader.invalid("needs device.launches: nothing would ever sync")
        }

        let strategiesReader = try top.required("strategies")
        let strategyReaders = try strategiesReader.array()
        guard !strategyReaders.isEmpty else { throw strategiesReader.invalid("at least one strategy is needed") }
        var strategies: [Strategy] = []
        for strategyReader in strategyReaders {
            let strategy = try decodeStrategy(strategyReader)
            if strategies.contains(where: { $0.label == strategy.label }) {
                throw strategyReader.invalid("two strategies are labelled \"\(strategy.label)\"; give one a distinct \"label\"")
            }
            strategies.append(strategy)
        }

        return Scenario(name: name, description: description, seed: seed, start: start, duration: duration,
                        devices: devices, mail: mail, connectivity: connectivity, latency: latency,
                        payloadTTL: payloadTTL, expiration: expiration, app: app, alertBodyBytes: alertBodyBytes,
                        extensionTimeLimit: extensionTimeLimit, strategies: strategies, chain: chain)
    }

    /// `mail`: the arrival rhythm.
    private static func decodeMail(_ reader: FieldReader) throws -> MailModel {
        try decodeRhythm(reader, events: "mails")
    }

    /// A Poisson process with a daily rhythm (mail arrivals, app launches): `perDay`,
    /// 24 `diurnal` weights, `weekendFactor`; `events` names them in messages.
    private static func decodeRhythm(_ reader: FieldReader, events: String) throws -> MailModel {
        let fields = try reader.object(known: ["perDay", "diurnal", "weekendFactor"])
        let perDay = try fields.required("perDay").perDay(events)
        var diurnal: [Double]?
        if let diurnalReader = fields.optional("diurnal") {
            let hours = try diurnalReader.array()
            guard hours.count == 24 else { throw diurnalReader.invalid("needs 24 hourly weights, found \(hours.count)") }
            let weights = try hours.map { try $0.number() }
            guard weights.contains(where: { $0 > 0 }) else { throw diurnalReader.invalid("at least one weight must be positive") }
            diurnal = weights
        }
        let weekendFactor = try fields.optional("weekendFactor")?.number() ?? 1
        return MailModel(perDay: perDay, diurnal: diurnal, weekendFactor: weekendFactor)
    }

    private static func decodeConnectivity(_ reader: FieldReader) throws -> ConnectivityModel {
        let fields = try reader.object(known: ["online", "offline", "offlineWindows"])
        let online = try fields.optional("online")?.distribution(positiveMean: true)
        let offline = try fields.optional("offline")?.distribution(positiveMean: true)
        if (online == nil) != (offline == nil) {
            throw try fields.required(online == nil ? "online" : "offline").failure(.missingField)
        }
        var windows: [OfflineWindow] = []
        if let windowsReader = fields.optional("offlineWindows") {
            for windowReader in try windowsReader.array() {
                let window = try windowReader.object(known: ["start", "duration", "probability", "days"])
                let startReader = try window.required("start")
                let startText = try startReader.string()
                guard let start = parseClock(startText) else {
                    throw startReader.invalid("not a time of day: \"\(startText)\" (write HH:MM, 00:00–23:59)")
                }
                let duration = try window.required("duration").distribution()
                let probability = try window.required("probability").probability()
                let days = try window.optional("days")?
                    .choice("day set", ["all": DaySet.all, "weekdays": .weekdays, "weekends": .weekends]) ?? .all
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

    private static func decodeStrategy(_ reader: FieldReader) throws -> Strategy {
        let fields = try reader.object(known: strategyFields)
        let nameReader = try fields.required("name")
        let nameText = try nameReader.string()
        guard let kind = StrategyKind(rawValue: nameText) else {
            throw nameReader.invalid("unknown strategy \"\(nameText)\"; expected one of: "
                                     + StrategyKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var label = nameText
        if let labelReader = fields.optional("label") {
            label = try labelReader.string()
            guard !label.isEmpty, !label.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else {
                throw labelReader.invalid("a label is non-empty and has no comma, quote or line break")
            }
        }
        var repeatMaxCount = Int32.max
        var collapseID = true
        for key in ["repeatMaxCount", "collapseID"] where kind == .noQueue {
            if let field = fields.optional(key) { throw field.invalid("only the queue strategies have \(key)") }
        }
        if let field = fields.optional("repeatMaxCount") {
            repeatMaxCount = Int32(try field.integer(in: 0...1_000_000))
        }
        if let field = fields.optional("collapseID") { collapseID = try field.bool() }
        let registration = try fields.optional("registration")?
            .choice("registration", ["everyLaunch": RegistrationPolicy.everyLaunch, "once": .onceAtPrompt]) ?? .everyLaunch
        var priority: UInt8 = 10
        if let field = fields.optional("priority") {
            let value = try field.integer(in: Int64.min...Int64.max)
            // APNs also has 1 (never wake the device); the comparison is 10 (now) against 5 (power considerations).
            guard value == 10 || value == 5 else { throw field.invalid("apns-priority for alerts is 10 or 5, found \(value)") }
            priority = UInt8(value)
        }
        return Strategy(label: label, kind: kind, repeatMaxCount: repeatMaxCount, collapseID: collapseID,
                        registration: registration, priority: priority)
    }
}

// MARK: The delivery chain's fields: provider, APNs and device behaviour beyond the core model.

extension ScenarioDecoder {
    /// Keys of a `strategies[]` entry.
    static let strategyFields = ["name", "label", "repeatMaxCount", "collapseID", "registration", "priority"]
    /// Keys of `provider`.
    static let providerFields = ["payloadTTL", "expiredPositions", "retries", "backoff", "network", "outages",
                                 "subscriptions"]
    /// Keys of `apns`.
    static let apnsFields = ["expiration", "storage", "closeTogether", "rateLimit", "priority5Deferral"]
    /// Keys of `device`.
    static let deviceFields = ["extensionTimeLimit", "notificationsDisabled", "alertsNotAllowed", "displayOff",
                               "legacyIOS", "extensionMemory", "tokenRotation", "deviceIDChangesPerDay", "accounts",
                               "apps", "launches", "taps"]
    /// Most accounts in one app, and most apps on one device, a scenario may name.
    static let maxCount = 20

    /// Reads `provider` into `chain`; returns the payload TTL and the reader of
    /// `subscriptions.syncOn` (checked against `device.launches` once the device is read).
    private static func decodeProvider(_ reader: FieldReader, start: CivilDate, duration: SimDuration,
                                       chain: inout ChainModel) throws -> (payloadTTL: SimDuration?, syncOn: FieldReader?) {
        let fields = try reader.object(known: providerFields)
        let payloadTTL = try fields.optional("payloadTTL")?.duration(positive: true)
        chain.provider.expiredPositions = try fields.optional("expiredPositions")?
            .choice("answer", ["resendRest": ExpiredPositionsAnswer.resendRest, "error": .error]) ?? .resendRest

        var retry = RetryPolicy()
        if let field = fields.optional("retries") { retry.maxRetries = Int32(try field.integer(in: 0...20)) }
        if let field = fields.optional("backoff") { retry.backoff = try field.duration(positive: true) }
        chain.provider.retry = retry

        if let networkReader = fields.optional("network") {
            let network = try networkReader.object(known: ["failureProbability", "timeout"])
            chain.provider.network = ProviderNetworkModel(
                failureProbability: try network.required("failureProbability").probability(),
                timeout: try network.optional("timeout")?.duration(positive: true) ?? 10 * TimeUnit.second)
        }

        if let outagesReader = fields.optional("outages") {
            chain.provider.outages = try decodeOutages(outagesReader, start: start, duration: duration)
        }

        var syncOnReader: FieldReader?
        if let subscriptionsReader = fields.optional("subscriptions") {
            let subscriptions = try subscriptionsReader.object(known: ["changesPerDay", "mailShare", "syncOn"])
            syncOnReader = subscriptions.optional("syncOn")
            chain.provider.subscriptions = SubscriptionModel(
                changesPerDay: try subscriptions.required("changesPerDay").perDay("subscription changes"),
                mailShare: try subscriptions.required("mailShare").probability(),
                syncOn: try syncOnReader?.choice("sync trigger", ["reconnect": SubscriptionSync.reconnect,
                                                                  "launch": .launch]) ?? .reconnect)
        }
        return (payloadTTL, syncOnReader)
    }

    /// Scheduled windows (local `YYYY-MM-DDTHH:MM`, inside the run, sorted by start)
    /// and random ones (`between` and `duration`, both with positive means).
    private static func decodeOutages(_ reader: FieldReader, start: CivilDate,
                                      duration: SimDuration) throws -> OutageModel {
        let fields = try reader.object(known: ["scheduled", "random"])
        var scheduled: [OutageWindow] = []
        if let scheduledReader = fields.optional("scheduled") {
            for windowReader in try scheduledReader.array() {
                let window = try windowReader.object(known: ["start", "duration"])
                let startReader = try window.required("start")
                let text = try startReader.string()
                guard let offset = parseLocalTime(text, from: start) else {
                    throw startReader.invalid("not a local time: \"\(text)\" (write YYYY-MM-DDTHH:MM)")
                }
                guard offset >= 0 else { throw startReader.invalid("starts before the run (\(start)T00:00)") }
                guard offset < duration else { throw startReader.invalid("starts at or after the end of the run") }
                scheduled.append(OutageWindow(start: offset, duration: try window.required("duration").duration(positive: true)))
            }
        }
        // Ties broken by length so the order never depends on the file's order.
        scheduled.sort { ($0.start, $0.duration) < ($1.start, $1.duration) }
        var between: Distribution?
        var length: Distribution?
        if let randomReader = fields.optional("random") {
            let random = try randomReader.object(known: ["between", "duration"])
            between = try random.required("between").distribution(positiveMean: true)
            length = try random.required("duration").distribution(positiveMean: true)
        }
        return OutageModel(scheduled: scheduled, between: between, duration: length)
    }

    /// `YYYY-MM-DDTHH:MM` as microseconds from `start`'s midnight (negative before it).
    private static func parseLocalTime(_ text: String, from start: CivilDate) -> SimTime? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = CivilDate(iso: String(parts[0])),
              let clock = parseClock(String(parts[1])) else { return nil }
        return SimTime(date.daysSinceEpoch - start.daysSinceEpoch) * TimeUnit.day + clock
    }

    /// Reads `apns` into `chain`; returns the `apns-expiration` policy.
    private static func decodeAPNs(_ reader: FieldReader, chain: inout ChainModel) throws -> ExpirationPolicy {
        let fields = try reader.object(known: apnsFields)
        var expiration = ExpirationPolicy.absent
        if let value = try fields.optional("expiration")?.duration() {
            expiration = value == 0 ? .immediately : .after(value)
        }

        let nondeterministic: Bool = try fields.optional("storage")?
            .choice("storage policy", ["latest": false, "nondeterministic": true] as KeyValuePairs<String, Bool>) ?? false
        let closeTogetherReader = fields.optional("closeTogether")
        if nondeterministic {
            chain.apns.storage = .nondeterministic(
                closeTogether: try closeTogetherReader?.duration(positive: true) ?? TimeUnit.second)
        } else if let closeTogetherReader {
            throw closeTogetherReader.invalid("only apns.storage \"nondeterministic\" has closeTogether")
        }

        if let rateLimitReader = fields.optional("rateLimit") {
            let rateLimit = try rateLimitReader.object(known: ["burst", "window"])
            chain.apns.rateLimit = APNsRateLimit(burst: Int32(try rateLimit.required("burst").integer(in: 1...1_000_000)),
                                            window: try rateLimit.required("window").duration(positive: true))
        }
        chain.apns.lowPriorityDeferral = try fields.optional("priority5Deferral")?.distribution()
        return expiration
    }

    /// Reads `device` into `chain`; returns `extensionTimeLimit` when named.
    private static func decodeDevice(_ reader: FieldReader, chain: inout ChainModel) throws -> SimDuration? {
        let fields = try reader.object(known: deviceFields)
        let extensionTimeLimit = try fields.optional("extensionTimeLimit")?.duration(positive: true)

        chain.device.notificationsDisabledShare = try fields.optional("notificationsDisabled")?.probability() ?? 0
        chain.device.alertsNotAllowedShare = try fields.optional("alertsNotAllowed")?.probability() ?? 0
        chain.device.displayOffShare = try fields.optional("displayOff")?.probability() ?? 0
        chain.device.legacyIOSShare = try fields.optional("legacyIOS")?.probability() ?? 0

        if let memoryReader = fields.optional("extensionMemory") {
            let memory = try memoryReader.object(known: ["footprintMB", "olderIOS", "olderLimitMB", "newerLimitMB"])
            chain.device.memory = ExtensionMemoryModel(
                footprintKB: try memory.required("footprintMB").sizeDistribution(),
                olderIOSShare: try memory.optional("olderIOS")?.probability() ?? 0,
                olderLimitKB: try memory.optional("olderLimitMB")?.kilobytes(positive: true) ?? 12 * 1024,
                newerLimitKB: try memory.optional("newerLimitMB")?.kilobytes(positive: true) ?? 24 * 1024)
        }

        if let rotationReader = fields.optional("tokenRotation") {
            let rotation = try rotationReader.object(known: ["perDay", "withPrompt"])
            chain.device.tokenRotation = TokenRotationModel(
                perDay: try rotation.required("perDay").perDay("token rotations"),
                withPromptShare: try rotation.optional("withPrompt")?.probability() ?? 0)
        }
        chain.device.deviceIDChangesPerDay = try fields.optional("deviceIDChangesPerDay")?.perDay("device id changes") ?? 0
        chain.device.accounts = try fields.optional("accounts")?.countShares(maxCount: maxCount) ?? .one
        chain.device.apps = try fields.optional("apps")?.countShares(maxCount: maxCount) ?? .one
        chain.device.launches = try fields.optional("launches").map { LaunchModel(rhythm: try decodeRhythm($0, events: "launches")) }

        if let tapsReader = fields.optional("taps") {
            let taps = try tapsReader.object(known: ["probability", "delay"])
            chain.device.taps = TapModel(probability: try taps.required("probability").probability(),
                                  delay: try taps.optional("delay")?.distribution() ?? .constant(0))
        }
        return extensionTimeLimit
    }
}
