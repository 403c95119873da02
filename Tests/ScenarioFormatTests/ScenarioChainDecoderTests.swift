@testable import Base
@testable import FakeAPNs
import Foundation
@testable import Provider
@testable import ScenarioFormat
@testable import Simulator
import TestSupport
import Testing

/// The delivery chain's fields: provider failures, APNs storage and throttling, device
/// settings, identity, launches and taps, and the strategies' registration and priority.
@Suite("Scenario decoder: the chain's fields")
struct ScenarioChainDecoderTests {
    /// A core scenario (3 days from Monday 2026-01-05) with `sections` (top-level
    /// members, each ending in a comma) before the strategies.
    static func scenario(_ sections: String = "", strategies: String = #"{ "name": "queue" }"#) -> String {
        """
        {
          "name": "chain",
          "start": "2026-01-05",
          "duration": "3d",
          "devices": 10,
          "mail": { "perDay": 24 },
          \(sections)
          "strategies": [ \(strategies) ]
        }
        """
    }

    /// The default chain with `change` applied.
    static func chain(_ change: (inout ChainModel) -> Void) -> ChainModel {
        var chain = ChainModel()
        change(&chain)
        return chain
    }

    private func decode(_ text: String) throws -> Scenario {
        try ScenarioDecoder.decode(Array(text.utf8), file: "s.json")
    }

    static let second = TimeUnit.second, minute = TimeUnit.minute, hour = TimeUnit.hour, day = TimeUnit.day

    // MARK: Absent fields

    @Test("a core scenario decodes to the empty chain and the default strategy knobs")
    func coreScenarioHasNoChain() throws {
        let scenario = try decode(Self.scenario())
        #expect(scenario.chain == ChainModel())
        #expect(scenario.strategies == [Strategy(label: "queue", kind: .queue, repeatMaxCount: .max, collapseID: true,
                                                 registration: .everyLaunch, priority: 10)])
    }

    @Test("the provider, apns and device objects with only core fields leave the chain empty")
    func coreFieldsLeaveChainEmpty() throws {
        let scenario = try decode(Self.scenario("""
          "provider": { "payloadTTL": "1h" },
          "apns": { "expiration": "1d" },
          "device": { "extensionTimeLimit": "20s" },
        """))
        #expect(scenario.chain == ChainModel())
        #expect(scenario.payloadTTL == Self.hour)
        #expect(scenario.expiration == .after(Self.day))
        #expect(scenario.extensionTimeLimit == 20 * Self.second)
    }

    @Test("empty provider, apns and device objects leave the chain empty")
    func emptyObjectsLeaveChainEmpty() throws {
        let scenario = try decode(Self.scenario(#""provider": {}, "apns": {}, "device": {},"#))
        #expect(scenario.chain == ChainModel())
    }

    @Test("the empty chain is the core model: nothing on, one account, one app")
    func emptyChainValues() {
        let chain = ChainModel()
        #expect(chain.provider.subscriptions == nil && chain.provider.network == nil && chain.provider.outages == nil)
        #expect(chain.provider.retry == RetryPolicy(maxRetries: 0, backoff: Self.second))
        #expect(chain.provider.expiredPositions == .resendRest)
        #expect(chain.apns.storage == .latest && chain.apns.rateLimit == nil && chain.apns.lowPriorityDeferral == nil)
        #expect(chain.device.notificationsDisabledShare == 0 && chain.device.alertsNotAllowedShare == 0)
        #expect(chain.device.displayOffShare == 0 && chain.device.legacyIOSShare == 0 && chain.device.deviceIDChangesPerDay == 0)
        #expect(chain.device.memory == nil && chain.device.tokenRotation == nil && chain.device.launches == nil && chain.device.taps == nil)
        #expect(chain.device.accounts == CountShares(shares: [1]) && chain.device.apps == CountShares(shares: [1]))
    }

    @Test("every shipped scenario decodes; the core ones name no chain field, the loss-family ones do")
    func shippedScenariosDecode() throws {
        #expect(WorldFixtures.shippedFiles.count >= 13)
        let core: Set = ["two-states.json", "scale-1m.json", "regression-gate.json", "busy-device.json",
                          "mail-bursty.json", "send-log-bursty.json", "send-log-bursty-model.json"]
        for file in WorldFixtures.shippedFiles {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let scenario = try ScenarioDecoder.load(path: root.appendingPathComponent("scenarios/\(file)").path)
            #expect((scenario.chain == ChainModel()) == core.contains(file), "\(file)")
            #expect(scenario.name + ".json" == file, "a scenario's name is its file's name: \(file)")
        }
    }

    // MARK: Each field lands in the model

    /// A scenario fragment and the whole chain it must decode to.
    struct FieldCase: Sendable, CustomTestStringConvertible {
        var name: String
        var sections: String
        var expected: ChainModel
        var testDescription: String { name }
    }

    static let diurnal = Array(repeating: 1.0, count: 12) + Array(repeating: 3.0, count: 12)

    static let fieldCases: [FieldCase] = [
        FieldCase(name: "provider.expiredPositions error",
                  sections: #""provider": { "expiredPositions": "error" },"#,
                  expected: chain { $0.provider.expiredPositions = .error }),
        FieldCase(name: "provider.expiredPositions resendRest",
                  sections: #""provider": { "expiredPositions": "resendRest" },"#,
                  expected: ChainModel()),
        FieldCase(name: "provider.retries with the default back-off",
                  sections: #""provider": { "retries": 3 },"#,
                  expected: chain { $0.provider.retry = RetryPolicy(maxRetries: 3, backoff: second) }),
        FieldCase(name: "provider.retries and provider.backoff",
                  sections: #""provider": { "retries": 20, "backoff": "250ms" },"#,
                  expected: chain { $0.provider.retry = RetryPolicy(maxRetries: 20, backoff: 250 * TimeUnit.millisecond) }),
        FieldCase(name: "provider.network with the default timeout",
                  sections: #""provider": { "network": { "failureProbability": 0.01 } },"#,
                  expected: chain { $0.provider.network = ProviderNetworkModel(failureProbability: 0.01, timeout: 10 * second) }),
        FieldCase(name: "provider.network with a timeout",
                  sections: #""provider": { "network": { "failureProbability": 1, "timeout": "3s" } },"#,
                  expected: chain { $0.provider.network = ProviderNetworkModel(failureProbability: 1, timeout: 3 * second) }),
        FieldCase(name: "provider.outages scheduled, sorted by start, from the start date's midnight",
                  sections: """
                  "provider": { "outages": { "scheduled": [
                    { "start": "2026-01-07T23:59", "duration": "10m" },
                    { "start": "2026-01-05T00:00", "duration": "2h" },
                    { "start": "2026-01-06T03:30", "duration": "90s" }
                  ] } },
                  """,
                  expected: chain {
                      $0.provider.outages = OutageModel(scheduled: [
                          OutageWindow(start: 0, duration: 2 * hour),
                          OutageWindow(start: day + 3 * hour + 30 * minute, duration: 90 * second),
                          OutageWindow(start: 2 * day + 23 * hour + 59 * minute, duration: 10 * minute),
                      ], between: nil, duration: nil)
                  }),
        FieldCase(name: "provider.outages random",
                  sections: """
                  "provider": { "outages": { "random": {
                    "between": { "distribution": "exponential", "mean": "7d" },
                    "duration": { "distribution": "lognormal", "median": "20m", "sigma": 1 } } } },
                  """,
                  expected: chain {
                      $0.provider.outages = OutageModel(scheduled: [], between: .exponential(mean: 7 * day),
                                               duration: .lognormal(median: 20 * minute, sigma: 1))
                  }),
        FieldCase(name: "provider.outages empty",
                  sections: #""provider": { "outages": {} },"#,
                  expected: chain { $0.provider.outages = OutageModel(scheduled: [], between: nil, duration: nil) }),
        FieldCase(name: "provider.subscriptions syncing on reconnect by default",
                  sections: #""provider": { "subscriptions": { "changesPerDay": 0.05, "mailShare": 0.2 } },"#,
                  expected: chain {
                      $0.provider.subscriptions = SubscriptionModel(changesPerDay: 0.05, mailShare: 0.2, syncOn: .reconnect)
                  }),
        FieldCase(name: "provider.subscriptions syncing on launch, with launches",
                  sections: """
                  "provider": { "subscriptions": { "changesPerDay": 0, "mailShare": 1, "syncOn": "launch" } },
                  "device": { "launches": { "perDay": 4 } },
                  """,
                  expected: chain {
                      $0.provider.subscriptions = SubscriptionModel(changesPerDay: 0, mailShare: 1, syncOn: .launch)
                      $0.device.launches = LaunchModel(rhythm: MailModel(perDay: 4))
                  }),
        FieldCase(name: "apns.storage latest",
                  sections: #""apns": { "storage": "latest" },"#,
                  expected: ChainModel()),
        FieldCase(name: "apns.storage nondeterministic with the default closeTogether",
                  sections: #""apns": { "storage": "nondeterministic" },"#,
                  expected: chain { $0.apns.storage = .nondeterministic(closeTogether: second) }),
        FieldCase(name: "apns.storage nondeterministic with closeTogether",
                  sections: #""apns": { "closeTogether": "5m", "storage": "nondeterministic" },"#,
                  expected: chain { $0.apns.storage = .nondeterministic(closeTogether: 5 * minute) }),
        FieldCase(name: "apns.rateLimit",
                  sections: #""apns": { "rateLimit": { "burst": 100, "window": "1h" } },"#,
                  expected: chain { $0.apns.rateLimit = APNsRateLimit(burst: 100, window: hour) }),
        FieldCase(name: "apns.priority5Deferral",
                  sections: #""apns": { "priority5Deferral": { "distribution": "exponential", "mean": "20m" } },"#,
                  expected: chain { $0.apns.lowPriorityDeferral = .exponential(mean: 20 * minute) }),
        FieldCase(name: "apns.priority5Deferral as a bare duration",
                  sections: #""apns": { "priority5Deferral": "0s" },"#,
                  expected: chain { $0.apns.lowPriorityDeferral = .constant(0) }),
        FieldCase(name: "device.notificationsDisabled",
                  sections: #""device": { "notificationsDisabled": 0.4 },"#,
                  expected: chain { $0.device.notificationsDisabledShare = 0.4 }),
        FieldCase(name: "device.alertsNotAllowed",
                  sections: #""device": { "alertsNotAllowed": 0.05 },"#,
                  expected: chain { $0.device.alertsNotAllowedShare = 0.05 }),
        FieldCase(name: "device.displayOff",
                  sections: #""device": { "displayOff": 0.02 },"#,
                  expected: chain { $0.device.displayOffShare = 0.02 }),
        FieldCase(name: "device.legacyIOS",
                  sections: #""device": { "legacyIOS": 1 },"#,
                  expected: chain { $0.device.legacyIOSShare = 1 }),
        FieldCase(name: "device.extensionMemory with the default limits",
                  sections: #""device": { "extensionMemory": { "footprintMB": 8 } },"#,
                  expected: chain {
                      $0.device.memory = ExtensionMemoryModel(footprintKB: .constant(8192), olderIOSShare: 0,
                                                       olderLimitKB: 12_288, newerLimitKB: 24_576)
                  }),
        FieldCase(name: "device.extensionMemory with every part",
                  sections: """
                  "device": { "extensionMemory": {
                    "footprintMB": { "distribution": "lognormal", "median": 10, "sigma": 0.3 },
                    "olderIOS": 0.2, "olderLimitMB": 10.5, "newerLimitMB": 50 } },
                  """,
                  expected: chain {
                      $0.device.memory = ExtensionMemoryModel(footprintKB: .lognormal(median: 10_240, sigma: 0.3),
                                                       olderIOSShare: 0.2, olderLimitKB: 10_752, newerLimitKB: 51_200)
                  }),
        FieldCase(name: "device.tokenRotation with no prompt by default",
                  sections: #""device": { "tokenRotation": { "perDay": 0.001 } },"#,
                  expected: chain { $0.device.tokenRotation = TokenRotationModel(perDay: 0.001, withPromptShare: 0) }),
        FieldCase(name: "device.tokenRotation with prompts",
                  sections: #""device": { "tokenRotation": { "perDay": 2, "withPrompt": 0.5 } },"#,
                  expected: chain { $0.device.tokenRotation = TokenRotationModel(perDay: 2, withPromptShare: 0.5) }),
        FieldCase(name: "device.deviceIDChangesPerDay",
                  sections: #""device": { "deviceIDChangesPerDay": 0.0001 },"#,
                  expected: chain { $0.device.deviceIDChangesPerDay = 0.0001 }),
        FieldCase(name: "device.accounts as one count",
                  sections: #""device": { "accounts": 3 },"#,
                  expected: chain { $0.device.accounts = CountShares(shares: [0, 0, 1]) }),
        FieldCase(name: "device.accounts at the largest count",
                  sections: #""device": { "accounts": 20 },"#,
                  expected: chain { $0.device.accounts = CountShares(shares: Array(repeating: 0, count: 19) + [1]) }),
        FieldCase(name: "device.apps as shares, missing counts filled with zeros",
                  sections: #""device": { "apps": { "3": 0.3, "1": 0.7 } },"#,
                  expected: chain { $0.device.apps = CountShares(shares: [0.7, 0, 0.3]) }),
        FieldCase(name: "device.apps shares with trailing zeros are the same as without",
                  sections: #""device": { "apps": { "1": 1, "2": 0 } },"#,
                  expected: ChainModel()),
        FieldCase(name: "device.apps shares summing to 1 within 1e-6",
                  sections: #""device": { "apps": { "1": 0.3333333, "2": 0.6666666 } },"#,
                  expected: chain { $0.device.apps = CountShares(shares: [0.3333333, 0.6666666]) }),
        FieldCase(name: "device.launches with a rhythm",
                  sections: """
                  "device": { "launches": { "perDay": 4, "weekendFactor": 1.5,
                    "diurnal": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3] } },
                  """,
                  expected: chain {
                      $0.device.launches = LaunchModel(rhythm: MailModel(perDay: 4, diurnal: diurnal, weekendFactor: 1.5))
                  }),
        FieldCase(name: "device.taps with no delay by default",
                  sections: #""device": { "taps": { "probability": 0.1 } },"#,
                  expected: chain { $0.device.taps = TapModel(probability: 0.1, delay: .constant(0)) }),
        FieldCase(name: "device.taps with a delay",
                  sections: #""device": { "taps": { "probability": 0.02, "delay": { "distribution": "exponential", "mean": "7m" } } },"#,
                  expected: chain { $0.device.taps = TapModel(probability: 0.02, delay: .exponential(mean: 7 * minute)) }),
    ]

    @Test("a chain field lands in the model and nothing else changes", arguments: fieldCases)
    func decodesField(_ field: FieldCase) throws {
        #expect(try decode(Self.scenario(field.sections)).chain == field.expected)
    }

    @Test("launch rhythms are normalised like mail")
    func launchDiurnalNormalised() throws {
        let text = Self.scenario(#""device": { "launches": { "perDay": 4, "diurnal": [\#(Self.diurnal.map { format($0) }.joined(separator: ", "))] } },"#)
        let launches = try #require(try decode(text).chain.device.launches)
        // Weights 1 and 3 have mean 2: 0.5 and 1.5.
        #expect(launches.rhythm.diurnal == Array(repeating: 0.5, count: 12) + Array(repeating: 1.5, count: 12))
        #expect(launches.rhythm.weekendFactor == 1)
    }

    @Test("size distributions read megabytes as whole kilobytes", arguments: [
        ("8", Distribution.constant(8192)),
        ("0", .constant(0)),
        ("0.0005", .constant(1)),
        ("0.0004", .constant(0)),
        (#"{ "distribution": "constant", "value": 8 }"#, .constant(8192)),
        (#"{ "distribution": "exponential", "mean": 2.5 }"#, .exponential(mean: 2560)),
        (#"{ "distribution": "uniform", "min": 4, "max": 16.25 }"#, .uniform(min: 4096, max: 16_640)),
        (#"{ "distribution": "lognormal", "median": 10, "sigma": 0.5 }"#, .lognormal(median: 10_240, sigma: 0.5)),
    ])
    func sizeDistributions(json: String, expected: Distribution) throws {
        let text = Self.scenario(#""device": { "extensionMemory": { "footprintMB": \#(json) } },"#)
        #expect(try decode(text).chain.device.memory?.footprintKB == expected)
    }

    @Test("strategies' registration and priority land in each strategy")
    func strategyKnobs() throws {
        let scenario = try decode(Self.scenario(strategies: """
        { "name": "no-queue", "registration": "once", "priority": 5 },
        { "name": "queue", "registration": "everyLaunch", "priority": 10 },
        { "name": "queue-as-published", "priority": 5 }
        """))
        #expect(scenario.strategies == [
            Strategy(label: "no-queue", kind: .noQueue, repeatMaxCount: .max, collapseID: true,
                     registration: .onceAtPrompt, priority: 5),
            Strategy(label: "queue", kind: .queue, repeatMaxCount: .max, collapseID: true,
                     registration: .everyLaunch, priority: 10),
            Strategy(label: "queue-as-published", kind: .queueAsPublished, repeatMaxCount: .max, collapseID: true,
                     registration: .everyLaunch, priority: 5),
        ])
        #expect(scenario.chain == ChainModel())
    }

    @Test("every chain field at once decodes to the sum of the single-field models")
    func everyFieldAtOnce() throws {
        let scenario = try decode(Self.scenario("""
          "provider": { "payloadTTL": "1d", "expiredPositions": "error", "retries": 2, "backoff": "2s",
            "network": { "failureProbability": 0.001 },
            "outages": { "scheduled": [ { "start": "2026-01-06T12:00", "duration": "1h" } ] },
            "subscriptions": { "changesPerDay": 0.1, "mailShare": 0.3, "syncOn": "launch" } },
          "apns": { "expiration": "30d", "storage": "nondeterministic", "closeTogether": "2s",
            "rateLimit": { "burst": 10, "window": "1m" }, "priority5Deferral": "10m" },
          "device": { "extensionTimeLimit": "30s", "notificationsDisabled": 0.1, "alertsNotAllowed": 0.2,
            "displayOff": 0.3, "legacyIOS": 0.01, "extensionMemory": { "footprintMB": 11 },
            "tokenRotation": { "perDay": 0.001 }, "deviceIDChangesPerDay": 0.0002, "accounts": 2,
            "apps": { "1": 0.5, "2": 0.5 }, "launches": { "perDay": 3 }, "taps": { "probability": 0.05 } },
        """))
        var expected = ChainModel()
        expected.provider.expiredPositions = .error
        expected.provider.retry = RetryPolicy(maxRetries: 2, backoff: 2 * Self.second)
        expected.provider.network = ProviderNetworkModel(failureProbability: 0.001, timeout: 10 * Self.second)
        expected.provider.outages = OutageModel(scheduled: [OutageWindow(start: Self.day + 12 * Self.hour, duration: Self.hour)],
                                       between: nil, duration: nil)
        expected.provider.subscriptions = SubscriptionModel(changesPerDay: 0.1, mailShare: 0.3, syncOn: .launch)
        expected.apns.storage = .nondeterministic(closeTogether: 2 * Self.second)
        expected.apns.rateLimit = APNsRateLimit(burst: 10, window: Self.minute)
        expected.apns.lowPriorityDeferral = .constant(10 * Self.minute)
        expected.device.notificationsDisabledShare = 0.1
        expected.device.alertsNotAllowedShare = 0.2
        expected.device.displayOffShare = 0.3
        expected.device.legacyIOSShare = 0.01
        expected.device.memory = ExtensionMemoryModel(footprintKB: .constant(11 * 1024), olderIOSShare: 0,
                                               olderLimitKB: 12 * 1024, newerLimitKB: 24 * 1024)
        expected.device.tokenRotation = TokenRotationModel(perDay: 0.001, withPromptShare: 0)
        expected.device.deviceIDChangesPerDay = 0.0002
        expected.device.accounts = CountShares(shares: [0, 1])
        expected.device.apps = CountShares(shares: [0.5, 0.5])
        expected.device.launches = LaunchModel(rhythm: MailModel(perDay: 3))
        expected.device.taps = TapModel(probability: 0.05, delay: .constant(0))
        #expect(scenario.chain == expected)
        #expect(scenario.payloadTTL == Self.day)
        #expect(scenario.expiration == .after(30 * Self.day))
        #expect(scenario.extensionTimeLimit == 30 * Self.second)
    }

    // MARK: Refused values

    /// A scenario made bad by `sections` (and `strategies`), with the error it must
    /// produce; `at` is a text that occurs once in the scenario and starts where
    /// the error points.
    struct BadCase: Sendable, CustomTestStringConvertible {
        var name: String
        var sections: String
        var strategies = #"{ "name": "queue" }"#
        var kind: ScenarioError.Kind
        var path: String
        var at: String
        var testDescription: String { name }
    }

    static let badCases: [BadCase] = [
        // Unknown keys, one per object that gained fields.
        BadCase(name: "unknown provider field",
                sections: #""provider": { "retry": 3 },"#,
                kind: .unknownField(known: ScenarioDecoder.providerFields), path: "provider.retry", at: #""retry""#),
        BadCase(name: "unknown apns field",
                sections: #""apns": { "storage": "nondeterministic", "closeTogther": "2s" },"#,
                kind: .unknownField(known: ScenarioDecoder.apnsFields), path: "apns.closeTogther", at: #""closeTogther""#),
        BadCase(name: "unknown device field",
                sections: #""device": { "launch": { "perDay": 1 } },"#,
                kind: .unknownField(known: ScenarioDecoder.deviceFields), path: "device.launch", at: #""launch""#),
        BadCase(name: "unknown strategy field",
                sections: "", strategies: #"{ "name": "queue", "prio": 5 }"#,
                kind: .unknownField(known: ScenarioDecoder.strategyFields),
                path: "strategies[0].prio", at: #""prio""#),

        // provider.expiredPositions, retries, backoff
        BadCase(name: "unknown expiredPositions answer",
                sections: #""provider": { "expiredPositions": "drop" },"#,
                kind: .invalidValue(#"unknown answer "drop"; expected one of: resendRest, error"#),
                path: "provider.expiredPositions", at: #""drop""#),
        BadCase(name: "expiredPositions of the wrong type",
                sections: #""provider": { "expiredPositions": 1 },"#,
                kind: .wrongType(expected: "a string", found: "a number"), path: "provider.expiredPositions", at: "1 }"),
        BadCase(name: "more than 20 retries",
                sections: #""provider": { "retries": 21 },"#,
                kind: .invalidValue("must be between 0 and 20, found 21"), path: "provider.retries", at: "21"),
        BadCase(name: "a fractional retry count",
                sections: #""provider": { "retries": 1.5 },"#,
                kind: .invalidValue("expected an integer, found 1.5"), path: "provider.retries", at: "1.5"),
        BadCase(name: "a zero back-off",
                sections: #""provider": { "retries": 1, "backoff": "0s" },"#,
                kind: .invalidValue("duration must be positive"), path: "provider.backoff", at: #""0s""#),

        // provider.network
        BadCase(name: "network without failureProbability",
                sections: #""provider": { "network": { "timeout": "3s" } },"#,
                kind: .missingField, path: "provider.network.failureProbability", at: #"{ "timeout""#),
        BadCase(name: "network failureProbability above 1",
                sections: #""provider": { "network": { "failureProbability": 1.5 } },"#,
                kind: .invalidValue("probability must be between 0 and 1, found 1.5"),
                path: "provider.network.failureProbability", at: "1.5"),
        BadCase(name: "a zero network timeout",
                sections: #""provider": { "network": { "failureProbability": 0.1, "timeout": 0 } },"#,
                kind: .invalidValue("duration must be positive"), path: "provider.network.timeout", at: "0 }"),
        BadCase(name: "unknown network field",
                sections: #""provider": { "network": { "failureProbability": 0.1, "retries": 2 } },"#,
                kind: .unknownField(known: ["failureProbability", "timeout"]), path: "provider.network.retries",
                at: #""retries""#),

        // provider.outages
        BadCase(name: "an outage start that is not a local time",
                sections: #""provider": { "outages": { "scheduled": [ { "start": "2026-01-06 03:30", "duration": "1h" } ] } },"#,
                kind: .invalidValue(#"not a local time: "2026-01-06 03:30" (write YYYY-MM-DDTHH:MM)"#),
                path: "provider.outages.scheduled[0].start", at: #""2026-01-06 03:30""#),
        BadCase(name: "an outage start with a bad clock",
                sections: #""provider": { "outages": { "scheduled": [ { "start": "2026-01-06T25:00", "duration": "1h" } ] } },"#,
                kind: .invalidValue(#"not a local time: "2026-01-06T25:00" (write YYYY-MM-DDTHH:MM)"#),
                path: "provider.outages.scheduled[0].start", at: #""2026-01-06T25:00""#),
        BadCase(name: "an outage on a day the calendar lacks: its reason, not the format",
                sections: #""provider": { "outages": { "scheduled": [ { "start": "2026-02-29T03:00", "duration": "1h" } ] } },"#,
                kind: .invalidValue(#"not a calendar date: "2026-02-29T03:00" (February 2026 has 28 days)"#),
                path: "provider.outages.scheduled[0].start", at: #""2026-02-29T03:00""#),
        BadCase(name: "an outage before the run",
                sections: #""provider": { "outages": { "scheduled": [ { "start": "2026-01-04T23:59", "duration": "1h" } ] } },"#,
                kind: .invalidValue("starts before the run (2026-01-05T00:00)"),
                path: "provider.outages.scheduled[0].start", at: #""2026-01-04T23:59""#),
        BadCase(name: "an outage at the run's end",
                sections: """
                "provider": { "outages": { "scheduled": [
                  { "start": "2026-01-05T10:00", "duration": "1h" },
                  { "start": "2026-01-08T00:00", "duration": "1h" } ] } },
                """,
                kind: .invalidValue("starts at or after the end of the run"),
                path: "provider.outages.scheduled[1].start", at: #""2026-01-08T00:00""#),
        BadCase(name: "a zero-length scheduled outage",
                sections: #""provider": { "outages": { "scheduled": [ { "start": "2026-01-05T10:00", "duration": "0m" } ] } },"#,
                kind: .invalidValue("duration must be positive"),
                path: "provider.outages.scheduled[0].duration", at: #""0m""#),
        BadCase(name: "a scheduled outage without duration",
                sections: #""provider": { "outages": { "scheduled": [ { "start": "2026-01-05T10:00" } ] } },"#,
                kind: .missingField, path: "provider.outages.scheduled[0].duration", at: #"{ "start""#),
        BadCase(name: "random outages without between",
                sections: #""provider": { "outages": { "random": { "duration": "1h" } } },"#,
                kind: .missingField, path: "provider.outages.random.between", at: #"{ "duration""#),
        BadCase(name: "random outages of zero mean length",
                sections: #""provider": { "outages": { "random": { "between": "7d", "duration": "0s" } } },"#,
                kind: .invalidValue("must be positive"), path: "provider.outages.random.duration", at: #""0s""#),
        BadCase(name: "random outages with a zero mean gap",
                sections: #""provider": { "outages": { "random": { "between": { "distribution": "uniform", "min": 0, "max": 0 }, "duration": "1h" } } },"#,
                kind: .invalidValue("the mean must be positive"), path: "provider.outages.random.between",
                at: #"{ "distribution": "uniform""#),
        BadCase(name: "unknown outages field",
                sections: #""provider": { "outages": { "windows": [] } },"#,
                kind: .unknownField(known: ["scheduled", "random"]), path: "provider.outages.windows", at: #""windows""#),

        // provider.subscriptions
        BadCase(name: "subscriptions without changesPerDay",
                sections: #""provider": { "subscriptions": { "mailShare": 0.1 } },"#,
                kind: .missingField, path: "provider.subscriptions.changesPerDay", at: #"{ "mailShare""#),
        BadCase(name: "subscriptions without mailShare",
                sections: #""provider": { "subscriptions": { "changesPerDay": 0.1 } },"#,
                kind: .missingField, path: "provider.subscriptions.mailShare", at: #"{ "changesPerDay""#),
        BadCase(name: "negative subscription changes",
                sections: #""provider": { "subscriptions": { "changesPerDay": -1, "mailShare": 0.1 } },"#,
                kind: .invalidValue("must be at least 0, found -1"), path: "provider.subscriptions.changesPerDay", at: "-1"),
        BadCase(name: "a mail share above 1",
                sections: #""provider": { "subscriptions": { "changesPerDay": 1, "mailShare": 2 } },"#,
                kind: .invalidValue("probability must be between 0 and 1, found 2"),
                path: "provider.subscriptions.mailShare", at: "2 }"),
        BadCase(name: "an unknown sync trigger",
                sections: #""provider": { "subscriptions": { "changesPerDay": 1, "mailShare": 0.5, "syncOn": "never" } },"#,
                kind: .invalidValue(#"unknown sync trigger "never"; expected one of: reconnect, launch"#),
                path: "provider.subscriptions.syncOn", at: #""never""#),
        BadCase(name: "syncing on launch without launches",
                sections: """
                "provider": { "subscriptions": { "changesPerDay": 1, "mailShare": 0.5, "syncOn": "launch" } },
                "device": { "taps": { "probability": 0.5 } },
                """,
                kind: .invalidValue("needs device.launches: nothing would ever sync"),
                path: "provider.subscriptions.syncOn", at: #""launch""#),

        // apns
        BadCase(name: "an unknown storage policy",
                sections: #""apns": { "storage": "oldest" },"#,
                kind: .invalidValue(#"unknown storage policy "oldest"; expected one of: latest, nondeterministic"#),
                path: "apns.storage", at: #""oldest""#),
        BadCase(name: "closeTogether without a storage policy",
                sections: #""apns": { "closeTogether": "1s" },"#,
                kind: .invalidValue(#"only apns.storage "nondeterministic" has closeTogether"#),
                path: "apns.closeTogether", at: #""1s""#),
        BadCase(name: "closeTogether with the latest storage",
                sections: #""apns": { "storage": "latest", "closeTogether": "1s" },"#,
                kind: .invalidValue(#"only apns.storage "nondeterministic" has closeTogether"#),
                path: "apns.closeTogether", at: #""1s""#),
        BadCase(name: "a zero closeTogether",
                sections: #""apns": { "storage": "nondeterministic", "closeTogether": 0 },"#,
                kind: .invalidValue("duration must be positive"), path: "apns.closeTogether", at: "0 }"),
        BadCase(name: "a zero burst",
                sections: #""apns": { "rateLimit": { "burst": 0, "window": "1h" } },"#,
                kind: .invalidValue("must be between 1 and 1000000, found 0"), path: "apns.rateLimit.burst", at: #"0, "window""#),
        BadCase(name: "a rate limit without window",
                sections: #""apns": { "rateLimit": { "burst": 10 } },"#,
                kind: .missingField, path: "apns.rateLimit.window", at: #"{ "burst""#),
        BadCase(name: "a rate limit without burst",
                sections: #""apns": { "rateLimit": { "window": "1h" } },"#,
                kind: .missingField, path: "apns.rateLimit.burst", at: #"{ "window""#),
        BadCase(name: "a zero rate-limit window",
                sections: #""apns": { "rateLimit": { "burst": 10, "window": "0s" } },"#,
                kind: .invalidValue("duration must be positive"), path: "apns.rateLimit.window", at: #""0s""#),
        BadCase(name: "a priority 5 deferral that is not a duration",
                sections: #""apns": { "priority5Deferral": "soon" },"#,
                kind: .invalidValue(#"not a duration: "soon" (write e.g. "250ms", "30s", "15m", "3h", "2d")"#),
                path: "apns.priority5Deferral", at: #""soon""#),

        // device shares
        BadCase(name: "notificationsDisabled above 1",
                sections: #""device": { "notificationsDisabled": 1.1 },"#,
                kind: .invalidValue("probability must be between 0 and 1, found 1.1"),
                path: "device.notificationsDisabled", at: "1.1"),
        BadCase(name: "alertsNotAllowed below 0",
                sections: #""device": { "alertsNotAllowed": -0.1 },"#,
                kind: .invalidValue("probability must be between 0 and 1, found -0.1"),
                path: "device.alertsNotAllowed", at: "-0.1"),
        BadCase(name: "displayOff as a boolean",
                sections: #""device": { "displayOff": true },"#,
                kind: .wrongType(expected: "a probability (a number from 0 to 1)", found: "a boolean"),
                path: "device.displayOff", at: "true"),
        BadCase(name: "legacyIOS above 1",
                sections: #""device": { "legacyIOS": 2 },"#,
                kind: .invalidValue("probability must be between 0 and 1, found 2"), path: "device.legacyIOS", at: "2 }"),

        // device.extensionMemory
        BadCase(name: "extension memory without footprint",
                sections: #""device": { "extensionMemory": { "olderIOS": 0.1 } },"#,
                kind: .missingField, path: "device.extensionMemory.footprintMB", at: #"{ "olderIOS""#),
        BadCase(name: "a footprint with a unit",
                sections: #""device": { "extensionMemory": { "footprintMB": "8MB" } },"#,
                kind: .wrongType(expected: "a size in MB (a number)", found: "a string"),
                path: "device.extensionMemory.footprintMB", at: #""8MB""#),
        BadCase(name: "a negative footprint",
                sections: #""device": { "extensionMemory": { "footprintMB": -1 } },"#,
                kind: .invalidValue("negative size -1 MB"), path: "device.extensionMemory.footprintMB", at: "-1"),
        BadCase(name: "an absurd footprint",
                sections: #""device": { "extensionMemory": { "footprintMB": 1e300 } },"#,
                kind: .invalidValue("size above 1048576 MB (1 TB)"), path: "device.extensionMemory.footprintMB", at: "1e300"),
        BadCase(name: "a footprint with a zero exponential mean",
                sections: #""device": { "extensionMemory": { "footprintMB": { "distribution": "exponential", "mean": 0 } } },"#,
                kind: .invalidValue("size must be positive (at least 1 KB)"),
                path: "device.extensionMemory.footprintMB.mean", at: "0 }"),
        BadCase(name: "a footprint with max below min",
                sections: #""device": { "extensionMemory": { "footprintMB": { "distribution": "uniform", "min": 8, "max": 3 } } },"#,
                kind: .invalidValue("max must not be less than min"),
                path: "device.extensionMemory.footprintMB.max", at: "3 }"),
        BadCase(name: "a footprint with a time distribution's field",
                sections: #""device": { "extensionMemory": { "footprintMB": { "distribution": "constant", "value": "8s" } } },"#,
                kind: .wrongType(expected: "a size in MB (a number)", found: "a string"),
                path: "device.extensionMemory.footprintMB.value", at: #""8s""#),
        BadCase(name: "a zero older limit",
                sections: #""device": { "extensionMemory": { "footprintMB": 8, "olderLimitMB": 0 } },"#,
                kind: .invalidValue("size must be positive (at least 1 KB)"),
                path: "device.extensionMemory.olderLimitMB", at: "0 }"),
        BadCase(name: "a zero newer limit",
                sections: #""device": { "extensionMemory": { "footprintMB": 8, "newerLimitMB": 0.0001 } },"#,
                kind: .invalidValue("size must be positive (at least 1 KB)"),
                path: "device.extensionMemory.newerLimitMB", at: "0.0001"),
        BadCase(name: "an older-iOS share above 1",
                sections: #""device": { "extensionMemory": { "footprintMB": 8, "olderIOS": 1.5 } },"#,
                kind: .invalidValue("probability must be between 0 and 1, found 1.5"),
                path: "device.extensionMemory.olderIOS", at: "1.5"),
        BadCase(name: "unknown extension memory field",
                sections: #""device": { "extensionMemory": { "footprintMB": 8, "limitMB": 24 } },"#,
                kind: .unknownField(known: ["footprintMB", "olderIOS", "olderLimitMB", "newerLimitMB"]),
                path: "device.extensionMemory.limitMB", at: #""limitMB""#),

        // device.tokenRotation, deviceIDChangesPerDay
        BadCase(name: "token rotation without perDay",
                sections: #""device": { "tokenRotation": { "withPrompt": 0.5 } },"#,
                kind: .missingField, path: "device.tokenRotation.perDay", at: #"{ "withPrompt""#),
        BadCase(name: "negative token rotations",
                sections: #""device": { "tokenRotation": { "perDay": -0.5 } },"#,
                kind: .invalidValue("must be at least 0, found -0.5"), path: "device.tokenRotation.perDay", at: "-0.5"),
        BadCase(name: "a prompt share above 1",
                sections: #""device": { "tokenRotation": { "perDay": 1, "withPrompt": 2 } },"#,
                kind: .invalidValue("probability must be between 0 and 1, found 2"),
                path: "device.tokenRotation.withPrompt", at: "2 }"),
        BadCase(name: "negative device id changes",
                sections: #""device": { "deviceIDChangesPerDay": -1 },"#,
                kind: .invalidValue("must be at least 0, found -1"), path: "device.deviceIDChangesPerDay", at: "-1"),
        BadCase(name: "more than a million device id changes a day",
                sections: #""device": { "deviceIDChangesPerDay": 2e6 },"#,
                kind: .invalidValue("more than a million device id changes a day"),
                path: "device.deviceIDChangesPerDay", at: "2e6"),

        // device.accounts, device.apps
        BadCase(name: "zero accounts",
                sections: #""device": { "accounts": 0 },"#,
                kind: .invalidValue("must be between 1 and 20, found 0"), path: "device.accounts", at: "0 }"),
        BadCase(name: "21 apps",
                sections: #""device": { "apps": 21 },"#,
                kind: .invalidValue("must be between 1 and 20, found 21"), path: "device.apps", at: "21"),
        BadCase(name: "accounts as a string",
                sections: #""device": { "accounts": "2" },"#,
                kind: .wrongType(expected: #"a count from 1 to 20 or shares by count (an object like {"1": 0.7, "2": 0.3})"#,
                                 found: "a string"),
                path: "device.accounts", at: #""2""#),
        BadCase(name: "a share key that is not a count",
                sections: #""device": { "apps": { "1": 0.5, "7x": 0.5 } },"#,
                kind: .invalidValue(#"a key is a count from 1 to 20, found "7x""#), path: "device.apps.7x", at: #""7x""#),
        BadCase(name: "a share key of 0",
                sections: #""device": { "apps": { "0": 1 } },"#,
                kind: .invalidValue(#"a key is a count from 1 to 20, found "0""#), path: "device.apps.0", at: #""0""#),
        BadCase(name: "a share key above 20",
                sections: #""device": { "accounts": { "21": 1 } },"#,
                kind: .invalidValue(#"a key is a count from 1 to 20, found "21""#), path: "device.accounts.21", at: #""21""#),
        BadCase(name: "a share key with a leading zero",
                sections: #""device": { "accounts": { "01": 1 } },"#,
                kind: .invalidValue(#"a key is a count from 1 to 20, found "01""#), path: "device.accounts.01", at: #""01""#),
        BadCase(name: "shares that do not sum to 1",
                sections: #""device": { "apps": { "1": 0.5, "2": 0.4 } },"#,
                kind: .invalidValue("the shares must sum to 1, found 0.9"), path: "device.apps", at: #"{ "1": 0.5"#),
        BadCase(name: "shares just outside the 1e-6 tolerance",
                sections: #""device": { "apps": { "1": 0.3333, "2": 0.6666 } },"#,
                kind: .invalidValue("the shares must sum to 1, found 0.9999"), path: "device.apps", at: #"{ "1": 0.3333"#),
        BadCase(name: "no shares at all",
                sections: #""device": { "apps": {} },"#,
                kind: .invalidValue("the shares must sum to 1, found 0"), path: "device.apps", at: "{} }"),
        BadCase(name: "a share above 1",
                sections: #""device": { "apps": { "1": 1.5, "2": -0.5 } },"#,
                kind: .invalidValue("probability must be between 0 and 1, found 1.5"), path: "device.apps.1", at: "1.5"),

        // device.launches, device.taps
        BadCase(name: "launches without perDay",
                sections: #""device": { "launches": { "weekendFactor": 2 } },"#,
                kind: .missingField, path: "device.launches.perDay", at: #"{ "weekendFactor""#),
        BadCase(name: "more than a million launches a day",
                sections: #""device": { "launches": { "perDay": 1e7 } },"#,
                kind: .invalidValue("more than a million launches a day"), path: "device.launches.perDay", at: "1e7"),
        BadCase(name: "a launch rhythm with 2 hours",
                sections: #""device": { "launches": { "perDay": 3, "diurnal": [1, 2] } },"#,
                kind: .invalidValue("needs 24 hourly weights, found 2"), path: "device.launches.diurnal", at: "[1, 2]"),
        BadCase(name: "taps without probability",
                sections: #""device": { "taps": { "delay": "1m" } },"#,
                kind: .missingField, path: "device.taps.probability", at: #"{ "delay""#),
        BadCase(name: "a tap probability above 1",
                sections: #""device": { "taps": { "probability": 3 } },"#,
                kind: .invalidValue("probability must be between 0 and 1, found 3"), path: "device.taps.probability", at: "3 }"),
        BadCase(name: "a tap delay that is not a duration",
                sections: #""device": { "taps": { "probability": 0.1, "delay": "later" } },"#,
                kind: .invalidValue(#"not a duration: "later" (write e.g. "250ms", "30s", "15m", "3h", "2d")"#),
                path: "device.taps.delay", at: #""later""#),

        // strategies[].registration, priority
        BadCase(name: "an unknown registration policy",
                sections: "", strategies: #"{ "name": "queue", "registration": "never" }"#,
                kind: .invalidValue(#"unknown registration "never"; expected one of: everyLaunch, once"#),
                path: "strategies[0].registration", at: #""never""#),
        BadCase(name: "priority 1 for alerts",
                sections: "", strategies: #"{ "name": "queue" }, { "name": "no-queue", "priority": 1 }"#,
                kind: .invalidValue("apns-priority for alerts is 10 or 5, found 1"),
                path: "strategies[1].priority", at: "1 }"),
        BadCase(name: "priority as a string",
                sections: "", strategies: #"{ "name": "queue", "priority": "10" }"#,
                kind: .wrongType(expected: "an integer", found: "a string"), path: "strategies[0].priority", at: #""10""#),
        BadCase(name: "a fractional priority",
                sections: "", strategies: #"{ "name": "queue", "priority": 5.5 }"#,
                kind: .invalidValue("expected an integer, found 5.5"), path: "strategies[0].priority", at: "5.5"),
    ]

    /// The 1-based line and column (in Unicode scalars) where `needle`, which must
    /// occur exactly once, starts in `text`.
    static func location(of needle: String, in text: String) -> Base.SourceLocation? {
        guard text.components(separatedBy: needle).count == 2, let range = text.range(of: needle) else { return nil }
        let before = text[..<range.lowerBound]
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        return Base.SourceLocation(line: lines.count, column: lines.last!.unicodeScalars.count + 1)
    }

    @Test("a bad chain value is refused with its kind, exact path and line:column", arguments: badCases)
    func rejectsBadValue(_ bad: BadCase) throws {
        let text = Self.scenario(bad.sections, strategies: bad.strategies)
        let expectedLocation = try #require(Self.location(of: bad.at, in: text), "`at` must occur exactly once")
        do {
            _ = try ScenarioDecoder.decode(Array(text.utf8), file: "bad.json")
            Issue.record("the scenario decoded")
        } catch {
            #expect(error == ScenarioError(bad.kind, file: "bad.json", path: bad.path, location: expectedLocation))
            #expect(error.description.hasPrefix("bad.json:\(expectedLocation.line):\(expectedLocation.column): \(bad.path): "))
        }
    }
}
