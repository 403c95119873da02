import Base
import ScenarioFormat

/// A team's measured figures: daily counts of one app (docs/fit.md, "The measured file"),
/// read from CSV. Every error is a `ScenarioError` naming the file, the line and column and
/// the column's name, as a scenario's are, and reading stops at the first.
package struct MeasuredSeries: Sendable, Equatable {
    /// One row: a day and its counts, nil where the cell was empty (not measured that day).
    package struct Day: Sendable, Equatable {
        package var date: CivilDate
        package var counts: [MeasuredColumn: Int64]
        /// The count of `column`, nil when not measured that day.
        package subscript(column: MeasuredColumn) -> Int64? { counts[column] }
        package init(date: CivilDate, counts: [MeasuredColumn: Int64]) {
            self.date = date
            self.counts = counts
        }
    }

    /// The file as named on the command line.
    package var file: String
    /// The zone the days are cut in, as written.
    package var timeZone: String
    /// The count columns the header has, in `MeasuredColumn` order.
    package var columns: [MeasuredColumn]
    /// The rows, dates increasing.
    package var days: [Day]

    /// Most rows a file may have (ten years of days).
    package static let maxDays = 3_660
    /// Largest count a cell may hold.
    package static let maxCount: Int64 = 1_000_000_000_000_000
    /// Largest file read.
    package static let maxBytes = 4 << 20

    /// The statistics this file measures: those whose two columns it has.
    package var statistics: [FitStatistic] {
        FitStatistic.allCases.filter { columns.contains($0.numerator) && columns.contains($0.denominator) }
    }

    /// The days from the first to the last, inclusive.
    package var span: Int { days.isEmpty ? 0 : days[days.count - 1].date.daysSinceEpoch - days[0].date.daysSinceEpoch + 1 }

    package init(file: String, timeZone: String, columns: [MeasuredColumn], days: [Day]) {
        self.file = file
        self.timeZone = timeZone
        self.columns = columns
        self.days = days
    }

    /// Reads the file at `path` (`-`: standard input).
    /// - Complexity: O(n) in the file's size.
    package static func read(path: String, standardInput: Int32) throws(ScenarioError) -> MeasuredSeries {
        let file = FileBytes.displayName(path)
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: path, standardInput: standardInput, limit: maxBytes)
        } catch {
            throw ScenarioError(.invalidValue("cannot read the measured figures: " + error.reason), file: file, path: "", location: nil)
        }
        return try parse(bytes, file: file)
    }

    /// Reads `bytes`: UTF-8 CSV (RFC 4180 quoting; LF or CRLF line ends; a byte order mark
    /// skipped), a header naming columns of `MeasuredColumn`, then one row a day.
    /// - Complexity: O(n) in the bytes.
    package static func parse(_ bytes: [UInt8], file: String) throws(ScenarioError) -> MeasuredSeries {
        let records = try CSVRecords.split(try text(bytes, file: file), file: file)
        guard let header = records.first else {
            throw failure("empty file: expected a header (date,time_zone,mail,sent,logged)", in: file, 1, 1)
        }
        let columns = try readHeader(header, file: file)
        let countColumns = MeasuredColumn.allCases.filter { $0.isCount && columns.contains($0) }
        var days: [Day] = []
        var zone: (text: String, line: Int)?
        for record in records.dropFirst() {
            // A line with nothing on it (a trailing blank line) is no row.
            if record.cells.count == 1 && record.cells[0].text.trimmingSpaces.isEmpty { continue }
            guard record.cells.count == columns.count else {
                throw failure("expected \(columns.count) cells as in the header, found \(record.cells.count)", in: file, record.line, 1)
            }
            guard days.count < maxDays else { throw failure("more than \(maxDays) rows", in: file, record.line, 1) }
            guard let day = try readRow(record, columns: columns, first: days.first?.date, zone: &zone, file: file) else { continue }
            if let last = days.last, day.date <= last.date {
                throw failure("\(day.date) is not after the row before (\(last.date)): one row a day, dates increasing",
                              in: file, record.line, record.cells[columns.firstIndex(of: .date)!].column, path: MeasuredColumn.date.name)
            }
            days.append(day)
        }
        guard let zone, !days.isEmpty else { throw failure("no rows after the header", in: file, header.line + 1, 1) }
        return MeasuredSeries(file: file, timeZone: zone.text, columns: countColumns, days: days)
    }

    /// An error at `line` and `column` of `file`, in the column named `path`.
    private static func failure(_ message: String, in file: String, _ line: Int, _ column: Int, path: String = "") -> ScenarioError {
        ScenarioError(.invalidValue(message), file: file, path: path, location: SourceLocation(line: line, column: column))
    }

    /// The file's text: at most `maxBytes`, UTF-8, a byte order mark skipped.
    private static func text(_ bytes: [UInt8], file: String) throws(ScenarioError) -> String {
        guard bytes.count <= maxBytes else {
            throw ScenarioError(.invalidValue("cannot read the measured figures: larger than \(maxBytes >> 20) MiB"), file: file, path: "", location: nil)
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let text = String(validating: body, as: UTF8.self) else {
            // Where: the first line that is not UTF-8 (a line feed is never inside a sequence).
            let lines = body.split(separator: 0x0A, omittingEmptySubsequences: false)
            let line = (lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0) + 1
            throw ScenarioError(.invalidValue("not UTF-8 text (a CSV of daily counts: docs/fit.md)"), file: file, path: "",
                                location: SourceLocation(line: line, column: 1))
        }
        return text
    }

    /// The header's columns, in its order: each a known column, once, the required ones
    /// present, and the two columns of at least one figure the fit matches.
    private static func readHeader(_ header: CSVRecords.Record, file: String) throws(ScenarioError) -> [MeasuredColumn?] {
        var columns: [MeasuredColumn?] = []
        for cell in header.cells {
            let name = cell.text.trimmingSpaces
            guard !name.isEmpty else {
                throw failure("an empty column name (a comma too many in the header?); the columns are "
                              + MeasuredColumn.allCases.map(\.name).joined(separator: ", "), in: file, header.line, cell.column)
            }
            guard let column = MeasuredColumn(rawValue: name) else {
                throw ScenarioError(.unknownField(known: MeasuredColumn.allCases.map(\.name)), file: file,
                                    path: UserText.escape(String(name.prefix(UserText.pathLimit))),
                                    location: SourceLocation(line: header.line, column: cell.column))
            }
            guard !columns.contains(column) else {
                throw failure("the column appears twice in the header", in: file, header.line, cell.column, path: column.name)
            }
            columns.append(column)
        }
        for column in MeasuredColumn.allCases where column.isRequired && !columns.contains(column) {
            throw failure("the header has no \(column.name) column (\(column.summary))", in: file, header.line, 1)
        }
        let countColumns = MeasuredColumn.allCases.filter { $0.isCount && columns.contains($0) }
        let series = MeasuredSeries(file: file, timeZone: "", columns: countColumns, days: [])
        guard !series.statistics.isEmpty else {
            let pairs = FitStatistic.allCases.map { "\($0.numerator.name) and \($0.denominator.name) (\($0.name))" }
            throw failure("the header needs the two columns of a figure the fit matches: " + pairs.joined(separator: ", or ")
                          + "; it has " + columns.compactMap { $0?.name }.joined(separator: ", "), in: file, header.line, 1)
        }
        return columns
    }

    /// One row's date and counts, each cell checked (nil when it has no date): a date within
    /// the years and the span a file may have (`first`: the first row's), the file's one zone
    /// (the first row's, kept in `zone`), counts no larger than the count they are a part of.
    private static func readRow(_ record: CSVRecords.Record, columns: [MeasuredColumn?], first: CivilDate?,
                                zone: inout (text: String, line: Int)?, file: String) throws(ScenarioError) -> Day? {
        func fail(_ message: String, _ cell: CSVRecords.Cell, _ column: MeasuredColumn) -> ScenarioError {
            failure(message, in: file, record.line, cell.column, path: column.name)
        }
        var date: CivilDate?
        var counts: [MeasuredColumn: Int64] = [:]
        for (cell, column) in zip(record.cells, columns) {
            let column = column!
            let value = cell.text.trimmingSpaces
            switch column {
            case .date:
                switch CivilDate.parse(iso: value) {
                case .success(let parsed):
                    // A scenario's dates: the years it can start and end in.
                    guard parsed.year >= 1970 && parsed.year <= 9990 else {
                        throw fail("\(parsed) is outside the years 1970 to 9990", cell, column)
                    }
                    if let first, parsed.daysSinceEpoch - first.daysSinceEpoch >= maxDays {
                        throw fail("\(parsed) is \(parsed.daysSinceEpoch - first.daysSinceEpoch) days after the first row (\(first)): "
                                   + "a file spans at most \(maxDays) days", cell, column)
                    }
                    date = parsed
                case .failure(let error):
                    throw fail("\(UserText.quote(value)): \(error.explanation)", cell, column)
                }
            case .timeZone:
                guard Self.isZone(value) else {
                    throw fail("\(UserText.quote(value)) is not a time zone (UTC, UTC+03:00, UTC-05:00 or an IANA name such as Europe/Berlin)",
                               cell, column)
                }
                if let zone, zone.text != value {
                    throw fail("\(UserText.quote(value)) differs from \(UserText.quote(zone.text)) on line \(zone.line): one zone a file",
                               cell, column)
                }
                if zone == nil { zone = (value, record.line) }
            case .mail, .sent, .logged, .launches, .consoleReceived, .consoleDelivered:
                if value.isEmpty { continue }
                guard value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), value.utf8.count <= 16,
                      let count = Int64(value), count <= maxCount else {
                    throw fail("\(UserText.quote(value)) is not a count (a whole number from 0 to \(maxCount))", cell, column)
                }
                counts[column] = count
            }
        }
        guard let date else { return nil }
        for (column, count) in counts {
            if let bound = column.atMost, let limit = counts[bound], count > limit {
                let cell = record.cells[columns.firstIndex(of: column)!]
                throw fail("\(count) is more than \(bound.name) (\(limit)) on the same day: \(column.name) counts a part of \(bound.name)",
                           cell, column)
            }
        }
        return Day(date: date, counts: counts)
    }

    /// `UTC`, `UTC±HH:MM`, or an IANA-style name (letters, digits, `/`, `_`, `+`, `-`).
    /// - Complexity: O(n) in the text's length.
    package static func isZone(_ text: String) -> Bool {
        if text == "UTC" { return true }
        let scalars = Array(text.unicodeScalars)
        if text.hasPrefix("UTC") && scalars.count == 9 {
            let digits = { (index: Int) in scalars[index].properties.numericType != nil && scalars[index].isASCII }
            return (scalars[3] == "+" || scalars[3] == "-") && digits(4) && digits(5) && scalars[6] == ":" && digits(7) && digits(8)
                && Int(String(text.dropFirst(4).prefix(2)))! <= 14 && Int(String(text.suffix(2)))! < 60
        }
        guard text.contains("/"), scalars.count <= 64, let first = scalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return scalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "/_+-".unicodeScalars.contains($0)) }
    }

    /// The CSV text of `days` (what `pushsim measure` writes).
    /// - Complexity: O(days × columns).
    package func csv() -> String {
        let header = [MeasuredColumn.date, .timeZone] + columns
        var text = header.map(\.name).joined(separator: ",") + "\n"
        for day in days {
            let cells = header.map { column -> String in
                switch column {
                case .date: day.date.description
                case .timeZone: timeZone
                case .mail, .sent, .logged, .launches, .consoleReceived, .consoleDelivered: day[column].map(String.init) ?? ""
                }
            }
            text += cells.joined(separator: ",") + "\n"
        }
        return text
    }
}

private extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(scalars[first...last])
    }
}

/// RFC 4180 records with where each cell starts, for messages that point at a cell.
enum CSVRecords {
    struct Cell { var text: String; var column: Int }
    struct Record { var cells: [Cell]; var line: Int }

    /// The records of `text`: fields split on commas, quoted fields may hold commas, quotes
    /// (doubled) and line breaks; a line ends at LF or CRLF.
    /// - Complexity: O(n) in the text's length.
    static func split(_ text: String, file: String) throws(ScenarioError) -> [Record] {
        var records: [Record] = []
        var cells: [Cell] = []
        var field = String.UnicodeScalarView()
        var line = 1, column = 1, recordLine = 1, cellColumn = 1
        var quoted = false, wasQuoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func endCell() { cells.append(Cell(text: String(field), column: cellColumn)); field = String.UnicodeScalarView() }
        while let scalar = pending ?? scalars.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    let next = scalars.next()
                    column += 1
                    if next == "\"" { field.append("\""); column += 1; continue }
                    quoted = false
                    pending = next
                    continue
                }
                field.append(scalar)
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
                column += 1
            case "\"":
                throw ScenarioError(.invalidValue("a quote inside an unquoted cell (quote the whole cell and double the quote)"),
                                    file: file, path: "", location: SourceLocation(line: line, column: column))
            case ",":
                endCell()
                column += 1
                cellColumn = column
                wasQuoted = false
            case "\r":
                let next = scalars.next()
                guard next == "\n" else {
                    throw ScenarioError(.invalidValue("a carriage return not followed by a line feed"), file: file, path: "",
                                        location: SourceLocation(line: line, column: column))
                }
                pending = next
            case "\n":
                endCell()
                records.append(Record(cells: cells, line: recordLine))
                cells = []
                line += 1
                column = 1
                recordLine = line
                cellColumn = 1
                wasQuoted = false
            default:
                if scalar.value < 0x20 && scalar != "\t" {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    throw ScenarioError(.invalidValue("a control character (U+\(String(repeating: "0", count: 4 - hex.count) + hex)) in a cell"),
                                        file: file, path: "", location: SourceLocation(line: line, column: column))
                }
                if wasQuoted {
                    throw ScenarioError(.invalidValue("text after a quoted cell's closing quote"), file: file, path: "",
                                        location: SourceLocation(line: line, column: column))
                }
                field.append(scalar)
                column += 1
            }
        }
        if quoted {
            throw ScenarioError(.invalidValue("a quoted cell is not closed"), file: file, path: "",
                                location: SourceLocation(line: recordLine, column: cellColumn))
        }
        if !field.isEmpty || !cells.isEmpty || wasQuoted {
            endCell()
            records.append(Record(cells: cells, line: recordLine))
        }
        return records
    }
}
