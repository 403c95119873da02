/// The chunked transfer coding (RFC 9112 §7.1) decoded as octets arrive: chunk-size lines
/// (extensions skipped), chunk data, the last chunk, and a trailer section that is read
/// and dropped. Bounded: the body by `maxBodySize` (413), a size line by
/// `maxSizeLineLength` (400), the trailer section by `maxTrailerSectionSize` (431).
struct ChunkedDecoder: Sendable {
    enum State: Hashable, Sendable {
        case sizeLine
        case data(remaining: Int)
        /// The line ending after a chunk's data.
        case dataEnd
        case trailers
        case done
    }

    static let maxSizeLineLength = 4_096

    private(set) var state = State.sizeLine
    /// The body decoded so far.
    var body: [UInt8] = []
    let maxBodySize: Int
    let maxTrailerSectionSize: Int
    /// Octets of the current line already searched for its line feed.
    private var scanned = 0
    private var trailerOctets = 0

    init(maxBodySize: Int, maxTrailerSectionSize: Int) {
        self.maxBodySize = maxBodySize
        self.maxTrailerSectionSize = maxTrailerSectionSize
    }

    var isDone: Bool { state == .done }

    /// Decodes what it can of `input` and answers how many of its octets it used; the rest
    /// (after the end, a pipelined request) is not its to read.
    /// - Complexity: O(n), n the octets used.
    mutating func decode(_ input: ArraySlice<UInt8>) throws(RequestError) -> Int {
        var position = input.startIndex
        while position < input.endIndex {
            switch state {
            case .done:
                return position - input.startIndex
            case .data(let remaining):
                let count = Swift.min(remaining, input.endIndex - position)
                body.append(contentsOf: input[position..<(position + count)])
                position += count
                state = remaining == count ? .dataEnd : .data(remaining: remaining - count)
            case .sizeLine, .dataEnd, .trailers:
                let lineStart = position
                guard let lineFeed = input[(lineStart + scanned)...].firstIndex(of: CharacterClass.lineFeed) else {
                    // The partial line stays in the caller's buffer; only how far it was searched is kept.
                    scanned = input.endIndex - lineStart
                    try checkPartialLine(length: scanned)
                    return lineStart - input.startIndex
                }
                scanned = 0
                position = lineFeed + 1
                var line = input[lineStart..<lineFeed]
                if line.last == CharacterClass.carriageReturn { line = line.dropLast() }
                try take(line, length: position - lineStart)
            }
        }
        return position - input.startIndex
    }

    /// A line not yet ended may not already be over its limit.
    private func checkPartialLine(length: Int) throws(RequestError) {
        switch state {
        case .sizeLine where length > Self.maxSizeLineLength:
            throw .badRequest("a chunk-size line longer than \(Self.maxSizeLineLength) octets")
        case .dataEnd where length > 1:
            throw .badRequest("chunk data longer than its size")
        case .trailers where trailerOctets + length > maxTrailerSectionSize:
            throw .fieldsTooLarge("a trailer section larger than \(maxTrailerSectionSize) octets")
        default:
            break
        }
    }

    /// One whole line, without its line ending; `length` with it.
    private mutating func take(_ line: ArraySlice<UInt8>, length: Int) throws(RequestError) {
        switch state {
        case .sizeLine:
            guard length <= Self.maxSizeLineLength + 2 else {
                throw .badRequest("a chunk-size line longer than \(Self.maxSizeLineLength) octets")
            }
            let size = try Self.chunkSize(line, room: maxBodySize - body.count)
            state = size == 0 ? .trailers : .data(remaining: size)
        case .dataEnd:
            guard line.isEmpty else { throw .badRequest("chunk data longer than its size") }
            state = .sizeLine
        case .trailers:
            if line.isEmpty {
                state = .done
                return
            }
            trailerOctets += length
            guard trailerOctets <= maxTrailerSectionSize else {
                throw .fieldsTooLarge("a trailer section larger than \(maxTrailerSectionSize) octets")
            }
            _ = try FieldLine.parse(line) // read for its syntax, then dropped
        case .data, .done:
            break
        }
    }

    /// `chunk-size [ chunk-ext ]`: hex digits, then nothing or `BWS ";" …` with no control
    /// octet. A size above `room`, what the body may still take, is 413 at once.
    static func chunkSize(_ line: ArraySlice<UInt8>, room: Int) throws(RequestError) -> Int {
        var size = 0
        var tooLarge = false // then it stops growing: any number of digits, no overflow
        var index = line.startIndex
        while index < line.endIndex, let digit = hexValue(line[index]) {
            let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
            if overflow || shifted > room - digit { tooLarge = true } else if !tooLarge { size = shifted + digit }
            index += 1
        }
        guard index > line.startIndex else { throw .badRequest("a chunk size that is not hexadecimal") }
        guard !tooLarge else { throw .contentTooLarge("a chunked body larger than the limit") }
        let rest = line[index...]
        if !rest.isEmpty {
            guard CharacterClass.trimmed(rest).first == UInt8(ascii: ";"), rest.allSatisfy(CharacterClass.isFieldValue) else {
                throw .badRequest("a chunk size followed by something other than an extension")
            }
        }
        return size
    }

    private static func hexValue(_ octet: UInt8) -> Int? {
        switch octet {
        case 0x30...0x39: Int(octet - 0x30)
        case 0x41...0x46: Int(octet - 0x41 + 10)
        case 0x61...0x66: Int(octet - 0x61 + 10)
        default: nil
        }
    }
}
