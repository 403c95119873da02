import Base
import Device
import FakeAPNs
import Provider

/// What a trace detail's value is.
package enum TraceFieldType: Sendable, Equatable {
    /// A whole number: a position, a count, a token's number, an HTTP status.
    case integer
    /// true or false.
    case boolean
    /// Microseconds: an instant of the run (from local midnight of its start) or a length.
    case microseconds
    /// One of these names, kept as its index.
    case name([String])
}

/// One detail of a trace event, declared once: its key in the files (the case's name in
/// snake_case), what its value is, and what it means, which docs/trace.md says.
package enum TraceField: CaseIterable, Sendable {
    case folder, online, byTap, oldToken, newToken, reinstall, down, dropReason, position, attempt, resend
    case collapseID, priority, after, failure, status, gap, invocation, ok, ignored, count, token, generation
    case apnsReason, until, discardReason, via, logged, notShownReason, action, why, replaced, run
    case fromPosition, toPosition, atReconnect, outcome, lossReason, steering

    /// The key in `details` (`drop_reason`).
    /// - Complexity: O(n) in the name's length.
    package var key: String { SnakeCase.of(case: self) }

    /// What the value is.
    /// - Complexity: O(names) for a named value, else O(1).
    package var type: TraceFieldType {
        switch self {
        case .folder, .position, .attempt, .priority, .status, .gap, .invocation, .count, .token, .generation, .oldToken,
             .newToken, .fromPosition, .toPosition:
            .integer
        case .online, .byTap, .reinstall, .down, .resend, .collapseID, .ok, .ignored, .logged, .replaced, .atReconnect:
            .boolean
        case .after, .until:
            .microseconds
        case .dropReason: .name(TraceNames.names(ProviderDropReason.self))
        case .failure: .name(TraceNames.names(GiveUpReason.self))
        case .apnsReason: .name(APNsReason.allCases.map(\.name))
        case .discardReason: .name(TraceNames.names(APNsDiscardReason.self))
        case .via: .name(TraceNames.names(DeliveryRoute.self))
        case .notShownReason: .name(TraceNames.names(NotShownReason.self))
        case .action: .name(TraceNames.names(GapAction.self))
        case .why: .name(TraceNames.names(RerequestFailure.self))
        case .run: .name(TraceNames.names(ExtensionRun.self))
        case .outcome: .name(TraceNames.names(TraceOutcome.self))
        case .lossReason: .name(LossReason.allCases.map(\.columnName))
        case .steering: .name(SteeringAction.allCases.map(\.name))
        }
    }

    /// What it means, as docs/trace.md says it; null where it says so.
    /// - Complexity: O(1).
    package var meaning: String {
        switch self {
        case .folder: "the folder subscription generation the mail is for (0: a folder of the install)"
        case .online: "the device is online now"
        case .byTap: "the launch came from a tap on a notification"
        case .oldToken, .newToken, .token: "an APNs token, by its number in the run (0: the install's)"
        case .reinstall: "the rotation was a reinstall: the extension's storage is empty and the prompt shows again"
        case .down: "the provider is down now"
        case .dropReason: "why the provider dropped the mail"
        case .position: "a position in the provider's numbering; null: unnumbered (or, saved, forgotten)"
        case .attempt: "the provider's attempt (0: the first)"
        case .resend: "the provider re-sent it for a re-request"
        case .collapseID: "the request carries `apns-collapse-id`"
        case .priority: "`apns-priority`"
        case .after: "the back-off before the retry, in µs"
        case .failure: "why the provider gave up"
        case .status: "the HTTP status of APNs's answer; null: none came"
        case .gap: "positions missing before `position`"
        case .invocation: "the extension invocation, numbered per app"
        case .ok: "the answer was a success"
        case .ignored: "the extension had already shown the push (its time was up)"
        case .count: "how many"
        case .generation: "the folder subscription generation"
        case .apnsReason: "APNs's reason string; null for 200"
        case .until: "when APNs drops it unless the device comes back first, in µs of the run"
        case .discardReason: "why APNs dropped it"
        case .via: "what released it: straight away, from offline storage, after a power hold, again after a bounce"
        case .logged: "the extension logged \"received\""
        case .notShownReason: "why nothing was drawn"
        case .action: "what the extension does about the gap: re-request it, or show a summary at once"
        case .why: "why the re-request failed"
        case .replaced: "it replaced the Notification Center entry with its collapse id"
        case .run: "how the extension took part"
        case .fromPosition, .toPosition: "the first and last positions the summary stands for"
        case .atReconnect: "the upload waited for the first connection after a launch offline"
        case .outcome: "delivered, summarized, pending or lost (summary.csv's buckets)"
        case .lossReason: "the reason of its first loss (summary.csv's `lost_*` column); null unless lost"
        case .steering: "the steering action, as `events[].action` names it"
        }
    }
}

/// Names of the values of enum details, from their cases.
package enum TraceNames {
    /// The cases' names in snake_case, in declaration order (the index a value keeps).
    /// - Complexity: O(cases).
    package static func names<Value: CaseIterable>(_ type: Value.Type) -> [String] {
        type.allCases.map { SnakeCase.of(case: $0) }
    }

    /// The index `value` keeps: its place among its type's cases.
    /// - Complexity: O(cases).
    package static func index<Value: CaseIterable & Equatable>(_ value: Value) -> Int64 {
        Int64(Value.allCases.firstIndex(of: value).map { Value.allCases.distance(from: Value.allCases.startIndex, to: $0) } ?? 0)
    }
}

/// Why the provider gave up on a request (`ProviderFailure` without its answer, which
/// `status` and the earlier `apns_answered` carry).
package enum GiveUpReason: CaseIterable, Sendable {
    /// APNs answered an error and no retry is left, or the error is not retried.
    case rejected
    /// The request never got an answer and no retry is left.
    case network
    /// The provider was down when the request or its retry was due.
    case outage

    /// The reason of `failure`.
    /// - Complexity: O(1).
    package init(_ failure: ProviderFailure) {
        switch failure {
        case .rejected: self = .rejected
        case .network: self = .network
        case .outage: self = .outage
        }
    }
}

/// What released a notification from APNs to the device: the message the world was
/// handling when APNs handed it out.
package enum DeliveryRoute: CaseIterable, Sendable {
    /// The device was online when the request arrived.
    case direct
    /// It waited in the offline slot; the device came back.
    case storage
    /// It waited for the device's power window.
    case power
    /// It found the device gone, came back to APNs, and the device was online again.
    case bounce
}

/// What the extension does about a gap it found.
package enum GapAction: CaseIterable, Sendable {
    /// Asks the provider for the missing positions.
    case rerequest
    /// More are missing than `repeatMaxCount`: shows "you have N missed messages" at once.
    case summary
}

/// Why a re-request failed.
package enum RerequestFailure: CaseIterable, Sendable {
    /// The provider answered an error (every position past its TTL, or down).
    case error
    /// The provider answered, but the device had lost the network before the answer came.
    case answerMissed
    /// No answer within the extension's time: iOS shows the original as is.
    case timedOut
}

/// A message's bucket at the end of the run (`Ledger.Outcome`).
package enum TraceOutcome: CaseIterable, Sendable {
    case delivered, summarized, pending, lost
}
