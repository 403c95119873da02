import Foundation

/// What the tests that run a command end to end share: a scratch folder and small scenarios.
package enum CommandFixtures {
    /// A fresh folder under the system's temporary directory; `remove()` deletes it.
    package struct ScratchDirectory {
        package let path: String

        package init() throws {
            path = FileManager.default.temporaryDirectory
                .appendingPathComponent("pushsim-cli-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        package func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

        package func write(_ name: String, _ text: String) throws -> String {
            let target = file(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: target))
            return target
        }

        package func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    /// 20 devices for 3 days: a run takes a few tens of milliseconds in a debug build.
    package static let tiny = """
    {
      "name": "tiny",
      "seed": 11,
      "start": "2026-01-05",
      "duration": "3d",
      "devices": 20,
      "mail": { "perDay": 24 },
      "connectivity": {
        "online":  { "distribution": "exponential", "mean": "3h" },
        "offline": { "distribution": "exponential", "mean": "1h" }
      },
      "strategies": [
        { "name": "no-queue" },
        { "name": "queue", "repeatMaxCount": 5 },
        { "name": "queue-as-published", "repeatMaxCount": 5 }
      ]
    }
    """

    package static let labels = ["no-queue", "queue", "queue-as-published"]
    package static let dates = ["2026-01-05", "2026-01-06", "2026-01-07"]

    /// Four days of 37 devices, two strategies: sharded and merged by the shard tests.
    package static let shardedJSON = """
    { "name": "sharded", "seed": 11, "start": "2026-03-02", "duration": "4d", "devices": 37,
      "mail": { "perDay": 30 },
      "connectivity": { "online": { "distribution": "exponential", "mean": "2h" },
                        "offline": { "distribution": "exponential", "mean": "40m" } },
      "latency": { "apnsToDevice": { "distribution": "lognormal", "median": "1s", "sigma": 1 } },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 4 }] }
    """
}
