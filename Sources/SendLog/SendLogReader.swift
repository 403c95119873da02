import Base
import FoundationEssentials
import Glibc

/// Reads a send log (CSV with a header, docs/send-log.md) one row at a time, from a file
/// or from bytes, holding one line and a 64 KiB read buffer whatever the log's length.
/// Outside bytes never crash it: the first thing wrong is a `SendLogError` naming the
/// line, and every later `next()` throws the same.
///
///     let reader = try SendLogReader(path: "scenarios/logs/example.csv")
///     while let row = try reader.next() { … row.time, row.user, row.topic, row.kind … }
public final class SendLogReader {
    /// Most bytes of one line (its end excluded).
    public static let lineLimit = 1 << 16
    /// The header with every column, in the documented order.
    public static let expectedHeader = SendLogColumn.allCases.map(\.rawValue).joined(separator: ",")

    /// How messages name the file.
    public let file: String
    /// The header's columns, in its order.
    public private(set) var columns: [SendLogColumn] = []
    /// The last line read (1: the header).
    public private(set) var line = 0

    private var descriptor: Int32 = -1
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    private var failure: SendLogError?
    /// Each column's field index in a row (`SendLogColumn.allCases` order); nil: not in the header.
    private var fieldOf: [Int?] = Array(repeating: nil, count: SendLogColumn.allCases.count)
    /// The current line's fields, as byte arrays (unquoted).
    private var fields: [[UInt8]] = []

    /// Opens the log at `path` (`-`: standard input) and reads its header.
    /// - Complexity: O(header).
    public init(path: String) throws(SendLogError) {
        file = FileBytes.displayName(path)
        buffer = [UInt8](repeating: 0, count: Self.lineLimit * 2)
        if path == FileBytes.standardInputArgument {
            descriptor = dup(STDIN_FILENO)
        } else {
            descriptor = SystemPath.open(path, O_RDONLY)
        }
        guard descriptor >= 0 else {
            throw SendLogError(file: file, line: 0, reason: .unreadable(FileBytes.describe(errno)))
        }
        try readHeader()
    }

    /// Reads the log in `bytes` (tests, the fuzzer), named `file` in messages.
    /// - Complexity: O(header).
    public init(bytes: [UInt8], file: String) throws(SendLogError) {
        self.file = file
        buffer = bytes
        end = bytes.count
        atEnd = true
        try readHeader()
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The next row, or nil at the log's end. Blank lines are skipped.
    /// - Complexity: O(line length).
    public func next() throws(SendLogError) -> SendLogRow? {
        if let failure { throw failure }
        do throws(SendLogError) {
            while let text = try nextLine() {
                if text.isEmpty { continue }
                return try row(text)
            }
            return nil
        } catch {
            failure = error
            throw error
        }
    }

    /// Every row at once, for small logs (tests): the whole log is held.
    /// - Complexity: O(n) in the log's size.
    public func readAll() throws(SendLogError) -> [SendLogRow] {
        var rows: [SendLogRow] = []
        while let row = try next() { rows.append(row) }
        return rows
    }

    private func fail(_ reason: SendLogError.Reason) -> SendLogError {
        SendLogError(file: file, line: line, reason: reason)
    }

    private func readHeader() throws(SendLogError) {
        // A byte order mark before the header is what spreadsheets write.
        guard var header = try nextLine() else { throw fail(.empty) }
        if header.starts(with: [0xEF, 0xBB, 0xBF]) { header.removeFirst(3) }
        try split(header)
        for (index, name) in fields.enumerated() {
            guard let column = SendLogColumn(rawValue: String(decoding: name, as: UTF8.self)),
                  String(decoding: name, as: UTF8.self).utf8.elementsEqual(name) else {
                throw fail(.unknownColumn(UserText.quote(String(decoding: name, as: UTF8.self), limit: 40)))
            }
            let position = SendLogColumn.allCases.firstIndex(of: column)!
            guard fieldOf[position] == nil else { throw fail(.duplicateColumn(column)) }
            fieldOf[position] = index
            columns.append(column)
        }
        for column in SendLogColumn.allCases where column.isRequired && !columns.contains(column) {
            throw fail(.missingColumn(column))
        }
    }

    /// The next line's bytes without its end (`\n` or `\r\n`), or nil at the end.
    private func nextLine() throws(SendLogError) -> ArraySlice<UInt8>? {
        // Bytes already searched for the line's end, from `start` (which a refill moves).
        var scanned = 0
        while true {
            if let newline = buffer[(start + scanned)..<end].firstIndex(of: 0x0A) {
                line += 1
                guard newline - start <= Self.lineLimit + 1 else { throw fail(.lineTooLong) }
                var text = buffer[start..<newline]
                if text.last == 0x0D { text.removeLast() }
                start = newline + 1
                return text
            }
            scanned = end - start
            if end - start > Self.lineLimit + 1 {
                line += 1
                throw fail(.lineTooLong)
            }
            if atEnd {
                guard start < end else { return nil }
                line += 1
                let text = buffer[start..<end]
                start = end
                return text
            }
            try refill()
        }
    }

    /// Moves the unread bytes to the front and reads more after them.
    private func refill() throws(SendLogError) {
        if start > 0 {
            let unread = end - start
            buffer.withUnsafeMutableBufferPointer { pointer in
                _ = memmove(pointer.baseAddress!, pointer.baseAddress! + start, unread)
            }
            end = unread
            start = 0
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                Glibc.read(descriptor, raw.baseAddress! + end, raw.count - end)
            }
            if count > 0 {
                end += count
                return
            } else if count == 0 {
                atEnd = true
                return
            } else if errno != EINTR {
                throw SendLogError(file: file, line: 0, reason: .unreadable(FileBytes.describe(errno)))
            }
        }
    }

    /// Splits a line into `fields`: commas between values, a value in double quotes may hold
    /// commas and `""` for a quote (RFC 4180), on one line.
    private func split(_ text: ArraySlice<UInt8>) throws(SendLogError) {
        fields.removeAll(keepingCapacity: true)
        var index = text.startIndex
        while true {
            var value: [UInt8] = []
            if index < text.endIndex, text[index] == 0x22 {
                index += 1
                while true {
                    guard index < text.endIndex else { throw fail(.badQuotes) }
                    if text[index] == 0x22 {
                        if index + 1 < text.endIndex, text[index + 1] == 0x22 {
                            value.append(0x22)
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    value.append(text[index])
                    index += 1
                }
                guard index == text.endIndex || text[index] == 0x2C else { throw fail(.badQuotes) }
            } else {
                let stop = text[index...].firstIndex(of: 0x2C) ?? text.endIndex
                value = Array(text[index..<stop])
                guard !value.contains(0x22) else { throw fail(.badQuotes) }
                index = stop
            }
            fields.append(value)
            guard index < text.endIndex else { return }
            index += 1  // the comma
        }
    }

    /// The value of `column` in the split line: nil when the header lacks it or it is empty.
    private func value(_ column: SendLogColumn) throws(SendLogError) -> [UInt8]? {
        guard let field = fieldOf[SendLogColumn.allCases.firstIndex(of: column)!] else { return nil }
        let bytes = fields[field]
        if bytes.isEmpty {
            if column.isRequired { throw fail(.emptyValue(column)) }
            return nil
        }
        guard bytes.count <= column.byteLimit else { throw fail(.tooLong(column)) }
        return bytes
    }

    /// The value of `column` as text: UTF-8 without control characters.
    private func text(_ column: SendLogColumn) throws(SendLogError) -> String? {
        guard let bytes = try value(column) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw fail(.notUTF8(column)) }
        guard !text.unicodeScalars.contains(where: { UserText.isInvisible($0) }) else { throw fail(.controlCharacter(column)) }
        return text
    }

    private func row(_ bytes: ArraySlice<UInt8>) throws(SendLogError) -> SendLogRow {
        try split(bytes)
        guard fields.count == columns.count else { throw fail(.fieldCount(expected: columns.count, found: fields.count)) }
        let time: SendLogTime
        switch SendLogTime.parse(try value(.time)!) {
        case .success(let parsed): time = parsed
        case .failure(let reason): throw fail(reason)
        }
        var kind = SendLogKind.alert
        if let bytes = try value(.kind) {
            guard let parsed = SendLogKind(rawValue: String(decoding: bytes, as: UTF8.self)) else { throw fail(.badKind) }
            kind = parsed
        }
        return SendLogRow(line: line, time: time, user: try text(.user)!, topic: try text(.topic)!,
                          collapseID: try text(.collapseID), thread: try text(.thread), kind: kind)
    }
}
