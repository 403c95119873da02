import Base
import Transport

/// A `GET /devices` answer built a slice at a time: a population of thousands of device
/// apps (with `?counts=true`, tens of microseconds each) is listed over several turns of
/// the transport's loop, `ServeService.listingSlice` device apps a turn in all, so that a
/// control client asking for it again and again never holds up APNs's requests.
struct DeviceListing {
    /// Where the answer goes (nil: built at once, in one call).
    let answer: LaterAnswer?
    let topic: String?
    let counts: Bool
    /// The simulated instant the listing began, as JSON.
    let now: String
    /// The next device app (lane) to list.
    var next = 0
    var items: [String] = []

    init(answer: LaterAnswer?, topic: String?, counts: Bool, now: String) {
        self.answer = answer
        self.topic = topic
        self.counts = counts
        self.now = now
    }

    /// The answer's body.
    /// - Complexity: O(n), n the octets of the items.
    var json: String { JSONText.object([("now", now), ("devices", JSONText.array(items))]) }
}

extension ServeService {
    /// Device apps listed a turn, all `GET /devices` answers together: about 5 ms of work
    /// with counts, so APNs's requests on the same loop wait at most that long for them.
    static let listingSlice = 200

    /// `GET /devices`: at once when the population fits in one slice and no listing waits,
    /// else answered later, `listingSlice` device apps a turn (`tick`).
    /// - Complexity: O(min(device apps, `listingSlice`)).
    func listDevices(_ request: HTTPRequest, topic: String?, counts: Bool) -> HTTPResponse {
        // Without the transport's later answers (a service called directly), at once.
        guard laterAnswers != nil, population.lanes.count > Self.listingSlice || !listings.isEmpty else {
            return ControlAPI.json(200, devicesJSON(topic: topic, counts: counts))
        }
        listings.append(DeviceListing(answer: request.laterAnswer, topic: topic, counts: counts, now: time(population.now)))
        return .later
    }

    /// One turn's slice of the waiting listings, the oldest first; a listing finished is
    /// answered. Whether listings still wait (the loop should come back at once).
    /// - Complexity: O(`listingSlice`) plus the octets of the answers finished.
    func continueListings() -> Bool {
        var budget = Self.listingSlice
        while budget > 0, var listing = listings.first {
            let before = listing.next
            continueListing(&listing, for: budget)
            budget -= listing.next - before
            if listing.next >= population.lanes.count {
                listings.removeFirst()
                if let answer = listing.answer { laterAnswers?.answer(answer, with: ControlAPI.json(200, listing.json)) }
            } else {
                listings[0] = listing
            }
        }
        return !listings.isEmpty
    }
}
