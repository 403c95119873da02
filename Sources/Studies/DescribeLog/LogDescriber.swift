import Base

/// Reads a send log's alert pushes one by one and keeps what `pushsim describe-log` needs
/// to estimate the scenario fields that reproduce it (`LogDescription`): per block of users,
/// the bursts and their pushes by the weekday or weekend and the local hour each burst
/// starts in (the model's rhythm is the bursts' starts'; counting pushes by their own hour
/// would smear it by the bursts' lengths). A burst is a thread
/// (the log's `thread` column, per user); a push without a thread is a burst of its own, or,
/// with `burstGap`, joins the user's previous threadless push when at most that long after it.
///
/// Users are the independent units, as in a run's reports: user u's counts go to block
/// hash(u) mod 64, and every estimate's standard error comes from the blocks (`BlockRatio`).
/// Memory grows with the log's users and threads, not with its pushes.
package struct LogDescriber {
    /// Blocks of users the standard errors are made from (as a run's reports).
    package static let blockCount = 64

    /// One burst under way: its first and last push (local µs) and its pushes.
    struct Span {
        var first: Int64
        var last: Int64
        var count: Int64
        var block: Int
    }

    /// A push without a thread came earlier than its user's previous one while `burstGap`
    /// joins them (that needs each user's pushes in time order): the row's time as given.
    package struct OutOfOrder: Error, Equatable {
        package var wall: Int64
    }

    private let burstGap: SimDuration?
    private var users = Set<UInt64>()
    /// Users per block (index: block).
    private var blockUsers = [Double](repeating: 0, count: blockCount)
    /// Threads by (user, thread) hash, and each user's open threadless burst (with `burstGap`).
    private var threads: [Pair: Span] = [:]
    private var sessions: [UInt64: Span] = [:]
    /// Finished bursts per block: bursts, their pushes' squares, time from first to last, and gaps.
    private var closed = BurstSums()
    /// First and last local day seen (days since 1970-01-01), nil before the first push.
    private var days: (first: Int, last: Int)?
    /// Alert pushes read.
    package private(set) var pushes = 0

    struct Pair: Hashable {
        var user: UInt64
        var thread: UInt64
    }

    /// Per block (index: block), of the bursts finished: bursts and their pushes, squared
    /// sizes, time from first to last push, gaps; pushes of bursts starting on a weekday and
    /// on a weekend day; bursts by the local hour they start in (hour × 64 + block).
    struct BurstSums {
        var bursts = [Double](repeating: 0, count: LogDescriber.blockCount)
        var weekdayPushes = [Double](repeating: 0, count: LogDescriber.blockCount)
        var weekendPushes = [Double](repeating: 0, count: LogDescriber.blockCount)
        var hourBursts = [Double](repeating: 0, count: 24 * LogDescriber.blockCount)
        var pushes = [Double](repeating: 0, count: LogDescriber.blockCount)
        var squares = [Double](repeating: 0, count: LogDescriber.blockCount)
        var span = [Double](repeating: 0, count: LogDescriber.blockCount)
        var gaps = [Double](repeating: 0, count: LogDescriber.blockCount)

        mutating func add(_ burst: Span) {
            let size = Double(burst.count)
            bursts[burst.block] += 1
            pushes[burst.block] += size
            squares[burst.block] += size * size
            span[burst.block] += Double(burst.last - burst.first)
            gaps[burst.block] += size - 1
            let (day, hour) = LogDescriber.dayAndHour(burst.first)
            if CivilDate(daysSinceEpoch: day).weekday >= 5 {
                weekendPushes[burst.block] += size
            } else {
                weekdayPushes[burst.block] += size
            }
            hourBursts[hour * LogDescriber.blockCount + burst.block] += 1
        }
    }

    /// - Parameter burstGap: joins a user's threadless pushes at most this far apart into one burst; nil: each its own.
    /// - Complexity: O(1).
    package init(burstGap: SimDuration? = nil) {
        self.burstGap = burstGap
    }

    /// A stable 64-bit hash of an id (FNV-1a, then mixed): the same in every process, never written out.
    /// - Complexity: O(n) in the id's length.
    static func hash(_ text: String) -> UInt64 {
        StableHash.mixed(text)
    }

    /// The local day (days since 1970-01-01) and hour of local wall time `wall`.
    static func dayAndHour(_ wall: Int64) -> (day: Int, hour: Int) {
        let day = wall >= 0 ? wall / TimeUnit.day : -((-wall + TimeUnit.day - 1) / TimeUnit.day)
        return (Int(day), Int((wall - day * TimeUnit.day) / TimeUnit.hour))
    }

    /// Counts one alert push to `user` at local wall time `wall` (µs since 1970-01-01T00:00
    /// local), in `thread` (nil or empty: none).
    /// - Complexity: O(1) amortised, O(n) in the ids' lengths.
    package mutating func add(user: String, thread: String?, wall: Int64) throws(OutOfOrder) {
        let userKey = Self.hash(user)
        let block = Int(userKey % UInt64(Self.blockCount))
        if users.insert(userKey).inserted { blockUsers[block] += 1 }
        let day = Self.dayAndHour(wall).day
        days = days.map { (min($0.first, day), max($0.last, day)) } ?? (day, day)
        pushes += 1

        let one = Span(first: wall, last: wall, count: 1, block: block)
        if let thread, !thread.isEmpty {
            let key = Pair(user: userKey, thread: Self.hash(thread))
            if var span = threads[key] {
                span.first = min(span.first, wall)
                span.last = max(span.last, wall)
                span.count += 1
                threads[key] = span
            } else {
                threads[key] = one
            }
        } else if let burstGap {
            if var span = sessions[userKey] {
                guard wall >= span.last else { throw OutOfOrder(wall: wall) }
                if wall - span.last <= burstGap {
                    span.last = wall
                    span.count += 1
                    sessions[userKey] = span
                    return
                }
                closed.add(span)
            }
            sessions[userKey] = one
        } else {
            closed.add(one)
        }
    }

    /// The estimates from every push read.
    /// - Complexity: O(users + threads).
    package func describe() -> LogDescription {
        var sums = closed
        for span in threads.values { sums.add(span) }
        for span in sessions.values { sums.add(span) }
        var weekdays = 0, weekendDays = 0
        if let days {
            for day in days.first...days.last {
                if CivilDate(daysSinceEpoch: day).weekday >= 5 { weekendDays += 1 } else { weekdays += 1 }
            }
        }
        // A log of weekend days only has no weekday rate: its own rate is perDay, without a weekend factor.
        let perDay = weekdays > 0 ? BlockRatio(sums.weekdayPushes, blockUsers.map { $0 * Double(weekdays) })
            : BlockRatio(sums.weekendPushes, blockUsers.map { $0 * Double(weekendDays) })
        let weekendShare = BlockRatio(sums.weekendPushes, sums.weekdayPushes)
        let diurnal = (0..<24).map { hour in
            BlockRatio(Array(sums.hourBursts[hour * Self.blockCount..<(hour + 1) * Self.blockCount]), sums.bursts).scaled(by: 24)
        }
        return LogDescription(
            pushes: pushes, users: users.count,
            firstDay: days.map { CivilDate(daysSinceEpoch: $0.first) }, weekdays: weekdays, weekendDays: weekendDays,
            bursts: Int(sums.bursts.reduce(0, +)),
            perDay: perDay.estimate,
            weekendFactor: weekendShare.scaled(by: weekendDays > 0 && weekdays > 0 ? Double(weekdays) / Double(weekendDays) : .nan).estimate,
            diurnal: diurnal.map(\.estimate),
            meanSize: BlockRatio(sums.pushes, sums.bursts).estimate,
            meanSquareSize: BlockRatio(sums.squares, sums.bursts).estimate,
            gapSeconds: BlockRatio(sums.span, sums.gaps).scaled(by: 1 / Double(TimeUnit.second)).estimate)
    }
}
