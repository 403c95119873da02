import FakeAPNs
import Foundation
import Provider

/// Reads scenario files: JSON with positions first, then every field checked
/// with its path, unknown fields refused (a typo must not silently mean "absent").
public enum ScenarioDecoder {
    /// Loads and validates the scenario at `path`.
    /// - Complexity: O(n) in the file's size.
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let why = !exists ? "no such file" : isDirectory.boolValue ? "it is a directory" : "permission denied"
            throw ScenarioError(.unreadable(why), file: path, path: "", location: nil)
        }
        return try decode(Array(data), file: path)
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

        var payloadTTL: SimDuration?
        if let providerReader = top.optional("provider") {
            let fields = try providerReader.object(known: ["payloadTTL"])
            payloadTTL = try fields.optional("payloadTTL")?.duration(positive: true)
        }

        var expiration = ExpirationPolicy.absent
        if let apnsReader = top.optional("apns") {
            let fields = try apnsReader.object(known: ["expiration"])
            if let value = try fields.optional("expiration")?.duration() {
                expiration = value == 0 ? .immediately : .after(value)
            }
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
            let fields = try deviceReader.object(known: ["extensionTimeLimit"])
            extensionTimeLimit = try fields.optional("extensionTimeLimit")?.duration(positive: true) ?? extensionTimeLimit
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
                        extensionTimeLimit: extensionTimeLimit, strategies: strategies)
    }

    private static func decodeMail(_ reader: FieldReader) throws -> MailModel {
        let fields = try reader.object(known: ["perDay", "diurnal", "weekendFactor"])
        let perDay = try fields.required("perDay").number()
        guard perDay <= 1_000_000 else { throw try fields.required("perDay").invalid("more than a million mails a day") }
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
                var days = DaySet.all
                if let daysReader = window.optional("days") {
                    let text = try daysReader.string()
                    guard let parsed = DaySet(rawValue: text) else {
                        throw daysReader.invalid("unknown day set \"\(text)\"; expected one of: all, weekdays, weekends")
                    }
                    days = parsed
                }
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
        let fields = try reader.object(known: ["name", "label", "repeatMaxCount", "collapseID"])
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
        return Strategy(label: label, kind: kind, repeatMaxCount: repeatMaxCount, collapseID: collapseID)
    }
}
