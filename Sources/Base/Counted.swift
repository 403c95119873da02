/// A count with its noun, singular for exactly one: "1 device", "2 devices", "1,344
/// messages". Every message and report line that prints a count with a noun goes
/// through here, so none reads "1 devices".
public enum Counted {
    /// `shown` (the number as printed: "1", "1,344", "0.5") and `singular` when it reads
    /// exactly "1", else `plural` (default: `singular` + "s"). Deciding on the printed
    /// text makes a rounded estimate ("about 1 message") agree with what it shows.
    /// - Complexity: O(n) in the texts' length.
    public static func phrase(_ shown: String, _ singular: String, plural: String? = nil) -> String {
        shown + " " + (shown == "1" ? singular : plural ?? singular + "s")
    }

    /// `count` and its noun, singular for 1.
    /// - Complexity: O(n) in the texts' length.
    public static func phrase(_ count: some BinaryInteger, _ singular: String, plural: String? = nil) -> String {
        phrase(String(count), singular, plural: plural)
    }
}
