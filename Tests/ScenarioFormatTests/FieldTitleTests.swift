@testable import ScenarioFormat
import Testing

/// A field path named for people from the declarations: its key, where it is (a strategy
/// by its label), its help and its unit.
@Suite("Field titles")
struct FieldTitleTests {
    static let labels = ["no-queue", "queue", "queue-as-published"]

    @Test("a strategy's field is named by its key and the strategy's label, with the declaration's help")
    func strategyField() throws {
        let title = try #require(FieldTitle(path: "strategies[1].repeatMaxCount", strategyLabels: Self.labels))
        #expect(title.title == "repeatMaxCount (strategy queue)")
        #expect(title.summary == ScenarioFields.Strategy.repeatMaxCount.summary)
        #expect(title.unit == nil)
        // A strategy the labels do not reach is named by its position.
        #expect(FieldTitle(path: "strategies[4].priority", strategyLabels: Self.labels)?.title == "priority (strategy 5)")
        #expect(FieldTitle(path: "strategies[0].adoption.median", strategyLabels: Self.labels)?.title
                == "adoption median (strategy no-queue)")
    }

    @Test("a distribution's parameter reads after its field, with both helps; nested fields name their object; units come from the kind")
    func nestedFields() throws {
        let offline = try #require(FieldTitle(path: "connectivity.offline.mean", strategyLabels: []))
        #expect(offline.title == "offline mean (connectivity)")
        #expect(offline.title(unit: "h") == "offline mean (h; connectivity)")
        #expect(offline.summary == "length of offline periods (mean > 0; with online); the mean (> 0)")
        #expect(FieldTitle(path: "devices", strategyLabels: [])?.title == "devices")
        #expect(FieldTitle(path: "mail.perDay", strategyLabels: [])?.title(unit: nil) == "perDay (per day; mail)")
        #expect(FieldTitle(path: "device.legacyIOS", strategyLabels: [])?.title(unit: nil) == "legacyIOS (share; device)")
        #expect(FieldTitle(path: "provider.network.failureProbability", strategyLabels: [])?.title
                == "failureProbability (provider.network)")
        #expect(FieldTitle(path: "device.accounts.2", strategyLabels: [])?.title(unit: nil) == "share with 2 accounts (share; device)")
        #expect(FieldTitle(path: "device.extensionMemory.footprintMB.median", strategyLabels: [])?.unit == "MB")
        #expect(FieldTitle(path: "connectivity.offlineWindows[0].probability", strategyLabels: [])?.title
                == "probability (connectivity.offlineWindows[0])")
    }

    @Test("a path no declaration has names nothing")
    func unknownPaths() {
        #expect(FieldTitle(path: "strategies[1].repeatMaxCountt", strategyLabels: Self.labels) == nil)
        #expect(FieldTitle(path: "nope", strategyLabels: []) == nil)
        #expect(FieldTitle(path: "devices.x", strategyLabels: []) == nil)
        #expect(FieldTitle(path: "a..b", strategyLabels: []) == nil)
    }
}
