import Base
import Simulator

/// Something of a traced app that lasts: read off its events, for the Chrome trace's
/// "X" events and the report's picture of a day.
package struct TraceSpan: Equatable, Sendable {
    /// What lasts.
    package enum Kind: CaseIterable, Sendable {
        /// The device offline: from going offline (or the start) to coming back (or the end).
        case offline
        /// A notification in APNs's offline slot: from `apns_stored` to its delivery from
        /// storage or its discard (or the end of the run).
        case stored
        /// A notification in APNs's power batch: from `apns_held_for_power` to its release.
        case heldForPower
        /// An extension invocation waiting for its re-request's answer.
        case extensionWait
        /// A message: from its mail's arrival to its outcome (`outcome`'s instant).
        case message

        /// Its name in the Chrome trace and the page.
        /// - Complexity: O(1).
        package var title: String {
            switch self {
            case .offline: "offline"
            case .stored: "stored at APNs"
            case .heldForPower: "held for power"
            case .extensionWait: "extension waits"
            case .message: "message"
            }
        }
    }

    package var kind: Kind
    package var from: SimTime
    package var to: SimTime
    /// The message it is about; -1: none.
    package var message: Int32
    /// The re-request's invocation (`extensionWait`); -1 otherwise.
    package var invocation: Int32 = -1
    /// What it ended in ("delivered", "lost (apns_coalesced)", "replaced", "delivered from storage"), or "" (the run's end).
    package var ending: String = ""
}

/// Reading spans off a traced app's events.
package enum TraceSpans {
    /// The spans of one app's `events` (in the world's order), the run ending at `end`:
    /// in the order they started, then kind.
    /// - Complexity: O(n log n) in the events.
    package static func spans(of events: some Sequence<TraceEvent>, end: SimTime) -> [TraceSpan] {
        var spans: [TraceSpan] = []
        var offlineSince: SimTime? = 0
        var stored: [Int32: [SimTime]] = [:], held: [Int32: [SimTime]] = [:]
        var waiting: [Int32: (from: SimTime, message: Int32)] = [:]
        var arrivals: [Int32: SimTime] = [:]
        func close(_ open: inout [Int32: [SimTime]], _ message: Int32, _ kind: TraceSpan.Kind, at time: SimTime, _ ending: String) -> Bool {
            guard var starts = open[message], !starts.isEmpty else { return false }
            spans.append(TraceSpan(kind: kind, from: starts.removeFirst(), to: time, message: message, ending: ending))
            open[message] = starts.isEmpty ? nil : starts
            return true
        }
        for event in events {
            let time = event.time, message = event.message
            switch event.kind {
            case .connectivityChanged:
                if event.flag(.online) {
                    if let since = offlineSince, time > since { spans.append(TraceSpan(kind: .offline, from: since, to: time, message: -1)) }
                    offlineSince = nil
                } else if offlineSince == nil {
                    offlineSince = time
                }
            case .apnsStored:
                // Stored when a power window opened on an offline device: the hold ends here.
                _ = close(&held, message, .heldForPower, at: time, "stored")
                stored[message, default: []].append(time)
            case .apnsHeldForPower:
                held[message, default: []].append(time)
            case .apnsDelivered:
                switch event.value(.via, as: DeliveryRoute.self) {
                case .storage?: _ = close(&stored, message, .stored, at: time, "delivered from storage")
                case .power?: _ = close(&held, message, .heldForPower, at: time, "delivered")
                case .direct?, .bounce?, nil: break
                }
            case .apnsDiscarded:
                let reason = event.name(.discardReason) ?? ""
                if !close(&stored, message, .stored, at: time, reason) { _ = close(&held, message, .heldForPower, at: time, reason) }
            case .rerequestSent:
                if let invocation = event.value(.invocation) { waiting[Int32(invocation)] = (time, message) }
            case .rerequestAnswerReceived, .rerequestFailed:
                guard let invocation = event.value(.invocation).map({ Int32($0) }), !event.flag(.ignored),
                      let open = waiting.removeValue(forKey: invocation) else { break }
                let ending = event.kind == .rerequestFailed ? (event.name(.why) ?? "failed") : (event.flag(.ok) ? "answered" : "error")
                spans.append(TraceSpan(kind: .extensionWait, from: open.from, to: time, message: open.message,
                                       invocation: invocation, ending: ending))
            case .mailArrived:
                arrivals[message] = time
            case .outcome:
                guard let arrival = arrivals.removeValue(forKey: message) else { break }
                let outcome = event.name(.outcome) ?? ""
                spans.append(TraceSpan(kind: .message, from: arrival, to: time, message: message,
                                       ending: event.name(.lossReason).map { outcome + " (" + $0 + ")" } ?? outcome))
            case .launched, .tapped, .tokenRotated, .deviceIDChanged, .subscriptionChanged, .providerOutage, .appUpdated, .steered,
                 .dropped, .requestSent, .requestLost, .retryScheduled, .providerGaveUp, .rerequestReceived, .rerequestServed,
                 .positionsExpired, .registered, .subscriptionsSynced, .apnsAnswered, .deviceReceived, .bounced, .notShown,
                 .gapDetected, .positionSaved, .shown, .summaryShown, .logUploaded:
                break
            }
        }
        // What is still open lasts to the run's end.
        if let since = offlineSince, end > since { spans.append(TraceSpan(kind: .offline, from: since, to: end, message: -1)) }
        for (message, starts) in stored { for start in starts { spans.append(TraceSpan(kind: .stored, from: start, to: end, message: message)) } }
        for (message, starts) in held { for start in starts { spans.append(TraceSpan(kind: .heldForPower, from: start, to: end, message: message)) } }
        for (invocation, open) in waiting {
            spans.append(TraceSpan(kind: .extensionWait, from: open.from, to: end, message: open.message, invocation: invocation))
        }
        return spans.sorted(by: order)
    }

    /// Start, then end, kind, message and invocation: a total order, so the dictionaries'
    /// order above never shows.
    private static func order(_ a: TraceSpan, _ b: TraceSpan) -> Bool {
        let kinds = TraceSpan.Kind.allCases
        return (a.from, a.to, kinds.firstIndex(of: a.kind)!, a.message, a.invocation)
            < (b.from, b.to, kinds.firstIndex(of: b.kind)!, b.message, b.invocation)
    }

    /// Lays `spans` (in start order) on rows where none overlaps another: each on the
    /// first row free at its start (a row is free from the instant its last span ends).
    /// Returns each span's row, 0-based, in the spans' order.
    /// - Complexity: O(n × rows).
    package static func rows(_ spans: [TraceSpan]) -> [Int] {
        var rowEnds: [SimTime] = []
        return spans.map { span in
            if let row = rowEnds.firstIndex(where: { $0 <= span.from }) {
                rowEnds[row] = span.to
                return row
            }
            rowEnds.append(span.to)
            return rowEnds.count - 1
        }
    }
}
