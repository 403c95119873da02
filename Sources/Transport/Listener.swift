import Glibc

/// A listening socket, nonblocking, and what it speaks.
struct Listener {
    let descriptor: Int32
    /// Its index among the server's listeners: what `HTTPRequest.listener` says.
    let index: Int
    let speaks: ListenerProtocol
    let port: Int
    /// Connections it keeps open at once (`TransportConfiguration.maxConnections` unless
    /// `bind` said otherwise).
    let maxConnections: Int

    enum AcceptOutcome {
        case accepted(Int32)
        case wouldBlock
        case failed(Int32)
    }

    /// A socket bound to `address` (SO_REUSEADDR: a restarted server need not wait for
    /// TIME_WAIT to pass) and listening.
    /// - Complexity: O(1).
    init(address: ListenAddress, index: Int, speaks: ListenerProtocol, backlog: Int, maxConnections: Int) throws(TransportError) {
        func failure(_ code: Int32) -> TransportError { .cannotListen(address: address.display, reason: Socket.errorText(code)) }
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw failure(errno) }
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var storage = address.storage
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, address.length) }
        }
        guard bound == 0, listen(descriptor, Int32(clamping: backlog)) == 0 else {
            let code = errno
            Socket.close(descriptor)
            throw failure(code)
        }
        guard let port = ListenAddress.boundPort(of: descriptor) else {
            let code = errno
            Socket.close(descriptor)
            throw failure(code)
        }
        self.descriptor = descriptor
        self.index = index
        self.speaks = speaks
        self.port = port
        self.maxConnections = maxConnections
    }

    /// One accept(2), the new socket made nonblocking and close-on-exec (Glibc's module
    /// does not export accept4). A connection the peer reset while it waited in the
    /// backlog is skipped.
    /// - Complexity: O(1).
    func accept() -> AcceptOutcome {
        while true {
            let client = Glibc.accept(descriptor, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return .accepted(client)
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }
}
