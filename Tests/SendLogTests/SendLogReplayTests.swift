import Base
import Foundation
@testable import SendLog
import Testing

@Suite("A send log prepared for replay")
struct SendLogReplayTests {
    static let target = SendLogReplay.Target(topic: "app", start: CivilDate(year: 2026, month: 3, day: 2)!,
                                             duration: 2 * TimeUnit.day, devices: 5, acceptsBackground: true)

    /// A log of `rows` pushes to `users` users, some of another topic, some outside the run, some background.
    static func log(rows: Int, users: Int) -> String {
        var text = "time,user,topic,kind\n"
        var random = SplitMix64(seed: 99)
        for _ in 0..<rows {
            let minute = Int(random.next() % UInt64(3 * 24 * 60)) - 60  // an hour before the start to a day past the end
            let day = 2 + Int(floorDiv(minute, 1440))
            let within = minute - (day - 2) * 1440
            let user = random.next() % UInt64(users)
            let topic = random.next() % 10 == 0 ? "other" : "app"
            let kind = random.next() % 5 == 0 ? "background" : ""
            let date = day >= 1 ? String(format: "2026-03-%02d", day) : "2026-02-28"
            text += String(format: "%@T%02d:%02d:00+05:00,user-%llu,%@,%@\n", date, within / 60, within % 60, user, topic, kind)
        }
        return text
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sendlog-\(UUID().uuidString).csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Each device's (time, kind) pushes, from a replay.
    static func pushes(_ replay: SendLogReplay) -> [[SimTime]] {
        (0..<replay.devices).map { device in
            var times: [SimTime] = []
            for kind in SendLogKind.allCases {
                var cursor = SendLogCursor(replay: replay, device: device, kind: kind)
                while let time = cursor.nextTime() { times.append(time * 2 + (kind == .background ? 1 : 0)) }
            }
            return times
        }
    }

    @Test("every device's pushes are the log's rows of its user, in time order; the merge of small chunks gives the same")
    func replaysTheLogsRows() throws {
        let text = Self.log(rows: 3_000, users: 8)
        let path = try Self.write(text)
        defer { unlink(path) }
        let whole = try SendLogReplay.prepare(path: path, for: Self.target)
        let merged = try SendLogReplay.prepare(path: path, for: Self.target, chunk: 7)
        #expect(Self.pushes(whole) == Self.pushes(merged))
        #expect(whole.tally == merged.tally)

        // The same, naively: users numbered by first appearance among the rows kept.
        var numbers: [String: Int] = [:]
        var expected = Array(repeating: [SimTime](), count: 5)
        var tally = SendLogTally()
        let startWall = Int64(Self.target.start.daysSinceEpoch) * TimeUnit.day
        for row in try SendLogReader(bytes: Array(text.utf8), file: "log").readAll() {
            tally.rows += 1
            guard row.topic == "app" else { tally.otherTopic += 1; continue }
            let time = row.time.wall - startWall
            guard time >= 0, time < Self.target.duration else { tally.outsideRun += 1; continue }
            if numbers[row.user] == nil, numbers.count < 5 { numbers[row.user] = numbers.count }
            guard let device = numbers[row.user] else { tally.beyondDevices += 1; continue }
            if row.kind == .alert { tally.alerts += 1 } else { tally.background += 1 }
            expected[device].append(time * 2 + (row.kind == .background ? 1 : 0))
        }
        tally.users = numbers.count
        let sorted = expected.map { times in times.filter { $0 % 2 == 0 }.sorted() + times.filter { $0 % 2 == 1 }.sorted() }
        #expect(Self.pushes(whole) == sorted)
        #expect(whole.tally == tally)
        #expect(tally.otherTopic > 0 && tally.outsideRun > 0 && tally.beyondDevices > 0 && tally.background > 0)
        #expect(whole.pushes(of: 5).isEmpty && whole.pushes(of: -1).isEmpty)
    }

    @Test("a background push without the scenario's background section is refused, naming its line and not its user")
    func refusesBackgroundWithoutBudget() throws {
        let path = try Self.write("time,user,topic,kind\n2026-03-02T01:00:00Z,secret-user,app,\n2026-03-02T02:00:00Z,secret-user,app,background\n")
        defer { unlink(path) }
        var target = Self.target
        target.acceptsBackground = false
        #expect(throws: SendLogError(file: path, line: 3, reason: .backgroundWithoutBudget)) {
            try SendLogReplay.prepare(path: path, for: target)
        }
        let message = "\(SendLogError(file: path, line: 3, reason: .backgroundWithoutBudget))"
        #expect(!message.contains("secret"))
    }

    @Test("a log refused halfway through leaves no scratch file open")
    func refusedLogClosesItsScratchFiles() throws {
        let path = try Self.write(Self.log(rows: 200, users: 3) + "2026-03-02T25:00:00Z,u,app,\n")
        defer { unlink(path) }
        // Its own scratch folder, and only descriptors on files in it counted: the tests running
        // beside this one open and close descriptors of their own meanwhile.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-replay-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        func open() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { descriptor in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor))?.hasPrefix(scratch + "/") == true
            }.count
        }
        _ = try? SendLogReplay.prepare(path: path, for: Self.target, scratch: scratch, chunk: 7)
        let before = try open()
        #expect(throws: SendLogError.self) { try SendLogReplay.prepare(path: path, for: Self.target, scratch: scratch, chunk: 7) }
        #expect(try open() == before)
    }

    @Test("the cache prepares a log once per target")
    func cachesByTarget() throws {
        let path = try Self.write(Self.log(rows: 50, users: 3))
        defer { unlink(path) }
        let first = try SendLogReplay.cached(path: path, for: Self.target)
        #expect(try SendLogReplay.cached(path: path, for: Self.target) === first)
        var other = Self.target
        other.devices = 2
        #expect(try SendLogReplay.cached(path: path, for: other) !== first)
    }

    @Test("the shipped Table Schema is the columns' (pushsim schema send-log)")
    func shippedSchema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shipped = try String(contentsOfFile: root.path + "/schema/pushsim-send-log.tableschema.json", encoding: .utf8)
        #expect(shipped == SendLogSchema.text, "swift run pushsim schema send-log > schema/pushsim-send-log.tableschema.json")
        for column in SendLogColumn.allCases { #expect(shipped.contains("\"name\": \"\(column.rawValue)\"")) }
    }
}
