import Base
import Transport

/// What `pushsim provider` sends. The transport hands an outcome back by tag only; the
/// service keeps each tag's request, so an outcome is read by its kind and a new kind
/// cannot go unhandled.
enum ProviderRequest {
    /// A request to serve's control API.
    case serve(ServeRequest)
    /// A push to APNs, and the re-request it answers (nil: a mail's push or a retry).
    case push(OutgoingPush, rerequest: Int?)
}

/// The provider's requests to serve's control API (docs/serve.md).
enum ServeRequest: Equatable {
    /// `GET /`: what serve runs, checked against the provider's scenario.
    case readRun
    /// `GET /clock`: how serve's clock moves, and where it is.
    case readClock
    /// `POST /clock {"toMicroseconds": t}`: a controlled clock moved to the provider's next event.
    case moveClock(to: SimTime)
    /// `GET /devices?counts=true`: serve's counts per device app, at the end, a page at a
    /// time from `after` (nil: the first page).
    case readCounts(after: Int?)
    /// `POST /stop`: serve writes its reports and exits.
    case stopServe

    /// The request, under the control API's path prefix.
    /// - Complexity: O(1).
    func request(prefix: String) -> OutgoingRequest {
        switch self {
        case .readRun: OutgoingRequest(method: "GET", path: prefix + "/")
        case .readClock: OutgoingRequest(method: "GET", path: prefix + "/clock")
        case .moveClock(let target):
            OutgoingRequest(method: "POST", path: prefix + "/clock", headers: [Header("content-type", "application/json")],
                            body: Array("{\"toMicroseconds\": \(target)}".utf8))
        case .readCounts(let after):
            OutgoingRequest(method: "GET", path: prefix + "/devices?counts=true&limit=\(DeviceQuery.maxLimit)"
                                + (after.map { "&after=\($0)" } ?? ""))
        case .stopServe: OutgoingRequest(method: "POST", path: prefix + "/stop")
        }
    }

    /// How long its answer may take.
    var timeout: Duration {
        switch self {
        case .readRun, .readClock, .stopServe: .seconds(5)
        // Serve answers once its clock got there, which waits for the phones' calls to the provider.
        case .moveClock: .seconds(3600)
        // Every device app's counts, for a large population.
        case .readCounts: .seconds(60)
        }
    }
}
