import Device
import FakeAPNs
import Provider

/// What an actor's way of losing a message counts as: declared here once, for the world's
/// ledger, serve's and the provider's counts, and the trace.
extension LossReason {
    /// APNs discarded a notification it had accepted.
    @inlinable
    package init(_ discard: APNsDiscardReason) {
        self = switch discard {
        case .replaced: .apnsCoalesced
        case .expired: .apnsExpired
        case .unregistered: .unregistered
        case .disabled: .disabled
        }
    }

    /// The provider gave up on a request.
    @inlinable
    package init(_ failure: ProviderFailure) {
        switch failure {
        case .rejected(let response):
            // Out of retries, a throttled request is lost to the throttle; every other
            // refusal (APNs unavailable included) to APNs.
            self = switch response.reason?.remedy {
            case .dropToken?: .unregistered
            case .retryLater?: response.reason == .tooManyRequests ? .rateLimited : .apnsRejected
            case .giveUp?, nil: .apnsRejected
            }
        case .network: self = .providerNetwork
        case .outage: self = .providerOutage
        }
    }

    /// The provider dropped a mail before sending anything.
    @inlinable
    package init(_ drop: ProviderDropReason) {
        self = switch drop {
        case .noValidToken: .unregistered
        case .staleSubscription: .staleSubscription
        case .outage: .providerOutage
        }
    }

    /// The phone had the push and did not show it.
    @inlinable
    package init(_ notShown: NotShownReason) {
        self = switch notShown {
        case .alertsNotAllowed: .alertsNotAllowed
        case .displayOff: .displayOff
        }
    }
}
