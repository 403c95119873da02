import Foundation
import Glibc

/// A blocking TCP client on loopback for the hostile tests: it sends exactly what the test
/// says and reads what comes back, every read bounded by a receive timeout.
final class RawClient {
    private(set) var descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to `host` (an IPv4 or IPv6 literal) and `port`; reads time out after `timeout` seconds.
    init(host: String = "127.0.0.1", port: Int, timeout: Int = 10) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &results) == 0, let address = results else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(results) }
        descriptor = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw Failure(description: "connect to \(host):\(port): \(reason)")
        }
    }

    deinit { close() }

    /// Closes the connection (FIN, or RST if the server's octets were left unread).
    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    /// Closes the connection with RST: SO_LINGER with a zero time, as a client that crashes.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    /// Sends every octet (or fails: the server closed on us).
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += count
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// How a read ended.
    enum End: Equatable {
        /// The server closed the connection (FIN).
        case closed
        /// The server reset it (RST).
        case reset
        /// Nothing came within the receive timeout.
        case timedOut
        /// `limit` octets came first.
        case limitReached
    }

    /// Reads until the server closes, the timeout passes, or `limit` octets came.
    func readUntilClosed(limit: Int = 1 << 22) -> (bytes: [UInt8], end: End) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytes += buffer[0..<count]
                continue
            }
            if count == 0 { return (bytes, .closed) }
            if errno == EINTR { continue }
            return (bytes, errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .reset)
        }
        return (bytes, .limitReached)
    }

    /// Reads until `predicate` holds for what came, or the connection ends or times out.
    func read(until predicate: ([UInt8]) -> Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !predicate(bytes) {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { bytes += buffer[0..<count] } else if count < 0 && errno == EINTR { continue } else { break }
        }
        return bytes
    }

    /// Closes our side for writing (FIN), reading on.
    func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }
}
