import Base
import Provider

extension Ledger {
    /// How a long lane is folded as it plays.
    package struct Folding {
        /// Records held before folding is tried; past it, every mail tries again.
        package var recordsHeld: Int
        /// The user's block (`UserBlocks`).
        package var block: Int
        /// Days of the run.
        package var days: Int
        /// The device-id hash at the lane's start.
        package var deviceIDHash: UInt32
    }

    /// A re-request the extension made: until the provider has served it and the
    /// extension's invocation has ended, its positions may be re-sent or summarized.
    package struct OpenRange {
        package var invocation: Int32
        package var first: Int32
        package var last: Int32
        package var served = false
        package var ended = false
    }

    /// What folding keeps for a long lane: what decides when a message has settled,
    /// and the folded messages' counts.
    package struct StreamingFold {
        /// Copies in flight of folded messages (re-sends of shown ones).
        package var ghostCopies: Int64 = 0
        /// Folded messages tapped after they were folded.
        package var openedAfterFold: Int64 = 0
        /// The extension's saved position, as it last told (`DeviceEffect.positionSaved`).
        package var savedPosition: Int32?
        /// The device's id hash now: numbering under another hash is no longer reachable.
        package var deviceIDHash: UInt32 = 0
        /// The device id changed without its hash: old and new positions could meet,
        /// so numbered messages settle only when shown.
        package var numberedStayOpen = false
        package var openRanges: ContiguousArray<OpenRange> = []
        /// The fold of the messages folded so far (they go straight to the lane's aggregate).
        package var pass = FoldPass()
        package var block = 0
        /// Per day, folded messages the provider sent, and those whose log went up by
        /// the end of the next day: they count once the day's launches are known. Kept
        /// lane after lane; only `touchedDays` is nonzero.
        package var sentByDay: ContiguousArray<Int64> = []
        package var receivedByDay: ContiguousArray<Int64> = []
        package var touchedDays = 0..<0
        /// Folded messages logged but not uploaded yet; the sent ones by day.
        package var awaitingUpload: Int64 = 0
        package var awaitingSentByDay: ContiguousArray<(day: Int, count: Int64)> = []
        package var uploadedAfterFold: Int64 = 0

        package mutating func reset(_ folding: Folding) {
            ghostCopies = 0
            openedAfterFold = 0
            savedPosition = nil
            deviceIDHash = folding.deviceIDHash
            numberedStayOpen = false
            openRanges.removeAll(keepingCapacity: true)
            pass = FoldPass()
            block = folding.block
            for day in touchedDays {
                sentByDay[day] = 0
                receivedByDay[day] = 0
            }
            touchedDays = 0..<0
            if sentByDay.count < folding.days {
                sentByDay = ContiguousArray(repeating: 0, count: folding.days)
                receivedByDay = ContiguousArray(repeating: 0, count: folding.days)
            }
            awaitingUpload = 0
            awaitingSentByDay.removeAll(keepingCapacity: true)
            uploadedAfterFold = 0
        }

        /// The extension's log went up at `time`: it carries every folded message's
        /// log (they were all written before `time`).
        package mutating func upload(at time: SimTime) {
            uploadedAfterFold += awaitingUpload
            awaitingUpload = 0
            for (day, count) in awaitingSentByDay where time < MeasurementWindow.end(ofDay: day) {
                receivedByDay[day] += count
            }
            awaitingSentByDay.removeAll(keepingCapacity: true)
        }

        /// Folds a settled message into `aggregate`: its bucket now, its measurement by day.
        package mutating func fold(_ record: Record, index: Int, into aggregate: inout StrategyAggregate,
                           launches: LaunchLog) -> String? {
            let day = Int(record.arrival / TimeUnit.day)
            touchedDays = touchedDays.isEmpty ? day..<(day + 1) : touchedDays.lowerBound..<Swift.max(touchedDays.upperBound, day + 1)
            let sent = record.stages & Stage.providerSent != 0
            if sent { sentByDay[day] += 1 }
            if record.loggedAt >= 0 {
                // Settled only after its log was written: a later upload carries it.
                if let uploadedAt = launches.firstUpload(notBefore: record.loggedAt) {
                    pass.funnel[.uploaded] += 1
                    if sent && uploadedAt < MeasurementWindow.end(ofDay: day) { receivedByDay[day] += 1 }
                } else {
                    awaitingUpload += 1
                    if sent {
                        if let last = awaitingSentByDay.last, last.day == day {
                            awaitingSentByDay[awaitingSentByDay.count - 1].count += 1
                        } else {
                            awaitingSentByDay.append((day, 1))
                        }
                    }
                }
            }
            let accounted = pass.addUnmeasured(record, into: &aggregate, block: block, launches: launches)
            if record.loggedAt >= 0 { pass.funnel[.logged] += 1 }
            return accounted ? nil : FoldPass.unaccounted(record, index: index)
        }

        /// Adds what the folded messages still owe `aggregate`: the last day and the
        /// funnel of the pass, and the measurement of each day, whose launches are now known.
        package func finish(into aggregate: inout StrategyAggregate, launches: LaunchLog) {
            var pass = pass
            pass.funnel[.uploaded] += uploadedAfterFold
            pass.funnel[.opened] += openedAfterFold
            pass.finish(into: &aggregate, block: block)
            guard launches.measured else { return }
            for day in touchedDays where sentByDay[day] > 0 && launches.launched(onDayOrNext: day) {
                var measured = DayCounts()
                measured[.measuredSent] = sentByDay[day]
                measured[.measuredReceived] = receivedByDay[day]
                aggregate.add(measured, day: day, block: block)
            }
        }
    }

    /// One pass of the fold over records in arrival order: days come one after the
    /// other, so a day is counted locally and added once, its launches looked up once.
    /// A record's counts go to scalars (the day's) and to one counter of its funnel
    /// stages' combination (four bits: sixteen counters), spread over the funnel at the
    /// end: each is an increment of a local, not of a counter set's slot.
    package struct FoldPass {
        package var day = -1
        /// The day's instants, `dayStart ..< dayStart + dayLength`: a record in them is of
        /// `day` without a division (`dayLength` 0 until a day starts: none is).
        private var dayStart: SimTime = 0
        private var dayLength: UInt64 = 0
        /// The counts so far (the day's, and the pass's `logged` and `uploaded`).
        private var tally = Tally()
        package var launchedToday = false
        package var nextDayEnd: SimTime = 0
        /// Funnel counts added from outside the records (a long lane's folded messages).
        package var funnel = OutcomeCounts()
        /// Records by the funnel stages they reached (`Record.stages`, `Stage` bits).
        private var byStages = InlineArray<16, Int64>(repeating: 0)
        /// The lane's last upload, and its last before `nextDayEnd` (`LaunchLog.lastUpload`):
        /// a log written before one is carried by an upload (by `nextDayEnd`), one written
        /// after it by none, without a lookup; a log written at one's instant is looked up.
        private var lastUpload = SimTime.min, lastUploadOfDay = SimTime.min
        /// Where the day's last upload was (`LaunchLog.lastUpload(before:hint:)`).
        private var uploadHint = 0
        /// The day's lost records by reason (`LossReason` raw values; `lost` is their sum).
        private var lostToday = InlineArray<16, Int64>(repeating: 0)
        /// The days counted so far, summed (`logged` and `uploaded` left 0): added to the
        /// totals once, at the end.
        private var days = Tally()
        /// The days counted so far, each apart: added to the aggregate's days at the end
        /// (`finish`), all at once (one uniqueness check per array, not two a day).
        private var countedDays: ContiguousArray<(day: Int, counts: DayCounts)> = []
        /// Where the last day's first launch was (`LaunchLog.launched(from:before:hint:)`).
        private var launchHint = 0

        /// What a record adds to: a value of its own, kept in registers while a day's
        /// records are counted (`add(_:into:block:launches:)`). Wrapping: each counts
        /// records, fewer than `Int64.max`.
        private struct Tally {
            var messages: Int64 = 0, delivered: Int64 = 0, summarized: Int64 = 0, lost: Int64 = 0,
                pending: Int64 = 0, measuredSent: Int64 = 0, measuredReceived: Int64 = 0
            /// The pass's, not the day's.
            var logged: Int64 = 0, uploaded: Int64 = 0

            /// The day's counts as a day's counters.
            var dayCounts: DayCounts {
                var counts = DayCounts()
                counts[.messages] = messages
                counts[.delivered] = delivered
                counts[.summarized] = summarized
                counts[.lost] = lost
                counts[.pending] = pending
                counts[.measuredSent] = measuredSent
                counts[.measuredReceived] = measuredReceived
                return counts
            }

            /// Adds the day's counts of `other` (not its `logged` and `uploaded`).
            mutating func addDay(_ other: Tally) {
                messages &+= other.messages
                delivered &+= other.delivered
                summarized &+= other.summarized
                lost &+= other.lost
                pending &+= other.pending
                measuredSent &+= other.measuredSent
                measuredReceived &+= other.measuredReceived
            }
        }

        /// Adds a message's record, folded as its lane plays: its measurement is counted
        /// elsewhere (`StreamingFold`). False when it fits no bucket (`unaccounted(_:index:)` says why).
        package mutating func addUnmeasured(_ record: Record, into aggregate: inout StrategyAggregate, block: Int,
                                            launches: LaunchLog) -> Bool {
            aggregate.recordingLatencies { aggregate, latency, recovered in
                enterDay(of: record.arrival, into: &aggregate, block: block, launches: launches, measures: false)
                var tally = self.tally
                defer { self.tally = tally }
                return count(record, into: &tally, latency: &latency, recovered: &recovered, launches: launches,
                             measures: false)
            }
        }

        /// Adds `records` (a lane's, in arrival order, `launches` its launches and uploads)
        /// and their measurement, the day's counts and the latencies' buckets held apart
        /// from `aggregate` while a day lasts. Returns the index of the first record that
        /// fits no bucket, else nil.
        /// - Complexity: O(records + days).
        package mutating func add(_ records: UnsafeBufferPointer<Record>, into aggregate: inout StrategyAggregate,
                                  block: Int, launches: LaunchLog) -> Int? {
            lastUpload = launches.lastUpload
            return aggregate.recordingLatencies { aggregate, latency, recovered in
                var tally = self.tally
                defer { self.tally = tally }
                for index in records.indices {
                    let record = records[index]
                    if UInt64(bitPattern: record.arrival &- dayStart) >= dayLength {
                        self.tally = tally
                        enterDay(of: record.arrival, into: &aggregate, block: block, launches: launches, measures: true)
                        tally = self.tally
                    }
                    guard count(record, into: &tally, latency: &latency, recovered: &recovered, launches: launches,
                                measures: true) else { return index }
                }
                return nil
            }
        }

        /// Counts `record` of the day being counted into `tally`. Inlined: `add` keeps
        /// `tally` in registers over a day's records.
        @inline(__always)
        private mutating func count(_ record: Record, into tally: inout Tally, latency: inout LatencyHistogram.Recorder,
                                    recovered: inout LatencyHistogram.Recorder, launches: LaunchLog, measures: Bool) -> Bool {
            tally.messages &+= 1
            byStages[Int(record.stages & 15)] &+= 1
            // The talk's measurement: XIVA's log of what it sent is the base; the
            // extension's log counts only once a launch has uploaded it.
            var uploadedByDayEnd = false
            if measures, record.loggedAt >= 0 {
                tally.logged &+= 1
                let loggedAt = record.loggedAt
                if loggedAt < lastUploadOfDay {
                    tally.uploaded &+= 1
                    uploadedByDayEnd = true
                } else if loggedAt > lastUploadOfDay && loggedAt < lastUpload {
                    tally.uploaded &+= 1
                } else if loggedAt == lastUploadOfDay || loggedAt == lastUpload {
                    // At an upload's instant: a reconnect's upload then does not carry it.
                    if let upload = launches.firstUpload(notBefore: loggedAt) {
                        tally.uploaded &+= 1
                        uploadedByDayEnd = upload < nextDayEnd
                    }
                }
            }
            // `launchedToday` only when `measures`: the user launched the app that day or the next.
            if launchedToday && record.stages & Stage.providerSent != 0 {
                tally.measuredSent &+= 1
                if uploadedByDayEnd { tally.measuredReceived &+= 1 }
            }
            switch record.outcome {
            case .delivered:
                tally.delivered &+= 1
                latency.record(record.shownAt - record.arrival)
                if record.shownByResend { recovered.record(record.shownAt - record.arrival) }
            case .summarized:
                tally.summarized &+= 1
            case .pending:
                tally.pending &+= 1
            case .lost(let reason):
                // Counted for the day, added with it (`flushDay`): three arrays of the
                // aggregate written once a day, not per record.
                lostToday[Int(reason)] &+= 1
                tally.lost &+= 1
            case .unaccounted:
                return false
            }
            return true
        }

        /// Starts the day of `arrival` unless it is the day being counted.
        private mutating func enterDay(of arrival: SimTime, into aggregate: inout StrategyAggregate, block: Int,
                                       launches: LaunchLog, measures: Bool) {
            let recordDay = Int(arrival / TimeUnit.day)
            if recordDay != day { startDay(recordDay, into: &aggregate, block: block, launches: launches, measures: measures) }
        }

        /// Adds the day's losses by reason to the totals, the block's and the day's.
        private mutating func flushLosses(into aggregate: inout StrategyAggregate, block: Int) {
            for reason in 1..<LossReason.slots where lostToday[reason] > 0 {
                let count = lostToday[reason]
                aggregate.lostByReason[reason] += count
                aggregate.blocks[block * RateCount.allCases.count + RateCount.firstLostIndex + reason - 1] += count
                aggregate.dailyLostByReason[StrategyAggregate.dailyLostIndex(day: day, reasonRawValue: reason)] += count
                lostToday[reason] = 0
            }
        }

        /// The first record of day `newDay`: the day before goes to `aggregate`.
        private mutating func startDay(_ newDay: Int, into aggregate: inout StrategyAggregate, block: Int,
                                       launches: LaunchLog, measures: Bool) {
            flushDay(into: &aggregate, block: block)
            day = newDay
            let dayStart = SimTime(day) * TimeUnit.day
            (self.dayStart, dayLength) = (dayStart, UInt64(TimeUnit.day))
            nextDayEnd = MeasurementWindow.end(ofDay: day)
            // Only users who launched the app the same or the next day count.
            launchedToday = measures && launches.measured
                && launches.launched(from: dayStart, before: nextDayEnd, hint: &launchHint)
            if measures { lastUploadOfDay = launches.lastUpload(before: nextDayEnd, hint: &uploadHint) }
        }

        /// Adds the day being counted to `aggregate` and starts the next at zero.
        private mutating func flushDay(into aggregate: inout StrategyAggregate, block: Int) {
            guard day >= 0 else { return }
            if tally.lost > 0 { flushLosses(into: &aggregate, block: block) }
            // Room for the run's days at the first (one allocation a lane).
            if countedDays.capacity == 0 { countedDays.reserveCapacity(aggregate.daily.count) }
            countedDays.append((day, tally.dayCounts))
            days.addDay(tally)
            tally = Tally(logged: tally.logged, uploaded: tally.uploaded)
        }

        /// Why message `index` fits no bucket.
        package static func unaccounted(_ record: Record, index: Int) -> String {
            "message \(index) (mail at \(record.arrival) µs) was neither shown, summarized, lost nor in flight"
        }

        /// Adds the last day and the funnel's counts.
        package mutating func finish(into aggregate: inout StrategyAggregate, block: Int) {
            flushDay(into: &aggregate, block: block)
            day = -1
            dayLength = 0
            var total = funnel
            for stages in 0..<16 where byStages[stages] > 0 {
                let count = byStages[stages]
                if UInt8(stages) & Stage.providerSent != 0 { total[.providerSent] += count }
                if UInt8(stages) & Stage.apnsAccepted != 0 { total[.apnsAccepted] += count }
                if UInt8(stages) & Stage.reachedDevice != 0 { total[.reachedDevice] += count }
                if UInt8(stages) & Stage.opened != 0 { total[.opened] += count }
            }
            total[.logged] += tally.logged
            total[.uploaded] += tally.uploaded
            // The funnel's shares carry standard errors too: their counts go to the user's block.
            aggregate.add(total, block: block)
            aggregate.addToDays(countedDays, block: block)
            countedDays.removeAll(keepingCapacity: true)
            aggregate.addToTotals(days.dayCounts, block: block)
            days = Tally()
        }
    }

    // MARK: Folding as the lane plays

    /// Whether `record`, the oldest held, can no longer change: no copy in flight,
    /// its log (if any) written before `now`, and no way left for the extension to
    /// reach its position. A shown, logged message whose every stage is reached is
    /// settled even then: a later re-send changes nothing but the copy count (kept
    /// as `ghostCopies`) and the duplicate and collapse counts, which are not per
    /// message. Else a numbered message can be re-sent or summarized only through
    /// a gap the extension finds above its saved position, under the device's
    /// current hash, or through a re-request still open.
    package func isSettled(_ record: Record, now: SimTime) -> Bool {
        guard record.inFlight == 0, record.loggedAt < now else { return false }
        if record.position == 0 { return true }
        let complete = Stage.providerSent | Stage.apnsAccepted | Stage.reachedDevice
        if record.shownAt >= 0, record.loggedAt >= 0, record.stages & complete == complete { return true }
        guard !streaming.numberedStayOpen else { return false }
        for range in streaming.openRanges where range.first <= record.position && record.position <= range.last {
            return false
        }
        // Pushes numbered under another hash fail the extension's check: no gap is found among them.
        if record.numberingHash != streaming.deviceIDHash { return true }
        if let saved = streaming.savedPosition { return record.position <= saved }
        // Nothing saved: the first position the extension saves is that of a copy in
        // flight or still to come, all above this oldest one, unless a folded
        // message's re-send is still on its way.
        return streaming.ghostCopies == 0
    }

    /// A mail arrived at `time`: in a long lane, first folds into `aggregate` (the
    /// lane's) what has settled once `Folding.recordsHeld` records are held. Returns
    /// the message's index.
    package mutating func newMessage(at time: SimTime, folding aggregate: inout StrategyAggregate) -> Int32 {
        if let folding, records.count - liveFrom >= folding.recordsHeld { foldSettled(now: time, into: &aggregate) }
        return newMessage(at: time)
    }

    /// Folds the oldest messages into `aggregate` while they have settled.
    package mutating func foldSettled(now: SimTime, into aggregate: inout StrategyAggregate) {
        var foldedAny = false
        while let record = firstLive, isSettled(record, now: now) {
            if let broken = streaming.fold(record, index: foldedBelow, into: &aggregate, launches: launches) {
                noteInconsistency(broken)
            }
            advanceLive()
            foldedAny = true
        }
        guard foldedAny else { return }
        // Live messages look up launches from their day's start and uploads from their arrival.
        let oldest = firstLive?.arrival ?? now
        launches.forget(launchesBefore: oldest - oldest % TimeUnit.day, uploadsBefore: oldest)
        forgetFolded()
    }

    /// The extension saved `position` (nil: it forgot it).
    @inline(__always)
    package mutating func positionSaved(_ position: Int32?) {
        streaming.savedPosition = position
    }

    /// The device id changed; `hash` is the new id's.
    @inline(__always)
    package mutating func deviceIDChanged(hash: UInt32) {
        guard folding != nil else { return }
        if hash == streaming.deviceIDHash { streaming.numberedStayOpen = true }
        streaming.deviceIDHash = hash
        streaming.savedPosition = nil
    }

    /// The extension re-requested `gap` positions before `position` (invocation `invocation`).
    @inline(__always)
    package mutating func rerequestOpened(position: Int32, gap: Int32, invocation: Int32) {
        guard folding != nil else { return }
        streaming.openRanges.append(OpenRange(invocation: invocation, first: position - gap, last: position))
    }

    /// The provider served re-request `invocation` (its re-sends are on their way).
    @inline(__always)
    package mutating func rerequestServed(invocation: Int32) {
        guard folding != nil else { return }
        closeRange(invocation) { $0.served = true }
    }

    /// The extension's invocation `invocation` ended (answer or deadline).
    @inline(__always)
    package mutating func rerequestEnded(invocation: Int32) {
        guard folding != nil else { return }
        closeRange(invocation) { $0.ended = true }
    }

    private mutating func closeRange(_ invocation: Int32, _ mark: (inout OpenRange) -> Void) {
        guard let index = streaming.openRanges.firstIndex(where: { $0.invocation == invocation }) else { return }
        mark(&streaming.openRanges[index])
        if streaming.openRanges[index].served && streaming.openRanges[index].ended {
            streaming.openRanges.remove(at: index)
        }
    }

    // MARK: The end

    /// Folds this world's messages into `aggregate`, and into its counts of block
    /// `block` (the user's, `UserBlocks`); returns a description of the first message
    /// that fits no bucket (the identity broken), else nil.
    package func fold(into aggregate: inout StrategyAggregate, block: Int = 0) -> String? {
        fold(into: &aggregate, block: block, launches: launches)
    }

    /// `fold(into:block:)` with the launches and uploads in `launches`.
    package func fold(into aggregate: inout StrategyAggregate, block: Int = 0, launches: LaunchLog) -> String? {
        if let inconsistency { return inconsistency }
        aggregate[.pushesSent] += pushesSent
        aggregate.add(pushesSent, to: .outcome(.pushesSent), block: block)
        aggregate.rerequests += rerequests
        aggregate.duplicatesShown += duplicatesShown
        aggregate.collapsed += collapsed
        aggregate.chain += counts
        if !faults.isZero { _ = aggregate.faults.add(checking: faults) }
        var pass = FoldPass()
        let unaccounted = records.withUnsafeBufferPointer { records in
            pass.add(UnsafeBufferPointer(rebasing: records[liveFrom..<records.count]), into: &aggregate, block: block, launches: launches)
        }
        if let unaccounted {
            return FoldPass.unaccounted(records[liveFrom + unaccounted], index: recordsOffset + liveFrom + unaccounted)
        }
        pass.finish(into: &aggregate, block: block)
        if folding != nil { streaming.finish(into: &aggregate, launches: launches) }
        aggregate.add(launches.launchesByDay, to: .launches, block: block)
        if launches.lastDayLaunches > 0 {
            aggregate.add(launches.lastDayLaunches, to: .launches, day: launches.lastLaunchDay, block: block)
        }
        return nil
    }
}
