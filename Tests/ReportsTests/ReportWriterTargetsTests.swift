import Foundation
@testable import Reports
import Synchronization
import TestSupport
import Testing

/// What `ReportWriter` replaces (only regular files) and how writers into one folder take
/// turns (`FolderLock`).
@Suite("Report writer: regular files only, one writer a folder")
struct ReportWriterTargetsTests {
    static let files: [(name: String, contents: String)] = [("summary.csv", "new summary\n"), ("daily.csv", "new daily\n")]

    /// A fresh folder holding `notes.txt`.
    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-targets-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data("keep\n".utf8).write(to: URL(fileURLWithPath: path + "/notes.txt"))
        return path
    }

    private func listing(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test("a FIFO, a symbolic link or a socket in the place of a report is refused before anything is written, and left as it was",
          arguments: FileKinds.all)
    func nonRegularTargetRefused(what: String) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileKinds.make(what, at: folder + "/daily.csv")
        let before = FileKinds.kind(folder + "/daily.csv")
        for check in [true, false] {
            do {
                if check { try ReportWriter.checkWritable(folder, for: Self.files.map(\.name)) } else { try ReportWriter.write(Self.files, to: folder) }
                Issue.record("\(what) was accepted")
            } catch {
                #expect(error.description == "\(folder)/daily.csv: exists and is \(FileKinds.shown(what)), not a regular file; "
                        + "pushsim writes only regular files and leaves it as it is")
            }
            #expect(FileKinds.kind(folder + "/daily.csv") == before)
            #expect(listing(folder) == ["daily.csv", "notes.txt"], "nothing written, no temporary file left")
        }
        #expect(FileManager.default.contents(atPath: folder + "/notes.txt") == Data("keep\n".utf8))
    }

    @Test("a character device in the place of a report is refused and stays a device (root only: mknod)",
          .enabled(if: getuid() == 0, "mknod needs root"))
    func deviceRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A node of /dev/null's numbers inside the scratch folder: the real one is never at risk.
        try #require(mknod(folder + "/summary.csv", S_IFCHR | 0o666, FileKinds.device(major: 1, minor: 3)) == 0)
        do {
            try ReportWriter.write(Self.files, to: folder)
            Issue.record("a device was replaced")
        } catch {
            #expect(error.description.hasSuffix("summary.csv: exists and is a character device, not a regular file; "
                                                + "pushsim writes only regular files and leaves it as it is"))
        }
        #expect(FileKinds.kind(folder + "/summary.csv") == S_IFCHR)
    }

    @Test("a write into a folder another writer holds waits for it, says so once, then writes every file")
    func writerWaitsForTheLock() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (held, _) = try FolderLock.acquire(folder, prepare: ReportWriter.prepareDirectory, whileWaiting: { _ in
            Issue.record("nobody holds the folder yet")
        })
        let notes = Mutex<[String]>([]), done = Mutex(false)
        let writer = Thread {
            do {
                try ReportWriter.write(Self.files, to: folder, whileWaiting: { folder in notes.withLock { $0.append(folder) } })
            } catch {
                Issue.record("the write failed: \(error)")
            }
            done.withLock { $0 = true }
        }
        writer.start()
        var waited = 0
        while notes.withLock({ $0.isEmpty }) && waited < 500 { usleep(10_000); waited += 1 }
        usleep(200_000)
        #expect(notes.withLock { $0 } == [folder])
        #expect(!done.withLock { $0 })
        #expect(listing(folder) == ["notes.txt"], "nothing written while the lock is held")
        held.release()
        waited = 0
        while !done.withLock({ $0 }) && waited < 1000 { usleep(10_000); waited += 1 }
        #expect(done.withLock { $0 })
        #expect(listing(folder) == ["daily.csv", "notes.txt", "summary.csv"])
        #expect(notes.withLock { $0 }.count == 1)
    }
}
