import FakeAPNs
import Simulator

/// Every field of a scenario file, declared once, grouped by the object it belongs to.
/// `ScenarioDecoder` reads each field through its declaration (key, bounds, choices);
/// `ScenarioSchema` writes the JSON Schema from them. Adding a field: declare it here,
/// read it in the decoder, model it in `Scenario`; the schema follows.
package enum ScenarioFields {
    /// Most accounts in one app, and most apps on one device, a scenario may name.
    package static let maxCount = 20
    /// The largest Poisson rate a day (mails, launches, rotations …).
    package static let maxPerDay: Double = 1_000_000
    /// The largest size in MB; keeps the conversion to kilobytes far from Int64's edge.
    package static let maxMegabytes: Double = 1_048_576
    /// A lognormal's largest σ: above it the tails are absurd.
    package static let maxSigma: Double = 5

    /// The file itself.
    package enum Top {
        package static let name = FieldDeclaration(
            "name", .text(pattern: "^[A-Za-z0-9_.-]{1,100}$", excluded: [".", ".."]), required: true,
            "letters, digits, '-', '_', '.'; names the default report folder")
        package static let description = FieldDeclaration("description", .text(), "assumptions and sources of the rates")
        package static let seed = FieldDeclaration("seed", .integer(0...Int64.max),
                                                   "seed of every random stream (default 0; --seed overrides)")
        package static let start = FieldDeclaration("start", .date, required: true,
                                                    "first day, local midnight; the run must end by 9999-12-31")
        package static let duration = FieldDeclaration("duration", .duration(positive: true), required: true, "length of the run")
        package static let devices = FieldDeclaration("devices", .integer(1...100_000_000), required: true, "users, one device each")
        package static let mail = FieldDeclaration(
            "mail", .rhythm, required: true,
            "mail arrivals for one device + app: perDay (mean mails a weekday), diurnal, weekendFactor")
        package static let mailBursts = FieldDeclaration("mailBursts", .object(MailBursts.object))
        package static let connectivity = FieldDeclaration("connectivity", .object(Connectivity.object))
        package static let latency = FieldDeclaration("latency", .object(Latency.object))
        package static let provider = FieldDeclaration("provider", .object(Provider.object))
        package static let apns = FieldDeclaration("apns", .object(APNs.object))
        package static let push = FieldDeclaration("push", .object(Push.object))
        package static let device = FieldDeclaration("device", .object(Device.object))
        package static let background = FieldDeclaration("background", .object(Background.object))
        package static let strategies = FieldDeclaration("strategies", .array(of: .object(Strategy.object), count: 1...Int.max),
                                                         required: true, "the columns of the comparison, in report order")
        package static let expect = FieldDeclaration("expect", .array(of: .object(Expectation.object), count: 1...Int.max),
                                                     "bounds pushsim check holds the run to; run ignores them")
        package static let events = FieldDeclaration(
            "events", .array(of: .object(Event.object), count: 1...Int.max),
            "dated steering actions, each applied to its device app in every strategy (and by serve on its clock)")
        package static let sendLog = FieldDeclaration(
            "sendLog", .text(minLength: 1),
            "a team's send log (CSV, docs/send-log.md) whose pushes replace mail's model and background's rhythm; relative to the scenario file's folder")
        package static let object = ObjectDeclaration(
            "A PushSim scenario file (docs/scenarios.md, \"Scenario files\"). Every effect a file does not name is absent; unknown fields are errors.",
            [name, description, seed, start, duration, devices, mail, mailBursts, connectivity, latency, provider, apns, push, device,
             background, strategies, expect, events, sendLog])
    }

    /// A Poisson process with a daily rhythm: `mail`, `device.launches`.
    package enum Rhythm {
        package static let perDay = FieldDeclaration("perDay", .perDay, required: true, "mean events a weekday (Poisson)")
        /// The weights' upper bound (`ScenarioLimits.diurnalWeight`) is the decoder's alone, as the schema has always had it.
        package static let diurnal = FieldDeclaration(
            "diurnal", .array(of: .number(NumberRange(lower: .inclusive(0))), count: 24...24),
            "24 relative hourly rates (local time), at least one positive; normalised to mean 1 (default flat)")
        /// The factor's upper bound (`ScenarioLimits.weekendFactor`) is the decoder's alone, as for `diurnal`.
        package static let weekendFactor = FieldDeclaration("weekendFactor", .number(NumberRange(lower: .inclusive(0))),
                                                            "rate multiplier on Saturdays and Sundays (default 1)")
        package static let object = ObjectDeclaration("A Poisson process with a daily rhythm.", [perDay, diurnal, weekendFactor])
    }

    /// `mailBursts`: the mail in bursts (compound Poisson), its daily mean still `mail.perDay`.
    package enum MailBursts {
        package static let meanSize = FieldDeclaration(
            "meanSize", .number(NumberRange(lower: .inclusive(1), upper: .inclusive(ScenarioLimits.burstMeanSize))), required: true,
            "mean mails a burst (geometric: 1, 2, …); bursts start at mail.perDay / meanSize a weekday, in mail's rhythm")
        package static let gap = FieldDeclaration("gap", .distribution(positiveMean: true), required: true,
                                                  "time from one mail of a burst to the next")
        package static let object = ObjectDeclaration(
            "Mail in bursts (a thread's replies, a sender's batch): same daily mean as mail.perDay, more variance (absent: every mail on its own).",
            [meanSize, gap])
    }

    /// `connectivity`.
    package enum Connectivity {
        package static let online = FieldDeclaration("online", .distribution(positiveMean: true),
                                                     "length of online periods (mean > 0; with offline)")
        package static let offline = FieldDeclaration("offline", .distribution(positiveMean: true),
                                                      "length of offline periods (mean > 0; with online)")
        package static let offlineWindows = FieldDeclaration("offlineWindows", .array(of: .object(OfflineWindow.object)),
                                                             "daily windows laid over the alternation; offline wins")
        package static let object = ObjectDeclaration(
            "The device's connection to APNs (absent: always online).", [online, offline, offlineWindows],
            dependencies: [("online", ["offline"]), ("offline", ["online"])])
    }

    /// `connectivity.offlineWindows[]`.
    package enum OfflineWindow {
        package static let start = FieldDeclaration("start", .text(pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$"), required: true,
                                                    "local start time, HH:MM")
        package static let duration = FieldDeclaration("duration", .distribution(positiveMean: false), required: true,
                                                       "how long the device stays offline once it starts")
        package static let probability = FieldDeclaration("probability", .probability, required: true,
                                                          "chance a device takes the window on a given day")
        package static let days = FieldDeclaration("days", .choice(what: "day set", ["all", "weekdays", "weekends"]),
                                                   "days it applies to (default all)")
        package static let object = ObjectDeclaration(nil, [start, duration, probability, days])
    }

    /// `latency`.
    package enum Latency {
        package static let providerToAPNs = FieldDeclaration("providerToAPNs", .distribution(positiveMean: false),
                                                             "per request, provider → APNs (default 0)")
        package static let apnsToDevice = FieldDeclaration("apnsToDevice", .distribution(positiveMean: false),
                                                           "per delivery, APNs → device (default 0)")
        package static let rerequestRoundTrip = FieldDeclaration("rerequestRoundTrip", .distribution(positiveMean: false),
                                                                 "extension → provider → extension (default 0)")
        package static let object = ObjectDeclaration("Network latencies.", [providerToAPNs, apnsToDevice, rerequestRoundTrip])
    }

    /// `provider`.
    package enum Provider {
        package static let payloadTTL = FieldDeclaration("payloadTTL", .duration(positive: true),
                                                         "how long numbered payloads stay re-requestable (default: the whole run)")
        package static let expiredPositions = FieldDeclaration(
            "expiredPositions", .choice(what: "answer", ["resendRest", "error"]),
            "answer to a re-request when some positions are past payloadTTL (default resendRest)")
        package static let retries = FieldDeclaration("retries", .integer(0...20),
                                                      "extra attempts for a request with no answer, a 429 or a 503 (default 0)")
        package static let backoff = FieldDeclaration("backoff", .duration(positive: true),
                                                      "wait before the first retry, doubling for each next one (default 1s)")
        package static let network = FieldDeclaration("network", .object(ProviderNetwork.object))
        package static let outages = FieldDeclaration("outages", .object(Outages.object))
        package static let subscriptions = FieldDeclaration("subscriptions", .object(Subscriptions.object))
        package static let object = ObjectDeclaration(
            "The provider's failures, retries, outages and subscriptions.",
            [payloadTTL, expiredPositions, retries, backoff, network, outages, subscriptions])
    }

    /// `provider.network`.
    package enum ProviderNetwork {
        package static let failureProbability = FieldDeclaration("failureProbability", .probability, required: true,
                                                                 "chance one request gets no answer")
        package static let timeout = FieldDeclaration("timeout", .duration(positive: true),
                                                      "how long the provider waits for an answer (default 10s)")
        package static let object = ObjectDeclaration("Provider → APNs requests lost on the way (lost_provider_network).",
                                                      [failureProbability, timeout])
    }

    /// `provider.outages`.
    package enum Outages {
        package static let scheduled = FieldDeclaration("scheduled", .array(of: .object(ScheduledOutage.object)),
                                                        "windows at fixed times")
        package static let random = FieldDeclaration("random", .object(RandomOutages.object))
        package static let object = ObjectDeclaration("Provider outages (lost_provider_outage); {} is allowed.", [scheduled, random])
    }

    /// `provider.outages.scheduled[]`.
    package enum ScheduledOutage {
        package static let start = FieldDeclaration(
            "start", .text(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}$"), required: true,
            "local start, YYYY-MM-DDTHH:MM, inside the run")
        package static let duration = FieldDeclaration("duration", .duration(positive: true), required: true, "length of the window")
        package static let object = ObjectDeclaration(nil, [start, duration])
    }

    /// `provider.outages.random`.
    package enum RandomOutages {
        package static let between = FieldDeclaration("between", .distribution(positiveMean: true), required: true,
                                                      "end of one outage to the start of the next (mean > 0)")
        package static let duration = FieldDeclaration("duration", .distribution(positiveMean: true), required: true,
                                                       "length of one outage (mean > 0)")
        package static let object = ObjectDeclaration("Random outages, drawn from the seed once per block of users (64 independent histories).", [between, duration])
    }

    /// `provider.subscriptions`.
    package enum Subscriptions {
        package static let changesPerDay = FieldDeclaration("changesPerDay", .perDay, required: true,
                                                            "mean subscription changes a day per device app")
        package static let mailShare = FieldDeclaration("mailShare", .probability, required: true,
                                                        "share of the user's mail that goes to the folder subscribed last")
        package static let syncOn = FieldDeclaration(
            "syncOn", .choice(what: "sync trigger", ["reconnect", "launch"]),
            "when an offline change syncs (default reconnect; launch needs device.launches)")
        package static let object = ObjectDeclaration(
            "Folder subscriptions the user changes in the app (lost_stale_subscription).", [changesPerDay, mailShare, syncOn])
    }

    /// `apns`.
    package enum APNs {
        package static let expiration = FieldDeclaration(
            "expiration", .duration(positive: false),
            "apns-expiration = send time + this; 0 means one attempt, no storage (default: header absent)")
        package static let storage = FieldDeclaration(
            "storage", .choice(what: "storage policy", ["latest", "nondeterministic"]),
            "which notification the one-per-app offline storage keeps (default latest)")
        package static let closeTogether = FieldDeclaration(
            "closeTogether", .duration(positive: true),
            "only with storage nondeterministic: pushes this close are kept with even odds (default 1s)")
        package static let rateLimit = FieldDeclaration("rateLimit", .object(RateLimit.object))
        package static let priority5Deferral = FieldDeclaration(
            "priority5Deferral", .distribution(positiveMean: false),
            "how long APNs holds priority 5 pushes for a connected device")
        package static let faults = FieldDeclaration("faults", .object(Faults.object))
        package static let object = ObjectDeclaration("APNs's storage, throttle, deferral and faults.",
                                                      [expiration, storage, closeTogether, rateLimit, priority5Deferral, faults])
    }

    /// `apns.faults`.
    package enum Faults {
        package static let scheduled = FieldDeclaration("scheduled", .array(of: .object(ScheduledFault.object)),
                                                        "windows at fixed times")
        package static let random = FieldDeclaration("random", .array(of: .object(RandomFaults.object)),
                                                     "random windows, one entry per kind")
        package static let slowLatency = FieldDeclaration(
            "slowLatency", .distribution(positiveMean: false), "added to every answer in a slow window (default 0)")
        package static let reconnect = FieldDeclaration(
            "reconnect", .distribution(positiveMean: false),
            "time to open a new connection in an idleClosed window (default 0)")
        package static let object = ObjectDeclaration(
            "APNs's faults: error answers, dropped connections, slow answers, idle connections closed (fault_* columns).",
            [scheduled, random, slowLatency, reconnect])
    }

    /// The kinds a fault may be, by their names.
    package static let faultKind = FieldKind.choice(what: "fault kind", APNsFaultKind.allCases.map(\.name))

    /// `apns.faults.scheduled[]`.
    package enum ScheduledFault {
        package static let kind = FieldDeclaration("kind", faultKind, required: true, "how APNs fails")
        package static let start = FieldDeclaration(
            "start", .text(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}$"), required: true,
            "local start, YYYY-MM-DDTHH:MM, inside the run")
        package static let duration = FieldDeclaration("duration", .duration(positive: true), required: true, "length of the window")
        package static let object = ObjectDeclaration(nil, [kind, start, duration])
    }

    /// `apns.faults.random[]`.
    package enum RandomFaults {
        package static let kind = FieldDeclaration("kind", faultKind, required: true, "how APNs fails")
        package static let between = FieldDeclaration("between", .distribution(positiveMean: true), required: true,
                                                      "end of one fault to the start of the next (mean > 0)")
        package static let duration = FieldDeclaration("duration", .distribution(positiveMean: true), required: true,
                                                       "length of one fault (mean > 0)")
        package static let object = ObjectDeclaration(
            "Random faults of one kind, drawn from the seed once per block of users (64 independent histories).",
            [kind, between, duration])
    }

    /// `apns.rateLimit`.
    package enum RateLimit {
        package static let burst = FieldDeclaration("burst", .integer(1...1_000_000), required: true,
                                                    "requests one token may receive back to back")
        package static let window = FieldDeclaration("window", .duration(positive: true), required: true,
                                                     "time in which a full burst is refilled")
        package static let object = ObjectDeclaration("Per-token throttle: past it APNs answers 429 (lost_rate_limited).",
                                                      [burst, window])
    }

    /// `push`.
    package enum Push {
        package static let app = FieldDeclaration("app", .text(minLength: 1), "bundle id (default ru.yandex.mail)")
        package static let alertBodyBytes = FieldDeclaration(
            "alertBodyBytes", .integer(0...1_000_000), "alert body length (default 120); payloads over 4096 bytes get 413")
        package static let object = ObjectDeclaration("The push payload.", [app, alertBodyBytes])
    }

    /// `device`.
    package enum Device {
        package static let extensionTimeLimit = FieldDeclaration("extensionTimeLimit", .duration(positive: true),
                                                                 "the extension's completion deadline (default 30s)")
        package static let notificationsDisabled = FieldDeclaration(
            "notificationsDisabled", .probability, "share of device apps with notifications disabled (lost_disabled)")
        package static let alertsNotAllowed = FieldDeclaration(
            "alertsNotAllowed", .probability, "share whose user does not allow alerts (lost_alerts_not_allowed)")
        package static let displayOff = FieldDeclaration(
            "displayOff", .probability, "share with the app's notification display switched off (lost_display_off)")
        package static let legacyIOS = FieldDeclaration("legacyIOS", .probability, "share of devices on iOS < 10: no extension runs")
        package static let extensionMemory = FieldDeclaration("extensionMemory", .object(ExtensionMemory.object))
        package static let tokenRotation = FieldDeclaration("tokenRotation", .object(TokenRotation.object))
        package static let deviceIDChangesPerDay = FieldDeclaration("deviceIDChangesPerDay", .perDay,
                                                                    "mean device id changes a day (default 0)")
        package static let accounts = FieldDeclaration(
            "accounts", .countShares, "accounts in the app, each its own mail stream into the one queue (default 1)")
        package static let apps = FieldDeclaration(
            "apps", .countShares, "mail apps on the device, each with its own token, APNs slot and queue (default 1)")
        package static let launches = FieldDeclaration(
            "launches", .rhythm, "app launches: upload the extension's log, register, sync subscriptions")
        package static let taps = FieldDeclaration("taps", .object(Taps.object))
        package static let object = ObjectDeclaration(
            "The device's settings, limits, identity, apps, launches and taps.",
            [extensionTimeLimit, notificationsDisabled, alertsNotAllowed, displayOff, legacyIOS, extensionMemory,
             tokenRotation, deviceIDChangesPerDay, accounts, apps, launches, taps])
    }

    /// `background`.
    package enum Background {
        package static let rhythm = FieldDeclaration(
            "rhythm", .rhythm, required: true,
            "when the backend sends a device app a background push: perDay (mean a weekday), diurnal, weekendFactor")
        package static let budgetPerHour = FieldDeclaration(
            "budgetPerHour", .integer(1...3600),
            "background pushes iOS hands the app in one clock hour; past it the newest is held for the next (default 3)")
        package static let forceQuit = FieldDeclaration(
            "forceQuit", .probability, "share of the time the app is force-quit: a background push then is discarded (default 0)")
        package static let object = ObjectDeclaration(
            "Background pushes (apns-push-type background, priority 5) beside the mail: never drawn, handed to the app within iOS's budget.",
            [rhythm, budgetPerHour, forceQuit])
    }

    /// `device.extensionMemory`.
    package enum ExtensionMemory {
        package static let footprintMB = FieldDeclaration("footprintMB", .sizeDistribution, required: true,
                                                          "footprint of one invocation, MB")
        package static let olderIOS = FieldDeclaration("olderIOS", .probability,
                                                       "share of devices on older iOS, with the lower limit")
        package static let olderLimitMB = FieldDeclaration("olderLimitMB", .megabytes(positive: true),
                                                           "memory limit on older iOS, MB (default 12)")
        package static let newerLimitMB = FieldDeclaration("newerLimitMB", .megabytes(positive: true),
                                                           "memory limit on newer iOS, MB (default 24)")
        package static let object = ObjectDeclaration("The extension's memory against its device's limit.",
                                                      [footprintMB, olderIOS, olderLimitMB, newerLimitMB])
    }

    /// `device.tokenRotation`.
    package enum TokenRotation {
        package static let perDay = FieldDeclaration("perDay", .perDay, required: true, "mean rotations a day per device app")
        package static let withPrompt = FieldDeclaration(
            "withPrompt", .probability, "share of rotations that are reinstalls, showing the permission prompt again")
        package static let object = ObjectDeclaration("APNs token rotation (lost_unregistered).", [perDay, withPrompt])
    }

    /// `device.taps`.
    package enum Taps {
        package static let probability = FieldDeclaration("probability", .probability, required: true,
                                                          "chance a shown notification is tapped")
        package static let delay = FieldDeclaration("delay", .distribution(positiveMean: false),
                                                    "time from showing to the tap (default 0)")
        package static let object = ObjectDeclaration("Taps on shown notifications; each tap launches the app.",
                                                      [probability, delay])
    }

    /// `strategies[]`.
    package enum Strategy {
        package static let name = FieldDeclaration("name", .strategyName, required: true)
        package static let label = FieldDeclaration(
            "label", .text(pattern: #"^[^,"\n\r]+$"#),
            "the report's name for it (default: the name); no comma, quote or line break; labels are unique")
        package static let repeatMaxCount = FieldDeclaration(
            "repeatMaxCount", .integer(0...1_000_000),
            "queue strategies: a gap larger than this is summarised instead of re-requested (default: no limit)")
        package static let collapseID = FieldDeclaration(
            "collapseID", .boolean,
            "queue strategies: send apns-collapse-id so a re-sent push replaces its original (default true)")
        package static let registration = FieldDeclaration(
            "registration", .choice(what: "registration", ["everyLaunch", "once"]),
            "when the app registers for notifications: at every launch (default) or only when the permission prompt shows")
        package static let priority = FieldDeclaration(
            "priority", .integerChoice([10, 5]),
            "apns-priority of mail pushes (default 10); 5 lets APNs defer them per apns.priority5Deferral")
        package static let from = FieldDeclaration(
            "from", .date,
            "queue strategies: the day the strategy reaches users as an app update (inside the run); starts a rollout")
        package static let before = FieldDeclaration(
            "before", .strategyName, "with from: the strategy each device runs until its update (default no-queue)")
        package static let adoption = FieldDeclaration(
            "adoption", .distribution(positiveMean: false),
            "with from: delay from 'from' until a device app runs the new version (default 0)")
        package static let object = ObjectDeclaration(
            "One column of the comparison.",
            [name, label, repeatMaxCount, collapseID, registration, priority, from, before, adoption],
            dependencies: [("before", ["from"]), ("adoption", ["from"])])
    }

    /// `events[]`.
    package enum Event {
        /// An instant of the run's clock, UTC (the start's midnight is `T00:00Z`), to the microsecond at most.
        package static let instantPattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?Z$"
        package static let at = FieldDeclaration(
            "at", .text(pattern: instantPattern), required: true,
            "when, inside the run: YYYY-MM-DDTHH:MM[:SS[.ffffff]]Z on the run's clock (the start's midnight is T00:00Z)")
        package static let device = FieldDeclaration("device", .integer(0...99_999_999), required: true,
                                                     "the device, from 0 (below devices)")
        package static let app = FieldDeclaration("app", .integer(0...Int64(maxCount - 1)),
                                                  "the app on the device, from 0 (default 0; online and offline act on every app)")
        package static let action = FieldDeclaration(
            "action", .choice(what: "action", SteeringAction.allCases.map(\.name)), required: true,
            "what the device app does: " + SteeringAction.allCases.map { "\($0.name) (\($0.summary))" }.joined(separator: "; "))
        package static let object = ObjectDeclaration("A dated steering action of one device app.", [at, device, app, action])
    }

    /// `expect[]`.
    package enum Expectation {
        package static let metric = FieldDeclaration("metric", .choice(what: "metric", Metric.allCases.map(\.name)), required: true,
                                                     "the rate held to the bounds")
        package static let strategy = FieldDeclaration("strategy", .text(), required: true,
                                                       "the label of the strategy whose rate is checked")
        package static let minus = FieldDeclaration(
            "minus", .text(), "when given, the bound is on strategy's rate minus this strategy's (paired difference)")
        package static let atLeast = FieldDeclaration("atLeast", .number(NumberRange()),
                                                      "the interval's lower end must be at least this")
        package static let atMost = FieldDeclaration("atMost", .number(NumberRange()),
                                                     "the interval's upper end must be at most this")
        package static let confidence = FieldDeclaration(
            "confidence", .number(NumberRange(lower: .exclusive(0), upper: .inclusive(Simulator.Expectation.maximumConfidence))),
            "the interval's confidence (default 0.95)")
        package static let object = ObjectDeclaration(
            "A bound pushsim check holds the run to; needs atLeast, atMost or both.",
            [metric, strategy, minus, atLeast, atMost, confidence], needsOneOf: ["atLeast", "atMost"])
    }
}

/// A distribution's variant: its `distribution` tag and parameters, shared by time and
/// size distributions. The decoder takes each variant's keys from here and the schema
/// writes its variants from here.
package struct DistributionShape: Sendable {
    package enum ParameterKind: Sendable {
        /// A duration (or, in a size distribution, megabytes); `positive`: above 0.
        case amount(positive: Bool)
        /// A lognormal's σ, 0 to `ScenarioFields.maxSigma`.
        case sigma
    }

    package struct Parameter: Sendable {
        package let name: String
        package let kind: ParameterKind
        package let summary: String
    }

    package let name: String
    package let parameters: [Parameter]

    /// The keys a variant accepts: the tag, then its parameters.
    /// - Complexity: O(parameters).
    package var keys: [String] { ["distribution"] + parameters.map(\.name) }

    package static let all: [DistributionShape] = [
        DistributionShape(name: "constant", parameters: [
            Parameter(name: "value", kind: .amount(positive: false), summary: "the value every draw takes"),
        ]),
        DistributionShape(name: "exponential", parameters: [
            Parameter(name: "mean", kind: .amount(positive: true), summary: "the mean (> 0)"),
        ]),
        DistributionShape(name: "uniform", parameters: [
            Parameter(name: "min", kind: .amount(positive: false), summary: "the lowest value"),
            Parameter(name: "max", kind: .amount(positive: false), summary: "the highest value (not below min)"),
        ]),
        DistributionShape(name: "lognormal", parameters: [
            Parameter(name: "median", kind: .amount(positive: true), summary: "the median (> 0)"),
            Parameter(name: "sigma", kind: .sigma, summary: "σ of the underlying normal, 0 to \(Int(ScenarioFields.maxSigma))"),
        ]),
    ]

    /// The variant tagged `name`.
    /// - Complexity: O(variants).
    package static func named(_ name: String) -> DistributionShape? { all.first { $0.name == name } }

    /// Every key some variant accepts, each once, in variant order.
    /// - Complexity: O(variants × parameters).
    package static var allKeys: [String] {
        var keys: [String] = []
        for key in all.flatMap(\.keys) where !keys.contains(key) { keys.append(key) }
        return keys
    }
}
