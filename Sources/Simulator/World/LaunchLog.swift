import Base

extension Ledger {
    /// What the fold needs to know about the app's launches (the talk's measurement).
    package struct LaunchLog {
        /// Launch instants, ascending: who counts for a day. (These three are the world's
        /// own, `OwnedBuffer`: a launch log copied while its lane plays shares them.)
        package var times = OwnedBuffer<SimTime>(capacity: 64)
        /// Instants the extension's log went up to analytics, ascending: a launch
        /// while online, or the first reconnect after a launch offline.
        package var uploads = OwnedBuffer<SimTime>(capacity: 64)
        /// The uploads made at a reconnect, ascending (among `uploads` too). Such an upload
        /// carries only logs written before it: a notification APNs hands over at that same
        /// instant is logged after the app's upload went out. Kept apart, not as a flag per
        /// upload: most uploads are then one append (`Ledger.uploaded`), a reconnect's two.
        package var reconnectUploads = OwnedBuffer<SimTime>(capacity: 16)

        /// Launches per day (the launch's), in day order, days without one left out: the fold
        /// adds them as the day's `launches`. The last day's count is `lastDayLaunches` (a launch
        /// then touches no array). Kept whatever `forget` drops.
        package var launchesByDay: ContiguousArray<(day: Int, count: Int64)> = []
        package var lastLaunchDay = -1
        package var lastDayLaunches: Int64 = 0

        /// Days with a launch whose instant was forgotten (`forget(launchesBefore:uploadsBefore:)`),
        /// one bit each.
        package var forgottenLaunchDays: ContiguousArray<UInt64> = []

        /// An empty log.
        package init() {}

        /// A log of these launches and uploads (the uploads made at launches), for tests.
        package init(times: ContiguousArray<SimTime>, uploads: ContiguousArray<SimTime>, measured: Bool = true) {
            for time in times { self.times.append(time) }
            for time in uploads { self.uploads.append(time) }
            self.measured = measured
        }

        /// Makes the instants this log's own (`OwnedBuffer`: a copy shares them).
        package mutating func ownStorage() {
            times.makeUnique()
            uploads.makeUnique()
            reconnectUploads.makeUnique()
        }

        /// Records a launch (in time order). Inlined: a launch's other steps are inlined too.
        /// - Complexity: amortized O(1).
        @inline(__always)
        package mutating func launch(at time: SimTime) {
            times.append(time)
            let day = Int(time / TimeUnit.day)
            if day != lastLaunchDay {
                if lastDayLaunches > 0 { launchesByDay.append((lastLaunchDay, lastDayLaunches)) }
                lastLaunchDay = day
                lastDayLaunches = 0
            }
            lastDayLaunches += 1
        }

        /// Records an upload (in time order). Inlined into the ledger's upload, itself out of the routing loop.
        /// - Complexity: amortized O(1).
        @inline(__always)
        package mutating func upload(at time: SimTime, atReconnect: Bool) {
            uploads.append(time)
            if atReconnect { reconnectUploads.append(time) }
        }

        /// Forgets every launch and upload, keeping capacity.
        /// - Complexity: O(n) in what it held.
        package mutating func removeAll() {
            times.removeAll()
            times.makeUnique()
            uploads.removeAll()
            uploads.makeUnique()
            reconnectUploads.removeAll()
            reconnectUploads.makeUnique()
            forgottenLaunchDays.removeAll(keepingCapacity: true)
            launchesByDay.removeAll(keepingCapacity: true)
            lastLaunchDay = -1
            lastDayLaunches = 0
        }

        /// Whether the app was launched on `day` or the next: the talk's method counts
        /// the user's mail of `day` then.
        /// - Complexity: O(1).
        package func launched(onDayOrNext day: Int) -> Bool {
            func forgotten(_ day: Int) -> Bool {
                day / 64 < forgottenLaunchDays.count && forgottenLaunchDays[day / 64] & (1 << UInt64(day % 64)) != 0
            }
            let dayStart = SimTime(day) * TimeUnit.day
            return (0..<MeasurementWindow.days).contains { forgotten(day + $0) } || launched(from: dayStart, before: MeasurementWindow.end(ofDay: day))
        }

        /// Forgets launch instants before `launchesBefore` and uploads before
        /// `uploadsBefore`, each once they are at least half of what it holds: no
        /// lookup asks for them any more (`launched(onDayOrNext:)` still answers for
        /// their days).
        /// - Complexity: amortized O(1) per instant recorded.
        package mutating func forget(launchesBefore: SimTime, uploadsBefore: SimTime) {
            let launches = Self.firstIndex(in: times, notBefore: launchesBefore)
            if launches > 0, launches * 2 >= times.count {
                for index in 0..<launches {
                    let time = times[index]
                    let day = Int(time / TimeUnit.day)
                    while forgottenLaunchDays.count <= day / 64 { forgottenLaunchDays.append(0) }
                    forgottenLaunchDays[day / 64] |= 1 << UInt64(day % 64)
                }
                times.removeFirst(launches)
            }
            let uploaded = Self.firstIndex(in: uploads, notBefore: uploadsBefore)
            if uploaded > 0, uploaded * 2 >= uploads.count {
                uploads.removeFirst(uploaded)
            }
            let reconnects = Self.firstIndex(in: reconnectUploads, notBefore: uploadsBefore)
            if reconnects > 0, reconnects * 2 >= reconnectUploads.count { reconnectUploads.removeFirst(reconnects) }
        }
        /// Whether the device's logs count at all (iOS < 10 users are dropped, as the talk says).
        package var measured = true

        /// The first launch at or after `time`, or nil.
        /// - Complexity: O(log n).
        package func firstLaunch(notBefore time: SimTime) -> SimTime? { Self.first(in: times, notBefore: time) }

        /// The first upload that carries a log written at `time`: at or after it, but
        /// a reconnect's upload only strictly after it. Nil when none does.
        /// - Complexity: O(log n).
        package func firstUpload(notBefore time: SimTime) -> SimTime? {
            upload(from: Self.firstIndex(in: uploads, notBefore: time), carrying: time)
        }

        /// The last upload, `SimTime.min` when none: a log written before it is carried
        /// by an upload (`firstUpload(notBefore:)` finds one), one written after it by none.
        /// - Complexity: O(1).
        package var lastUpload: SimTime { uploads.last ?? SimTime.min }

        /// The last upload before `end`, `SimTime.min` when none: a log written before it
        /// is carried by an upload before `end`, one written after it by none. Searched
        /// from `hint`, the index an earlier search left there (updated): the fold asks
        /// day after day, a step or two apart.
        /// - Complexity: O(1) when the answer is near the hint, else O(log n).
        package func lastUpload(before end: SimTime, hint: inout Int) -> SimTime {
            let index = Self.firstIndex(in: uploads, notBefore: end, hint: &hint)
            return index > 0 ? uploads[index - 1] : SimTime.min
        }

        /// `firstIndex(in:notBefore:)`, searching from `hint`, the index an earlier search
        /// left there (updated): a step or two when the instants asked rise.
        @inline(__always)
        private static func firstIndex(in instants: OwnedBuffer<SimTime>, notBefore time: SimTime, hint: inout Int) -> Int {
            let index = instants.withUnsafeBufferPointer { held in
                // Within `0...count`: every read below is of an index below `count`.
                var index = min(max(hint, 0), held.count)
                if index > 0 && held[index - 1] >= time { return firstIndex(in: instants, notBefore: time) }
                // Up to eight steps, then a search of what is left.
                let stop = min(index + 8, held.count)
                while index < stop && held[index] < time { index += 1 }
                if index == stop && index < held.count && held[index] < time { return firstIndex(in: instants, notBefore: time) }
                return index
            }
            hint = index
            return index
        }

        /// From the first upload at or after `time` (at `index`), the first that carries a
        /// log written at `time`: a reconnect's upload at that same instant does not, so one
        /// at `time` carries it only when the uploads then outnumber the reconnects' uploads then.
        @inline(__always)
        private func upload(from index: Int, carrying time: SimTime) -> SimTime? {
            guard index < uploads.count else { return nil }
            guard uploads[index] == time else { return uploads[index] }
            var end = index + 1
            while end < uploads.count && uploads[end] == time { end += 1 }
            var reconnect = Self.firstIndex(in: reconnectUploads, notBefore: time)
            var reconnectsThen = 0
            while reconnect < reconnectUploads.count && reconnectUploads[reconnect] == time {
                reconnectsThen += 1
                reconnect += 1
            }
            if end - index > reconnectsThen { return time }
            return end < uploads.count ? uploads[end] : nil
        }

        /// Whether some launch falls in `start..<end`.
        package func launched(from start: SimTime, before end: SimTime) -> Bool {
            guard let first = firstLaunch(notBefore: start) else { return false }
            return first < end
        }

        /// `launched(from:before:)`, searching from `hint` (updated): the fold asks day
        /// after day, a step or two apart.
        /// - Complexity: O(1) when the answer is near the hint, else O(log n).
        package func launched(from start: SimTime, before end: SimTime, hint: inout Int) -> Bool {
            let index = Self.firstIndex(in: times, notBefore: start, hint: &hint)
            return index < times.count && times[index] < end
        }

        private static func first(in instants: OwnedBuffer<SimTime>, notBefore time: SimTime) -> SimTime? {
            let index = firstIndex(in: instants, notBefore: time)
            return index < instants.count ? instants[index] : nil
        }

        private static func firstIndex(in instants: OwnedBuffer<SimTime>, notBefore time: SimTime) -> Int {
            var low = 0, high = instants.count
            while low < high {
                let middle = (low + high) / 2
                if instants[middle] < time { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }
}
