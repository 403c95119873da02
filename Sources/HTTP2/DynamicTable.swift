/// HPACK's dynamic table (RFC 7541 §2.3.2, §4): the fields added most recently first,
/// evicted oldest first so that the sum of their sizes stays within `maxSize`.
///
/// A ring buffer: adding and evicting move no other entry. Index 0 is the newest entry,
/// which the wire calls index 62 (after the static table).
public struct DynamicTable: Sendable {
    private var storage: [HeaderField?] = []
    /// Position of the oldest entry in `storage`.
    private var oldest = 0
    /// Entries held.
    /// - Complexity: O(1).
    public private(set) var count = 0
    /// The sum of the entries' sizes (RFC 7541 §4.1).
    /// - Complexity: O(1).
    public private(set) var size = 0
    /// The current maximum size, as the last size update (or the initial setting) made it.
    /// - Complexity: O(1).
    public private(set) var maxSize: Int

    /// An empty table of at most `maxSize` octets.
    /// - Complexity: O(1).
    public init(maxSize: Int) {
        self.maxSize = maxSize
    }

    /// The entry at `index`, 0 the newest.
    /// - Precondition: `index < count`.
    /// - Complexity: O(1).
    public subscript(index: Int) -> HeaderField {
        precondition(index >= 0 && index < count, "dynamic table index \(index) of \(count)")
        return storage[(oldest + count - 1 - index) & (storage.count - 1)]!
    }

    /// Adds `field` as the newest entry, first evicting what it needs; a field larger than
    /// the whole table empties it and is not added (RFC 7541 §4.4: not an error).
    /// - Complexity: amortised O(1) per entry added or evicted.
    public mutating func insert(_ field: HeaderField) {
        let fieldSize = field.size
        guard fieldSize <= maxSize else {
            evict(downTo: 0)
            return
        }
        evict(downTo: maxSize - fieldSize)
        if count == storage.count { grow() }
        var entry = field
        entry.indexing = .incremental // what the entry is, not how it came
        storage[(oldest + count) & (storage.count - 1)] = entry
        count += 1
        size += fieldSize
        checkInvariants()
    }

    /// Applies a size update (RFC 7541 §4.3, §6.3), evicting until the entries fit.
    /// - Complexity: O(k), k the entries evicted.
    public mutating func setMaxSize(_ newMaxSize: Int) {
        maxSize = newMaxSize
        evict(downTo: newMaxSize)
        checkInvariants()
    }

    /// The newest entry with `name` and `value`, else the newest with `name`: its index,
    /// and whether the value matched too.
    /// - Complexity: O(count).
    public func firstIndex(name: [UInt8], value: [UInt8]) -> (index: Int, valueMatches: Bool)? {
        name.withUnsafeBufferPointer { name in value.withUnsafeBufferPointer { value in firstIndex(name: name, value: value) } }
    }

    /// The newest entry with `name` and `value`, else the newest with `name`, by octets in place.
    /// - Complexity: O(count).
    func firstIndex(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> (index: Int, valueMatches: Bool)? {
        var nameOnly: Int?
        for index in 0..<count {
            let matches = self[index].withOctets { entryName, entryValue in
                guard Octets.equal(entryName, name) else { return 0 }
                return Octets.equal(entryValue, value) ? 2 : 1
            }
            if matches == 2 { return (index, true) }
            if matches == 1 && nameOnly == nil { nameOnly = index }
        }
        return nameOnly.map { ($0, false) }
    }

    private mutating func evict(downTo limit: Int) {
        while size > limit, count > 0 {
            size -= storage[oldest]!.size
            storage[oldest] = nil
            oldest = (oldest + 1) & (storage.count - 1)
            count -= 1
        }
    }

    /// Doubles the ring (a power of two, so positions wrap with a mask), oldest first.
    private mutating func grow() {
        var larger = [HeaderField?](repeating: nil, count: Swift.max(8, storage.count * 2))
        for position in 0..<count { larger[position] = storage[(oldest + position) & (storage.count - 1)] }
        storage = larger
        oldest = 0
    }

    /// With `-DPUSHSIM_INVARIANTS` (the test builds): the size is the sum of the entries'
    /// sizes and within the maximum. Compiled out otherwise.
    /// - Complexity: O(count) with the flag, O(1) without.
    func checkInvariants() {
        #if PUSHSIM_INVARIANTS
        var total = 0
        for index in 0..<count { total += self[index].size }
        precondition(total == size, "dynamic table size \(size), entries add up to \(total)")
        precondition(size <= maxSize, "dynamic table size \(size) above its maximum \(maxSize)")
        #endif
    }
}
