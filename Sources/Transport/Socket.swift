import Glibc

/// The socket calls the loop makes, EINTR-safe, each answering in the loop's terms.
enum Socket {
    enum ReadOutcome {
        case read(Int)
        case wouldBlock
        /// The peer closed its side: no more octets will come.
        case endOfStream
        case failed(Int32)
    }

    enum WriteOutcome {
        case wrote(Int)
        case wouldBlock
        case failed(Int32)
    }

    /// One recv(2) into `buffer`.
    /// - Complexity: O(n), n the octets read.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .read(count) }
            if count == 0 { return .endOfStream }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// One send(2) of `bytes`; MSG_NOSIGNAL, so a peer gone away is an error, not SIGPIPE.
    /// - Complexity: O(n), n the octets written.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> WriteOutcome {
        while true {
            let count = send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return .wrote(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// Sends FIN: the peer reads what was written, then the end.
    static func shutdownWriting(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes the descriptor. Not retried on EINTR: on Linux it is closed whatever close(2) says.
    static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    /// Small answers go out at once instead of waiting for Nagle's algorithm to fill a segment.
    static func disableNagle(_ descriptor: Int32) {
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    enum ConnectOutcome {
        /// Connected at once, or under way (EINPROGRESS): POLLOUT tells when it is done.
        case started(Int32)
        case failed(Int32)
    }

    /// A nonblocking, close-on-exec socket connecting to `address`.
    /// - Complexity: O(1).
    static func connect(to address: ListenAddress) -> ConnectOutcome {
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failed(errno) }
        var storage = address.storage
        while true {
            let status = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, address.length) }
            }
            if status == 0 || errno == EINPROGRESS { break }
            if errno == EINTR { continue }
            let code = errno
            close(descriptor)
            return .failed(code)
        }
        disableNagle(descriptor)
        return .started(descriptor)
    }

    /// The outcome of a nonblocking connect once poll(2) reported the socket: 0 when
    /// connected, else the errno it failed with (SO_ERROR).
    static func connectError(_ descriptor: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    /// The system's words for an errno value.
    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

extension Socket {
    /// Raises the process's soft limit on open descriptors to `wanted`, or to the hard
    /// limit when that is lower (many systems start processes at 1 024, fewer than the
    /// connections the listeners allow). Never lowers it.
    /// - Returns: the soft limit now.
    /// - Complexity: O(1).
    @discardableResult
    static func raiseDescriptorLimit(to wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let target = rlim_t(clamping: wanted)
        if limit.rlim_cur < target {
            limit.rlim_cur = Swift.min(target, limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(clamping: limit.rlim_cur)
    }
}
