import Base
import FakeAPNs

/// Where pushes wait while they travel: queued events carry a 4-byte `PushSlot`
/// instead of the whole request, so heap entries stay small. Freed slots form a
/// list threaded through the pool itself, so parking and taking a push touch one
/// array element and nothing else.
package struct PushPool {
    private struct Parked: BitwiseCopyable {
        var push: PushNotification
        /// The provider's attempt number (0: first try) while parked; the next
        /// free slot (-1: none) while free.
        var attemptOrNextFree: Int32
    }

    /// Written without a uniqueness check per write (`OwnedBuffer`): a pool copied while
    /// its owner plays shares its slots until the next `removeAll`.
    private var slots = OwnedBuffer<Parked>(capacity: 64)
    private var firstFree: PushSlot = -1

    /// An empty pool.
    /// - Complexity: O(1).
    package init() {}

    /// Empty, keeping the capacity so a reused pool allocates nothing.
    /// - Complexity: O(n).
    package mutating func removeAll() {
        slots.removeAll()
        slots.makeUnique()
        firstFree = -1
    }

    /// Makes the slots this pool's own: a copy of a pool in use shares them
    /// (`OwnedBuffer`) until it starts over; call this on a copy kept to resume from.
    /// - Complexity: O(n) when shared.
    package mutating func ownStorage() { slots.makeUnique() }

    /// Parks `push` with the provider's attempt number; returns its slot.
    /// - Complexity: amortized O(1).
    @inline(__always)
    package mutating func park(_ push: PushNotification, attempt: Int32) -> PushSlot {
        let parked = Parked(push: push, attemptOrNextFree: attempt)
        guard firstFree >= 0 else {
            slots.append(parked)
            return PushSlot(slots.count - 1)
        }
        let slot = firstFree
        firstFree = slots[Int(slot)].attemptOrNextFree
        slots[Int(slot)] = parked
        return slot
    }

    /// The push parked in `slot` (still parked).
    /// - Complexity: O(1).
    package subscript(slot: PushSlot) -> PushNotification { slots[Int(slot)].push }

    /// The provider's attempt number of the push parked in `slot` (still parked).
    /// - Complexity: O(1).
    package func attempt(_ slot: PushSlot) -> Int32 { slots[Int(slot)].attemptOrNextFree }

    /// Frees `slot` and returns the push it held with its attempt number: one
    /// call, so the attempt cannot be read after the slot became free.
    /// - Complexity: O(1).
    package mutating func take(_ slot: PushSlot) -> (push: PushNotification, attempt: Int32) {
        let index = Int(slot)
        let attempt = slots[index].attemptOrNextFree
        slots[index].attemptOrNextFree = firstFree
        firstFree = slot
        return (slots[index].push, attempt)
    }

    /// Frees `slot` without reading it (the push's journey ended where it was read).
    /// - Complexity: O(1).
    package mutating func free(_ slot: PushSlot) {
        slots[Int(slot)].attemptOrNextFree = firstFree
        firstFree = slot
    }
}
