/// Why a `Response` cannot be written: what it holds would break the message or the
/// connection (response splitting, a second framing).
public enum ResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A status outside 100…999.
    case invalidStatus(Int)
    /// A field whose name is not a token, whose value holds CR, LF or another control
    /// octet, or that the writer owns (`content-length`, `transfer-encoding`, `connection`).
    case invalidField(name: String)

    public var description: String {
        switch self {
        case .invalidStatus(let status): "status \(status) is outside 100…999"
        case .invalidField(let name): "the response field \(name.debugDescription) cannot be written"
        }
    }
}
