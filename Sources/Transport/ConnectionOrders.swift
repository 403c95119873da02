/// What a service asks of its connections beside answering: a test server that plays a
/// failing APNs drops a connection with a GOAWAY, closes one without a word, or closes
/// those that are idle. Queued here and carried out by the loop at the end of the turn,
/// after the turn's answers are queued (an answer given before a GOAWAY goes before it).
/// A `Server` owns one (`Server.connectionOrders`).
///
/// Not thread-safe: call it on the loop's thread (from `respond`, `tick` or `received`).
public final class ConnectionOrders {
    /// One order.
    public enum Order: Sendable, Equatable {
        /// GOAWAY (NO_ERROR) naming `lastStream` on an HTTP/2 connection: the streams above it
        /// are forgotten unanswered, the rest finish, then the connection closes. HTTP/1.1:
        /// closed once its answer is written.
        case goAway(connection: Int, lastStream: Int)
        /// The TCP connection closed now, nothing more written (no GOAWAY, no TLS close_notify).
        case close(connection: Int)
        /// Every connection on listener `listener` that waits for no answer and saw nothing move
        /// for `idleFor` is closed as an idle one is (HTTP/2: GOAWAY naming the last stream, then closed).
        case closeIdle(listener: Int, idleFor: Duration)
    }

    var queued: [Order] = []

    init() {}

    /// Queues `order`.
    /// - Complexity: O(1) amortized.
    public func give(_ order: Order) { queued.append(order) }
}

extension Server {
    /// Carries out the orders the service gave this turn.
    /// - Complexity: O(o × c) for o orders and c connections.
    func carryOutConnectionOrders(_ service: Service, now: Duration) {
        guard !connectionOrders.queued.isEmpty else { return }
        let queued = connectionOrders.queued
        connectionOrders.queued.removeAll(keepingCapacity: true)
        for order in queued {
            switch order {
            case .goAway(let number, let lastStream):
                connections.first { $0.number == number }?.drop(lastStream: lastStream, now: now, service: service)
            case .close(let number):
                connections.first { $0.number == number }?.close()
            case .closeIdle(let listener, let idleFor):
                for connection in connections where connection.listener == listener && !connection.isClosing
                    && now - connection.lastActivity >= idleFor {
                    connection.closeIfIdle(now: now, service: service)
                }
            }
        }
    }
}
