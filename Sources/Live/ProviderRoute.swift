import Base
import Transport

/// The routes `pushsim provider` answers on `--listen`, declared once: the dispatch, the
/// index (`GET /`) and docs/provider.md (checked by a test) follow this list.
public enum ProviderRoute: CaseIterable, Sendable {
    /// `GET /`: where the run stands, the counts so far, these routes.
    case index
    /// `POST /register`: a device app registered its token (docs/provider-api.md).
    case register
    /// `POST /subscriptions`: a device app synced its folder subscriptions.
    case subscriptions
    /// `POST /rerequest`: an extension asks for the positions it missed.
    case rerequest

    /// The one method it answers (`HEAD` too for `GET`).
    public var method: String {
        switch self {
        case .index: "GET"
        case .register, .subscriptions, .rerequest: "POST"
        }
    }

    public var path: String {
        switch self {
        case .index: "/"
        case .register: "/register"
        case .subscriptions: "/subscriptions"
        case .rerequest: "/rerequest"
        }
    }

    /// The method and path, as documented.
    public var pattern: String { method + " " + path }

    /// What it answers, for the index.
    public var summary: String {
        switch self {
        case .index: "where the run stands (phase, now, what is on its way, serve lost or restarted), the counts so far, these routes"
        case .register: "a device app's token: 204; 400 for a body without token, deviceId or deviceIdHash"
        case .subscriptions: "a device app's subscriptions synced up to generation: 204; 400 without generation"
        case .rerequest: "re-sends the held positions: 200 once APNs answered them, 404 when none is held; 400 without position and gap ≥ 1"
        }
    }

    /// The route of `target` (a request target, its query ignored) and `method`: the route,
    /// or the answer for a path no route has (404) and for a method the route does not
    /// take (405, with `allow`).
    /// - Complexity: O(n) in the target.
    static func route(method: String, target: String) -> Result<ProviderRoute, RouteRefusal> {
        let path = String(target.prefix { $0 != "?" })
        guard let route = allCases.first(where: { $0.path == path }) else {
            return .failure(.noRoute(path))
        }
        guard method == route.method || (method == "HEAD" && route.method == "GET") else {
            return .failure(.methodNotAllowed(route))
        }
        return .success(route)
    }
}

/// Why a request has no route: what `ProviderRoute.route(method:target:)` refuses.
enum RouteRefusal: Error, Equatable {
    /// No route has this path: 404.
    case noRoute(String)
    /// The path's route takes another method: 405.
    case methodNotAllowed(ProviderRoute)

    /// The answer, in JSON as every other error of the provider's.
    var response: HTTPResponse {
        switch self {
        case .noRoute(let path):
            ProviderService.json(404, ProviderService.error("no route \(UserText.quote(path)); GET / lists them"))
        case .methodNotAllowed(let route):
            // RFC 9110 §15.5.6: a 405 names the methods the target takes.
            ProviderService.json(405, ProviderService.error("\(route.pattern) only"),
                                 extra: [Header("allow", route.method == "GET" ? "GET, HEAD" : route.method)])
        }
    }
}
