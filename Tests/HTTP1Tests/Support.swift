@testable import HTTP1

/// What a parser made of some input: the events it handed out, then the error that closed
/// it, if one did.
struct Parsed: Equatable {
    var events: [RequestParser.Event] = []
    var error: RequestError?

    var requests: [Request] {
        events.compactMap { if case .request(let request) = $0 { request } else { nil } }
    }
}

/// Feeds `text`'s octets to a parser in chunks of `chunkSize` (all at once by default),
/// taking every event after each chunk, as a transport does.
func parse(_ text: String, limits: RequestLimits = RequestLimits(), chunkSize: Int = .max) -> Parsed {
    parse(Array(text.utf8), limits: limits, chunkSize: chunkSize)
}

func parse(_ bytes: [UInt8], limits: RequestLimits = RequestLimits(), chunkSize: Int = .max) -> Parsed {
    var parser = RequestParser(limits: limits)
    var parsed = Parsed()
    var offset = 0
    repeat {
        let end = offset + Swift.min(chunkSize, bytes.count - offset)
        parser.append(Array(bytes[offset..<end]))
        offset = end
        do {
            while let event = try parser.next() { parsed.events.append(event) }
        } catch {
            parsed.error = error
            return parsed
        }
    } while offset < bytes.count
    return parsed
}

/// The status `text` is refused with, or nil if it is not.
func refusal(_ text: String, limits: RequestLimits = RequestLimits()) -> Int? {
    parse(text, limits: limits).error?.status
}
