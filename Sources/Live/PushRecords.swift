import Base

/// What the live population remembers of one request APNs accepted, for the inspection
/// API: the simulation's pushes carry only a message number, and so do the live ones
/// (`PushPayload.messageIndex`, the record's serial); the words live here.
package struct PushRecord: Sendable {
    /// The request's serial number (0, 1, … over the run): the push's message index.
    package var serial: Int64
    /// The `apns-id` answered.
    package var apnsID: String
    /// When APNs accepted it.
    package var acceptedAt: SimTime
    /// The device app.
    package var lane: Int32
    /// `aps.alert`'s title and body (or its text), cut to `PushRecords.textLimit` bytes.
    package var title: String?
    package var body: String?
    package var collapseID: String?
    package var priority: UInt8
    /// Its `apns-expiration` was already past on the simulated clock when it arrived.
    package var expiredOnArrival = false
}

/// The latest accepted requests, in a ring of fixed size: memory stays flat however many
/// requests a long run takes. A push still travelling when its record was overwritten
/// (a million requests later) is shown without its words.
package struct PushRecords {
    /// Bytes of a title or body kept.
    package static let textLimit = 200
    private var ring: ContiguousArray<PushRecord?>
    private let mask: Int64

    /// - Parameter capacity: records kept, rounded up to a power of two.
    /// - Complexity: O(capacity).
    package init(capacity: Int) {
        var size = 1
        while size < capacity { size <<= 1 }
        ring = ContiguousArray(repeating: nil, count: size)
        mask = Int64(size - 1)
    }

    /// Keeps `record` (over the oldest).
    /// - Complexity: O(1).
    package mutating func keep(_ record: PushRecord) { ring[Int(record.serial & mask)] = record }

    /// The record of message `index` (a serial's low 31 bits), if still kept.
    /// - Complexity: O(1).
    package func record(messageIndex index: Int32) -> PushRecord? {
        guard index >= 0, let record = ring[Int(Int64(index) & mask)],
              Int32(truncatingIfNeeded: record.serial & 0x7fff_ffff) == index else { return nil }
        return record
    }

    /// The message index a serial travels as (a push carries 31 bits of it).
    /// - Complexity: O(1).
    package static func messageIndex(_ serial: Int64) -> Int32 { Int32(truncatingIfNeeded: serial & 0x7fff_ffff) }
}
