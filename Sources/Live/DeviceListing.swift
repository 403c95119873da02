import Base
import Transport

/// A `GET /devices` answer built a slice at a time: a population of thousands of device
/// apps (with `?counts=true`, tens of microseconds each) is listed over several turns of
/// the transport's loop, at most `ServeService.listingTurn` of work a turn in all, so that
/// a control client asking for it again and again never holds up APNs's requests.
struct DeviceListing {
    /// Where the answer goes (nil: built at once, in one call).
    let answer: LaterAnswer?
    let topic: String?
    let counts: Bool
    /// The next device app (lane) to list.
    var next = 0
    /// The answer's JSON so far: `{"now":…,"devices":[` and the items listed.
    private var text: String
    private var isEmpty = true

    /// - Parameter now: the simulated instant the listing begins, as JSON.
    init(answer: LaterAnswer?, topic: String?, counts: Bool, now: String) {
        self.answer = answer
        self.topic = topic
        self.counts = counts
        text = "{" + JSONText.string("now") + ":" + now + "," + JSONText.string("devices") + ":["
    }

    /// Adds one device app's object.
    /// - Complexity: O(n), n its length.
    mutating func append(_ item: String) {
        if !isEmpty { text += "," }
        text += item
        isEmpty = false
    }

    /// The whole answer's JSON, as `JSONText.object` writes it.
    /// - Complexity: O(n), n its length.
    func finished() -> String { text + "]}" }
}

extension ServeService {
    /// The work `GET /devices` answers get a turn, all together: APNs's requests on the
    /// same loop wait at most about that long for them.
    static let listingTurn = Duration.milliseconds(2)
    /// Device apps listed between two looks at the clock.
    static let listingStep = 16

    /// `GET /devices`: at once when the population is small (one step) and no listing
    /// waits, else answered later, `listingTurn` of work a turn (`tick`).
    /// - Complexity: O(min(device apps, `listingStep`)).
    func listDevices(_ request: HTTPRequest, topic: String?, counts: Bool) -> HTTPResponse {
        // Without the transport's later answers (a service called directly), at once.
        guard laterAnswers != nil, population.lanes.count > Self.listingStep || !listings.isEmpty else {
            return ControlAPI.json(200, devicesJSON(topic: topic, counts: counts))
        }
        listings.append(DeviceListing(answer: request.laterAnswer, topic: topic, counts: counts, now: time(population.now)))
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
            if listings[0].next >= population.lanes.count {
                let listing = listings.removeFirst()
                if let answer = listing.answer { laterAnswers?.answer(answer, with: ControlAPI.json(200, listing.finished())) }
            }
            if clock.now >= deadline { break }
        }
        return !listings.isEmpty
    }
}
