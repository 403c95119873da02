/// Why a listener could not be opened, as one line for the person who chose the address.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The host could not be resolved, or the socket could not be made, bound or listened
    /// on: `address` as given (`127.0.0.1:2197`, `[::1]:2197`), `reason` the system's words.
    case cannotListen(address: String, reason: String)
    /// A port outside 0…65535.
    case invalidPort(Int)

    public var description: String {
        switch self {
        case .cannotListen(let address, let reason): "cannot listen on \(address): \(reason)"
        case .invalidPort(let port): "cannot listen on port \(port): a port is 0…65535 (0 picks a free one)"
        }
    }
}
