import Base
import Transport

/// One page of `GET /devices`, built a slice at a time: a page of thousands of device
/// apps (with `?counts=true`, tens of microseconds each) is listed over several turns of
/// the transport's loop, at most `ServeService.listingTurn` of work a turn in all, so that
/// a control client asking for it again and again never holds up APNs's requests. A page
/// holds at most `limit` device apps, so an answer's memory is bounded by the page, not
/// the population.
struct DeviceListing {
    /// Where the answer goes (nil: built at once, in one call).
    let answer: LaterAnswer?
    let topic: String?
    let counts: Bool
    /// The most device apps the page lists.
    let limit: Int
    /// The next device app (lane) to look at.
    var next: Int
    /// Device apps listed so far.
    private(set) var listed = 0
    /// The answer's JSON so far: `{"now":…,"devices":[` and the items listed.
    private var text: String

    /// - Parameters:
    ///   - now: the simulated instant the listing begins, as JSON.
    ///   - from: the first lane to look at (the `after` cursor).
    init(answer: LaterAnswer?, topic: String?, counts: Bool, limit: Int, from: Int, now: String) {
        self.answer = answer
        self.topic = topic
        self.counts = counts
        self.limit = limit
        next = from
        text = "{" + JSONText.string("now") + ":" + now + "," + JSONText.string("devices") + ":["
    }

    /// Whether the page is full.
    var isFull: Bool { listed >= limit }

    /// Adds one device app's object.
    /// - Complexity: O(n), n its length.
    mutating func append(_ item: String) {
        if listed > 0 { text += "," }
        text += item
        listed += 1
    }

    /// The page's JSON, as `JSONText.object` writes it: `next` is the cursor of the next page
    /// (`?after=`, the next lane to look at), null when no device app is left after this page among `lanes`.
    /// - Complexity: O(n), n its length.
    func finished(lanes: Int) -> String {
        text + "]," + JSONText.string("next") + ":" + (next < lanes ? String(next) : "null") + "}"
    }
}

/// `GET /devices`'s query, read and checked: a bad value is a 400 that says what is expected.
struct DeviceQuery: Equatable {
    /// Device apps a page lists without `?limit=`.
    static let defaultLimit = 1000
    /// The most a page may list.
    static let maxLimit = 10_000
    /// The largest `after` taken (a lane index; device apps are numbered in `Int32`).
    static let maxCursor = Int(Int32.max)

    var topic: String?
    var counts = false
    var limit = defaultLimit
    /// The first lane to look at: the previous page's `next`.
    var from = 0

    /// Reads `query` for a population of `lanes` device apps; the error's message when a value is bad.
    /// - Complexity: O(query).
    static func read(_ query: [String: String], lanes: Int) -> Result<DeviceQuery, DeviceQueryError> {
        var read = DeviceQuery(topic: query["topic"])
        switch query["counts"] {
        case nil, "false": read.counts = false
        case "true": read.counts = true
        case let other?: return .failure(DeviceQueryError("counts is true or false, not \(UserText.quote(other))"))
        }
        if let text = query["limit"] {
            guard let limit = Int(text), (1...maxLimit).contains(limit) else {
                return .failure(DeviceQueryError("limit is an integer from 1 to \(maxLimit), not \(UserText.quote(text))"))
            }
            read.limit = limit
        }
        if let text = query["after"] {
            guard let from = Int(text), (0...maxCursor).contains(from) else {
                return .failure(DeviceQueryError("after is a page's next, an integer from 0 to \(maxCursor), not \(UserText.quote(text))"))
            }
            // Past the last device app: an empty page, `next` null.
            read.from = Swift.min(from, lanes)
        }
        return .success(read)
    }
}

/// Why `GET /devices`'s query was refused (its 400's message).
struct DeviceQueryError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}

extension ServeService {
    /// The work `GET /devices` answers get a turn, all together: APNs's requests on the
    /// same loop wait at most about that long for them.
    static let listingTurn = Duration.milliseconds(2)
    /// Device apps listed between two looks at the clock.
    static let listingStep = 16

    /// `GET /devices`: one page, at once when it is small (one step) and no listing waits,
    /// else answered later, `listingTurn` of work a turn (`tick`); 400 for a bad query.
    /// - Complexity: O(min(page, `listingStep`)).
    func listDevices(_ request: HTTPRequest, query: [String: String]) -> HTTPResponse {
        let page: DeviceQuery
        switch DeviceQuery.read(query, lanes: population.lanes.count) {
        case .success(let read): page = read
        case .failure(let error): return ControlAPI.error(400, error.message)
        }
        // Without the transport's later answers (a service called directly), at once.
        guard laterAnswers != nil, population.lanes.count - page.from > Self.listingStep || !listings.isEmpty else {
            return ControlAPI.json(200, devicesJSON(page))
        }
        listings.append(DeviceListing(answer: request.laterAnswer, topic: page.topic, counts: page.counts, limit: page.limit,
                                      from: page.from, now: time(population.now)))
        return .later
    }

    /// One turn's work on the waiting listings, the oldest first; a listing finished is
    /// answered. Whether listings still wait (the loop should come back at once).
    /// - Complexity: what `listingTurn` allows, at least one step.
    func continueListings() -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + Self.listingTurn
        while !listings.isEmpty {
            // In place: a copy of the listing would copy its text at the next append (a
            // listing of 20,000 device apps then took 10 s, not 0.2).
            continueListing(&listings[0], for: Self.listingStep)
            if listings[0].next >= population.lanes.count || listings[0].isFull {
                let listing = listings.removeFirst()
                if let answer = listing.answer {
                    laterAnswers?.answer(answer, with: ControlAPI.json(200, listing.finished(lanes: population.lanes.count)))
                }
            }
            if clock.now >= deadline { break }
        }
        return !listings.isEmpty
    }
}
