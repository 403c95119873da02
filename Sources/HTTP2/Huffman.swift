/// The Huffman coding of HPACK string literals (RFC 7541 §5.2, Appendix B).
///
/// Decoding reads a whole octet at a time through a state machine built once from
/// `HuffmanCode.rows`: the states are the 256 internal nodes of the code's tree, and each
/// (state, octet) leads to a state, at most two symbols (no code is shorter than 5 bits)
/// and whether EOS was met. It is made from a machine that reads four bits at a time
/// (nghttp2's), kept as the reference. A state is a valid place to stop when the bits
/// since the last symbol are all ones and fewer than eight: padding made of EOS's high bits.
public enum Huffman {
    /// The octets `bytes` take once coded.
    /// - Complexity: O(n).
    public static func encodedLength<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Int {
        HuffmanCode.rows.withUnsafeBufferPointer { rows in
            var bits = 0
            for byte in bytes { bits &+= Int(rows[Int(byte)].length) }
            return (bits + 7) / 8
        }
    }

    /// Appends the code of `bytes`, padded with ones to an octet boundary.
    /// - Complexity: O(n).
    public static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes, into output: inout [UInt8]) {
        encode(bytes, codedLength: encodedLength(bytes), into: &output)
    }

    /// Appends the code of `bytes`, whose `encodedLength` the caller has.
    /// - Complexity: O(n).
    static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes, codedLength: Int, into output: inout [UInt8]) {
        // Written through a pointer into scratch space (four octets at a time), then
        // appended at once: an append per octet costs more than the coding.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: codedLength + 4) { out in
            HuffmanCode.rows.withUnsafeBufferPointer { rows in
                var pending: UInt64 = 0 // the low `count` bits are waiting to be written
                var count: UInt64 = 0
                var at = 0
                for byte in bytes {
                    let row = rows[Int(byte)]
                    // Fewer than 32 bits wait and a code has at most 30: they fit 64 bits.
                    pending = pending << UInt64(row.length) | UInt64(row.code)
                    count &+= UInt64(row.length)
                    if count >= 32 {
                        count &-= 32
                        let word = UInt32(truncatingIfNeeded: pending >> count)
                        out[at] = UInt8(truncatingIfNeeded: word >> 24)
                        out[at &+ 1] = UInt8(truncatingIfNeeded: word >> 16)
                        out[at &+ 2] = UInt8(truncatingIfNeeded: word >> 8)
                        out[at &+ 3] = UInt8(truncatingIfNeeded: word)
                        at &+= 4
                    }
                }
                // The rest, padded with ones (EOS's first bits) to an octet boundary.
                let padding = (8 - count % 8) % 8
                pending = pending << padding | ((1 << padding) - 1)
                count += padding
                while count > 0 {
                    count -= 8
                    out[at] = UInt8(truncatingIfNeeded: pending >> count)
                    at += 1
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: out[..<codedLength]))
        }
    }

    /// Decodes `bytes`, appending the octets to `output` (nothing is appended on an error).
    /// - Throws: `HPACKError.invalidHuffman` for EOS in the data or padding that is
    ///   longer than 7 bits or not all ones (RFC 7541 §5.2).
    /// - Complexity: O(n).
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) throws(HPACKError) {
        let valid = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumDecodedLength(bytes.count)) { out -> Bool in
            guard let count = decode(bytes, into: out) else { return false }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: out[..<count]))
            return true
        }
        guard valid else { throw .invalidHuffman }
    }

    /// The room `decode(_:into:)` needs for `count` octets of code: at most `count * 8 / 5`
    /// octets (no code is shorter than 5 bits), and each step writes one octet past what it keeps.
    /// - Complexity: O(1).
    static func maximumDecodedLength(_ count: Int) -> Int { count * 8 / 5 + 2 }

    /// Decodes `bytes` into `out`, which has room for `maximumDecodedLength(bytes.count)`
    /// octets, written through the pointer (an append per octet cost more than the state
    /// machine's step); how many it wrote, or nil when the code is invalid.
    /// - Complexity: O(n).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        precondition(out.count >= maximumDecodedLength(bytes.count), "no room for what the code may decode to")
        let machine = HuffmanDecoder.shared
        var state = 0
        var end = 0
        var flags: UInt32 = 0
        machine.octetTransitions.withUnsafeBufferPointer { table in
            guard let input = bytes.baseAddress, let output = out.baseAddress, let table = table.baseAddress else { return }
            for index in 0..<bytes.count {
                // Both symbol octets are written; `end` keeps those emitted. A failed step
                // emits nothing and goes back to the root, so the writes stay in the room;
                // its flag is kept and judged at the end (no branch a step).
                let transition = table[state << 8 | Int(input[index])]
                // The two symbol octets in one store, the first at `end`.
                UnsafeMutableRawPointer(output + end).storeBytes(of: UInt16(truncatingIfNeeded: transition >> 8).littleEndian,
                                                                 as: UInt16.self)
                end &+= Int(transition >> 24 & 3)
                flags |= transition
                state = Int(transition & 0xff)
            }
        }
        guard flags & HuffmanDecoder.octetFailed == 0, machine.canEnd[state] else { return nil }
        return end
    }

    /// Decodes `bytes` into `out` four bits at a time (the machine the octet one is made
    /// from): the reference the tests hold the octet decoder to.
    /// - Complexity: O(n).
    static func decodeByNibbles(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        precondition(out.count >= maximumDecodedLength(bytes.count), "no room for what the code may decode to")
        let machine = HuffmanDecoder.shared
        var state = 0
        var end = 0
        let finished = machine.transitions.withUnsafeBufferPointer { table -> Bool in
            for byte in bytes {
                // Every step writes its symbol's octet; only one it emits is kept (`end` moves).
                var transition = table[state << 4 | Int(byte >> 4)]
                out[end] = UInt8(truncatingIfNeeded: transition >> 8)
                end &+= Int(transition >> 16 & 1) // HuffmanDecoder.emits
                if transition & HuffmanDecoder.failed != 0 { return false }
                transition = table[Int(transition & 0xff) << 4 | Int(byte & 0x0f)]
                out[end] = UInt8(truncatingIfNeeded: transition >> 8)
                end &+= Int(transition >> 16 & 1)
                if transition & HuffmanDecoder.failed != 0 { return false }
                state = Int(transition & 0xff)
            }
            return true
        }
        guard finished, machine.canEnd[state] else { return nil }
        return end
    }

    /// Decodes `bytes` into a new array.
    /// - Complexity: O(n).
    public static func decode(_ bytes: [UInt8]) throws(HPACKError) -> [UInt8] {
        var output: [UInt8] = []
        try bytes.withUnsafeBufferPointer { buffer throws(HPACKError) in try decode(buffer, into: &output) }
        return output
    }
}

/// The decoding state machine, built once from Appendix B.
struct HuffmanDecoder: Sendable {
    static let shared = HuffmanDecoder()

    /// Flag bits of a transition: bits 0–7 the next state, 8–15 the symbol emitted.
    static let emits: UInt32 = 1 << 16
    static let failed: UInt32 = 1 << 17

    /// Bits of an octet transition: 0–7 the next state, 8–15 the first symbol emitted,
    /// 16–23 the second, 24–25 how many were emitted, and this flag.
    static let octetFailed: UInt32 = 1 << 26

    /// 256 states × 16 nibbles.
    let transitions: [UInt32]
    /// 256 states × 256 octets: two nibble steps each (256 KB, of which a request's
    /// strings touch a few lines).
    let octetTransitions: [UInt32]
    /// Whether input may end in each state (RFC 7541 §5.2's padding rule).
    let canEnd: [Bool]

    init() {
        // The tree: node 0 is the root; a child ≥ 0 is an internal node, < 0 the leaf −(symbol + 1).
        var children: [[Int]] = [[0, 0]]
        var allOnes = [true] // the path from the root to the node is all ones
        var depth = [0]
        for (symbol, row) in HuffmanCode.rows.enumerated() {
            var node = 0
            for position in stride(from: Int(row.length) - 1, through: 0, by: -1) {
                let bit = Int(row.code >> UInt32(position) & 1)
                if position == 0 {
                    children[node][bit] = -(symbol + 1)
                } else {
                    if children[node][bit] == 0 { // 0 is the root, never a child: unset
                        children.append([0, 0])
                        allOnes.append(allOnes[node] && bit == 1)
                        depth.append(depth[node] + 1)
                        children[node][bit] = children.count - 1
                    }
                    node = children[node][bit]
                }
            }
        }
        // A canonical code with 257 leaves has exactly 256 internal nodes, which is what
        // lets a state fit the transition's low octet.
        precondition(children.count == 256, "Appendix B's tree has \(children.count) internal nodes, not 256")
        var transitions = [UInt32](repeating: 0, count: 256 * 16)
        for state in 0..<256 {
            for nibble in 0..<16 {
                var node = state
                var transition: UInt32 = 0
                for position in stride(from: 3, through: 0, by: -1) {
                    let child = children[node][nibble >> position & 1]
                    if child >= 0 {
                        node = child
                        continue
                    }
                    let symbol = -child - 1
                    if symbol == HuffmanCode.endOfString {
                        transition |= HuffmanDecoder.failed
                        break
                    }
                    transition |= HuffmanDecoder.emits | UInt32(symbol) << 8
                    node = 0
                }
                transitions[state << 4 | nibble] = transition | UInt32(node)
            }
        }
        self.transitions = transitions
        var octetTransitions = [UInt32](repeating: 0, count: 256 * 256)
        for state in 0..<256 {
            for octet in 0..<256 {
                let high = transitions[state << 4 | octet >> 4]
                let low = transitions[Int(high & 0xff) << 4 | octet & 0x0f]
                guard (high | low) & HuffmanDecoder.failed == 0 else {
                    octetTransitions[state << 8 | octet] = HuffmanDecoder.octetFailed // to the root, nothing emitted
                    continue
                }
                var transition = low & 0xff
                var emitted: UInt32 = 0
                func emit(_ step: UInt32) {
                    guard step & HuffmanDecoder.emits != 0 else { return }
                    transition |= (step >> 8 & 0xff) << (8 + 8 * emitted)
                    emitted += 1
                }
                emit(high)
                emit(low)
                octetTransitions[state << 8 | octet] = transition | emitted << 24
            }
        }
        self.octetTransitions = octetTransitions
        canEnd = (0..<256).map { allOnes[$0] && depth[$0] <= 7 }
    }
}
