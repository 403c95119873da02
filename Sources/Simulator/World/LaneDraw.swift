import Base
import Kernel
import SendLog

/// What is left to draw of one app's timeline: each source's state and its next
/// entry. A source is one process (outages, device id changes, token rotations,
/// subscription changes, connectivity, mail, launches, background pushes); it draws in time order and
/// all its entries share one `TimelinePhase`. So merging the sources by (time,
/// phase) hands out exactly the order of a stable sort of everything drawn at
/// once, one entry at a time, and a lane of any length is played in bounded memory.
///
/// A value: copying it keeps a lane's start, from which every strategy replays
/// the same draws.
package struct LaneDraw: TimelineDraw {
    /// What every lane's draw starts from: the scenario's processes and the run's outages.
    package struct Sources {
        package let horizon: SimTime
        package let chain: ChainModel
        /// The outages' starts and ends, in time order, per block of users
        /// (`OutageSchedule`: one list when every block has the same).
        package let outageEntries: [ContiguousArray<TimelineEntry>]
        package let mail: WeeklyPoissonProcess
        /// The mail in bursts (`mailBursts`), drawn in place of `mail`; nil: Poisson mail.
        package let mailBursts: MailBurstProcess?
        package let launches: WeeklyPoissonProcess?
        /// The backend's background pushes (`background`); nil: none.
        package let background: WeeklyPoissonProcess?
        package let connectivity: ConnectivityProcess?
        /// The scenario's dated steering events (`events`) by device, each in time order
        /// (file order at one instant).
        package let steering: [Int: [SteeringEvent]]
        /// The send log the mail and background pushes are replayed from (`sendLog`), prepared; nil: drawn.
        package let sendLog: SendLogReplay?

        /// - Parameter outages: the outage schedule of each block of users (`OutageSchedule.draw`).
        package init(scenario: Scenario, outages: [[OutageWindow]]) {
            horizon = scenario.duration
            chain = scenario.chain
            outageEntries = (outages.isEmpty ? [[]] : outages).map { schedule in
                var entries = ContiguousArray<TimelineEntry>()
                for window in schedule {
                    entries.append(TimelineEntry(time: window.start, event: .outage(down: true)))
                    entries.append(TimelineEntry(time: window.start + window.duration, event: .outage(down: false)))
                }
                // The schedule is sorted and merged; a stable sort keeps it so whatever it holds.
                return ContiguousArray(entries.enumerated().sorted {
                    ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
                }.map(\.element))
            }
            let weekday = scenario.start.weekday
            // Prepared for at least these devices: the first n users by first appearance are the same for any n.
            precondition(scenario.sendLog.map { ($0.replay?.devices ?? -1) >= scenario.devices } ?? true,
                         "a scenario's send log is prepared for its devices before it runs (Scenario.preparingSendLog)")
            sendLog = scenario.sendLog?.replay
            mail = WeeklyPoissonProcess(model: scenario.mail, firstWeekday: weekday)
            mailBursts = scenario.mailBursts.map { MailBurstProcess(mail: scenario.mail, bursts: $0, firstWeekday: weekday) }
            launches = scenario.chain.device.launches.map { WeeklyPoissonProcess(model: $0.rhythm, firstWeekday: weekday) }
            background = scenario.chain.background.map { WeeklyPoissonProcess(model: $0.rhythm, firstWeekday: weekday) }
            connectivity = scenario.connectivity.map {
                ConnectivityProcess(model: $0, firstWeekday: weekday, horizon: scenario.duration)
            }
            let horizon = scenario.duration
            steering = Dictionary(grouping: scenario.events.filter { $0.at >= 0 && $0.at < horizon }, by: \.device)
                .mapValues { events in events.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element) }
        }

        /// Whether `user`'s device is online at time 0 (the connectivity stream's first draws).
        /// - Complexity: O(windows that hold the device offline at 0).
        package func startsOnline(seed: UInt64, user: Int) -> Bool {
            guard var process = connectivity else { return true }
            var random = RandomStream.connectivity.generator(seed: seed, user: UInt64(user))
            return process.start(&random)
        }
    }

    /// The timeline's phases, one source each: `headTimes`/`headEvents[phase.rawValue]` is that
    /// source's next entry, so at one instant the lower index goes first.
    private static let sources: [TimelinePhase] = [.outage, .deviceIDChange, .tokenRotation, .subscriptionChange,
                                                 .connectivity, .steering, .mail, .launch, .backgroundPush]
    private static let sourceCount = 9

    private let horizon: SimTime
    private let outageEntries: ContiguousArray<TimelineEntry>
    private let deviceIDChangesPerDay: Double
    private let rotation: TokenRotationModel?
    private let subscriptions: SubscriptionModel?

    /// Each source's next entry; `SimTime.max`: the source is done.
    private var headTimes = InlineArray<9, SimTime>(repeating: .max)
    /// Each source's next entry's event, beside its time: the merge compares the times alone,
    /// 8 bytes apart (one base and an offset each), not 24.
    private var headEvents = InlineArray<9, TimelineEvent>(repeating: .launch)
    private var outageIndex = 0
    /// The scenario's steering events for this device app, in time order, and the next one's index.
    private let steering: [SteeringEvent]
    private var steeringIndex = 0
    private var deviceIDRandom: SplitMix64
    private var tokenRandom: SplitMix64
    private var subscriptionRandom: SplitMix64
    /// The device's connectivity; a placeholder that draws nothing when `drawsConnectivity` is false
    /// (not an optional: its tag was read through a call on every draw).
    private var connectivity: ConnectivityProcess
    private let drawsConnectivity: Bool
    private var connectivityRandom: SplitMix64
    private var online = true
    private var mail: WeeklyPoissonProcess
    private var mailRandom: SplitMix64
    private var mailBursts: MailBurstProcess?
    /// The bursts' sizes and gaps, from their own stream (a scenario without bursts draws nothing of it).
    private var burstRandom: SplitMix64
    /// The subscription stream again, read along with the mail: a mail after a
    /// change may go to the newest folder (the folder draw shares the mail stream).
    private var folderRandom: SplitMix64
    private var nextFolderChange: SimTime?
    private var folderGeneration: Int32 = 0
    private var launches: WeeklyPoissonProcess?
    private var launchRandom: SplitMix64
    /// Background pushes, from their own stream (a scenario without them draws nothing of it).
    private var background: WeeklyPoissonProcess?
    private var backgroundRandom: SplitMix64
    private var backgroundSerial: Int32 = 0
    /// Whether the mail and background pushes are the send log's (`sendLog`), not drawn.
    private let replaysLog: Bool
    /// The log's alert and background pushes to this device, for its first app; nil on the others.
    private var loggedMail: SendLogCursor?
    private var loggedBackground: SendLogCursor?

    /// The draw of app `lane` of `user`, at its start; `accounts` scales the mail.
    /// - Complexity: O(windows that hold the device offline at 0).
    package init(sources: Sources, seed: UInt64, user: Int, lane: Int, accounts: Int) {
        let userKey = UInt64(user)
        func stream(_ purpose: RandomStream) -> SplitMix64 { purpose.generator(seed: seed, user: userKey, lane: lane) }
        horizon = sources.horizon
        outageEntries = sources.outageEntries[UserBlocks.block(of: user) % sources.outageEntries.count]
        deviceIDChangesPerDay = sources.chain.device.deviceIDChangesPerDay
        rotation = sources.chain.device.tokenRotation
        subscriptions = sources.chain.provider.subscriptions
        steering = sources.steering[user]?.filter { $0.applies(device: user, lane: lane) } ?? []
        // Device streams have no lane: every app of the device replays them.
        deviceIDRandom = RandomStream.deviceIDChange.generator(seed: seed, user: userKey)
        connectivityRandom = RandomStream.connectivity.generator(seed: seed, user: userKey)
        tokenRandom = stream(.tokenRotation)
        subscriptionRandom = stream(.subscriptionChanges)
        folderRandom = subscriptionRandom
        mailRandom = stream(.mail)
        burstRandom = stream(.mailBursts)
        launchRandom = stream(.launches)
        backgroundRandom = stream(.backgroundPushes)
        drawsConnectivity = sources.connectivity != nil
        connectivity = sources.connectivity
            ?? ConnectivityProcess(model: ConnectivityModel(offlineWindows: []), firstWeekday: 0, horizon: 0)
        mail = sources.mail
        mail.reset(multiplier: Double(accounts))
        mailBursts = sources.mailBursts
        mailBursts?.reset(multiplier: Double(accounts))
        launches = sources.launches
        launches?.reset()
        background = sources.background
        background?.reset()
        replaysLog = sources.sendLog != nil
        if let replay = sources.sendLog, lane == 0 {
            loggedMail = SendLogCursor(replay: replay, device: user, kind: .alert)
            loggedBackground = SendLogCursor(replay: replay, device: user, kind: .background)
        }
        if drawsConnectivity { online = connectivity.start(&connectivityRandom) }
        if let perDay = subscriptions?.changesPerDay, perDay > 0 {
            nextFolderChange = UserTimeline.nextRare(after: 0, perDay: perDay, horizon: horizon, &folderRandom)
        }
        for phase in Self.sources { advance(phase, from: 0) }
    }

    /// True once every entry has been handed out.
    package var isFinished: Bool {
        for source in 0..<Self.sourceCount where headTimes[source] != .max { return false }
        return true
    }

    /// Appends the next entries, in the agenda's order, until `buffer` holds
    /// `capacity` or the lane is done.
    /// - Complexity: O(n × k) for n entries from k sources.
    package mutating func fill(_ buffer: inout ContiguousArray<TimelineEntry>, upTo capacity: Int) {
        // Drawn a chunk at a time, then appended at once: the buffer's room and ownership
        // are checked once a chunk instead of once an entry.
        withUnsafeTemporaryAllocation(of: TimelineEntry.self, capacity: Self.chunk) { chunk in
            while buffer.count < capacity {
                let room = Swift.min(chunk.count, capacity - buffer.count)
                var drawn = 0
                // `drawn < room <= chunk.count`: every write is inside the chunk.
                while drawn < room, let entry = nextEntry() {
                    chunk.initializeElement(at: drawn, to: entry)
                    drawn += 1
                }
                buffer.append(contentsOf: UnsafeBufferPointer(start: chunk.baseAddress, count: drawn))
                guard drawn == room else { return }
            }
        }
    }

    /// Entries `fill` draws before appending them.
    private static let chunk = 64

    /// The next entry in the agenda's order, drawing its source's next; nil once the lane is done.
    @inline(__always)
    private mutating func nextEntry() -> TimelineEntry? {
        var first = 0
        var firstTime = headTimes[0]
        for source in 1..<Self.sourceCount where headTimes[source] < firstTime {
            first = source
            firstTime = headTimes[source]
        }
        guard firstTime != .max else { return nil }
        let entry = TimelineEntry(time: firstTime, event: headEvents[first])
        advance(TimelinePhase(rawValue: UInt8(first))!, from: firstTime)
        return entry
    }

    /// The next mail's arrival: in bursts under `mailBursts`, else the Poisson process's.
    private mutating func nextMail() -> SimTime? {
        guard mailBursts != nil else { return mail.next(&mailRandom) }
        return mailBursts!.next(starts: &mailRandom, bursts: &burstRandom)
    }

    /// Draws the next entry of phase `phase`'s source after its last one, at `now` (0 at the start).
    /// Inlined in `fill`, once per entry: no call, and the phase known from the merge.
    @inline(__always)
    private mutating func advance(_ phase: TimelinePhase, from now: SimTime) {
        var next = TimelineEntry(time: .max, event: .launch)
        switch phase {
        case .outage:
            if outageIndex < outageEntries.count {
                next = outageEntries[outageIndex]
                outageIndex += 1
            }
        case .deviceIDChange:
            if deviceIDChangesPerDay > 0,
               let time = UserTimeline.nextRare(after: now, perDay: deviceIDChangesPerDay, horizon: horizon, &deviceIDRandom) {
                next = TimelineEntry(time: time, event: .deviceIDChange(newID: deviceIDRandom.next()))
            }
        case .tokenRotation:
            if let rotation, rotation.perDay > 0,
               let time = UserTimeline.nextRare(after: now, perDay: rotation.perDay, horizon: horizon, &tokenRandom) {
                next = TimelineEntry(time: time, event: .tokenRotation(promptShown: tokenRandom.nextUnitInterval() <= rotation.withPromptShare))
            }
        case .subscriptionChange:
            if let perDay = subscriptions?.changesPerDay, perDay > 0,
               let time = UserTimeline.nextRare(after: now, perDay: perDay, horizon: horizon, &subscriptionRandom) {
                next = TimelineEntry(time: time, event: .subscriptionChange)
            }
        case .steering:
            if steeringIndex < steering.count {
                next = TimelineEntry(time: steering[steeringIndex].at, event: .steered(steering[steeringIndex].action))
                steeringIndex += 1
            }
        case .connectivity:
            if drawsConnectivity, let change = connectivity.nextChange(&connectivityRandom), change < horizon {
                online.toggle()
                next = TimelineEntry(time: change, event: .connectivity(online: online))
            }
        case .mail:
            if let arrival = replaysLog ? loggedMail?.nextTime() : nextMail(), arrival < horizon {
                while let change = nextFolderChange, change <= arrival {
                    folderGeneration += 1
                    nextFolderChange = UserTimeline.nextRare(after: change, perDay: subscriptions!.changesPerDay,
                                                             horizon: horizon, &folderRandom)
                }
                var folder: Int32 = 0
                if let subscriptions, folderGeneration > 0, mailRandom.nextUnitInterval() <= subscriptions.mailShare {
                    folder = folderGeneration
                }
                next = TimelineEntry(time: arrival, event: .mail(folder: folder))
            }
        case .launch:
            if launches != nil, let launch = launches!.next(&launchRandom), launch < horizon {
                next = TimelineEntry(time: launch, event: .launch)
            }
        case .backgroundPush:
            if let push = replaysLog ? loggedBackground?.nextTime() : background?.next(&backgroundRandom), push < horizon {
                next = TimelineEntry(time: push, event: .backgroundPush(serial: backgroundSerial))
                backgroundSerial &+= 1
            }
        }
        headTimes[Int(phase.rawValue)] = next.time
        headEvents[Int(phase.rawValue)] = next.event
    }
}
