import Base
import Foundation
import Glibc
@testable import Live
import Simulator
import TestSupport
import Testing
import TestThreads
import Transport

/// `pushsim provider`'s service in process, on loopback: against a fake serve whose clock
/// and APNs answers the test scripts (`FakeServe`: the test makes the phones' calls), and
/// against serve itself (`ServeRun`), killed and started again too.
@Suite("pushsim provider in process: its routes, re-sends, TTL, APNs's answers, serve lost and back", .ownThread, .serialized,
       .timeLimit(.minutes(3)))
struct ProviderServiceTests {
    static let hour = 3_600 * TimeUnit.second

    /// One device with one app, online throughout, mail every half hour on average.
    static func scenario(days: Int = 1, perDay: Double = 48, provider: String = "",
                         strategy: String = #"{ "name": "queue", "repeatMaxCount": 5 }"#) -> Scenario {
        WorldFixtures.twoStates(perDay: perDay, onMean: "1000d", offMean: "1m", devices: 1, days: days, seed: 3,
                                extra: provider.isEmpty ? "" : #""provider": { \#(provider) },"#, strategies: strategy)
    }

    /// The pushes of the first mail the fake APNs saw: its first try and every retry.
    static func firstMailTries(_ fake: FakeServe) throws -> [FakePush] {
        let first = try #require(fake.pushes.first)
        return fake.pushes.filter { $0.mail == first.mail && $0.position == first.position }
    }

    // MARK: Routes

    @Test("the phones' routes: register and subscriptions 204, a re-request with nothing held 404; an unknown path 404, a wrong method 405 with allow, a bad body 400, an unknown device app 404, any call before serve answered 503")
    func routes() throws {
        let run = try FakedRun.start(Self.scenario(), ready: false)
        defer { run.stop() }
        // Serve not there yet: the provider is connecting and takes no call.
        #expect(try run.provider.call("POST", "/register", ProviderRun.registration()).status == 503)
        #expect(try run.provider.call("GET", "/").json?.object?["phase"]?.string == "connecting")
        run.fake.state.withLock { $0.ready = true }
        try #require(run.fake.release(to: 0))

        let index = try run.provider.call("GET", "/")
        #expect(index.status == 200 && index.json?.object?["phase"]?.string == "running")
        let listed = index.json?.object?["routes"]?.array?.compactMap { $0.object?["route"]?.string } ?? []
        #expect(listed == ProviderRoute.allCases.map(\.pattern))
        #expect(try run.provider.call("HEAD", "/").status == 200)
        for (method, path, allow) in [("POST", "/", "GET, HEAD"), ("GET", "/register", "POST"), ("DELETE", "/rerequest", "POST"),
                                      ("PUT", "/subscriptions", "POST")] {
            let answer = try run.provider.call(method, path)
            #expect(answer.status == 405 && answer.header("allow") == allow, "\(method) \(path): \(answer)")
            #expect(answer.json?.object?["error"]?.string != nil)
        }
        for (method, path) in [("GET", "/nothing"), ("POST", "/register/0"), ("POST", "/re-request"), ("GET", "/index.html")] {
            let answer = try run.provider.call(method, path)
            #expect(answer.status == 404 && answer.json?.object?["error"]?.string != nil, "\(method) \(path): \(answer)")
        }

        let token = String(repeating: "ab", count: 32)
        for body in ["not json", "[1]", #"{"app":0}"#, #"{"device":"0","app":0}"#, #"{"device":0.5,"app":0}"#,
                     #"{"device":0,"app":0,"deviceId":"2a","deviceIdHash":"0000002a"}"#,
                     #"{"device":0,"app":0,"token":"\#(token)","deviceIdHash":"0000002a"}"#,
                     #"{"device":0,"app":0,"token":"\#(token)","deviceId":"2a","deviceIdHash":"xyz"}"#] {
            #expect(try run.provider.call("POST", "/register", body).status == 400, "\(body)")
        }
        #expect(try run.provider.call("POST", "/register", #"{"device":1,"app":0}"#).status == 404)
        #expect(try run.provider.call("POST", "/register", #"{"device":0,"app":1}"#).status == 404)
        #expect(try run.provider.call("POST", "/register?from=test", ProviderRun.registration()).status == 204)

        #expect(try run.provider.call("POST", "/subscriptions", #"{"device":0,"app":0}"#).status == 400)
        #expect(try run.provider.call("POST", "/subscriptions", #"{"device":0,"app":0,"generation":1.5}"#).status == 400)
        #expect(try run.provider.call("POST", "/subscriptions", #"{"device":0,"app":0,"generation":2}"#).status == 204)

        for body in [#"{"device":0,"app":0,"position":3}"#, #"{"device":0,"app":0,"position":3,"gap":0}"#,
                     #"{"device":0,"app":0,"gap":1}"#, #"{"device":0,"app":0,"position":3,"gap":"1"}"#] {
            #expect(try run.provider.call("POST", "/rerequest", body).status == 400, "\(body)")
        }
        // Nothing numbered yet: nothing held.
        let none = try run.provider.call("POST", "/rerequest", ProviderRun.rerequest(position: 3, gap: 2))
        #expect(none.status == 404 && none.json?.object?["error"]?.string != nil)

        let counts = try run.provider.counts()
        #expect(counts["registrations"] == 1 && counts["rerequests"] == 1 && counts["rerequest_errors"] == 1
                && counts["resent"] == 0, "\(counts)")
        let service = try run.finish()
        let final = FakedRun.counts(service)
        #expect(final[.registrations] == 1 && final[.messages] > 0 && final[.sent] == final[.messages] && final[.droppedNoToken] == 0)
    }

    // MARK: Re-requests and the payload TTL

    @Test("a re-request re-sends the held positions it names through APNs, and is answered 200 only once APNs answered them")
    func rerequestResends() throws {
        let run = try FakedRun.start(Self.scenario())
        defer { run.stop() }
        try run.register()
        try #require(run.fake.release(to: 6 * Self.hour))
        let before = run.fake.pushes
        let last = try #require(before.last?.position)
        try #require(last >= 3 && before.count == Int(last), "\(before)")
        run.fake.answerNext(.delayed(.milliseconds(300)), .delayed(.milliseconds(300)))
        let asked = ContinuousClock.now
        let answer = try run.provider.call("POST", "/rerequest", ProviderRun.rerequest(position: Int32(last), gap: 2), at: 6 * Self.hour)
        #expect(answer.status == 200 && answer.json?.object?["resent"]?.bool == true, "\(answer)")
        #expect(ContinuousClock.now - asked >= .milliseconds(300), "answered before APNs answered the re-sent pushes")
        // Its answer came after APNs's: the re-sent positions are there already.
        #expect(run.fake.pushes.dropFirst(before.count).map(\.position) == [last - 2, last - 1])
        #expect(run.fake.pushes.dropFirst(before.count).map(\.mail) == before[Int(last) - 3..<Int(last) - 1].map(\.mail))

        let counts = FakedRun.counts(try run.finish())
        #expect(counts[.resent] == 2 && counts[.rerequests] == 1 && counts[.rerequestsServed] == 1 && counts[.rerequestErrors] == 0)
        #expect(counts[.sent] == counts[.messages] && counts[.accepted] == counts[.sent] + 2 && counts[.positionsExpired] == 0)
    }

    @Test("provider.payloadTTL: a re-request re-sends the positions younger than the TTL and counts the older as expired; one for expired positions only is 404")
    func payloadTTL() throws {
        let run = try FakedRun.start(Self.scenario(provider: #""payloadTTL": "3h""#))
        defer { run.stop() }
        try run.register()
        let now = 6 * Self.hour
        try #require(run.fake.release(to: now))
        let pushes = run.fake.pushes
        let last = try #require(pushes.last?.position)
        let asked = pushes.dropLast()                                    // positions 1 … last − 1
        let expired = asked.filter { now - $0.at >= 3 * Self.hour }
        let young = asked.filter { now - $0.at < 3 * Self.hour }
        try #require(!expired.isEmpty && !young.isEmpty, "choose another seed: \(pushes)")

        let answer = try run.provider.call("POST", "/rerequest", ProviderRun.rerequest(position: Int32(last), gap: Int32(last - 1)),
                                           at: now)
        #expect(answer.status == 200, "\(answer)")
        #expect(run.fake.pushes.dropFirst(pushes.count).map(\.position) == young.map(\.position))
        // The first young position's re-request asks for expired ones only.
        let onlyExpired = try run.provider.call("POST", "/rerequest",
                                                ProviderRun.rerequest(position: Int32(young[0].position ?? 0), gap: Int32(expired.count)),
                                                at: now)
        #expect(onlyExpired.status == 404, "\(onlyExpired)")

        let counts = FakedRun.counts(try run.finish())
        #expect(counts[.positionsExpired] == Int64(2 * expired.count), "\(counts)")
        #expect(counts[.resent] == Int64(young.count) && counts[.rerequestsServed] == 1 && counts[.rerequestErrors] == 1)
    }

    @Test("provider.expiredPositions error: one expired position makes the whole re-request 404, nothing re-sent")
    func expiredPositionsError() throws {
        let run = try FakedRun.start(Self.scenario(provider: #""payloadTTL": "3h", "expiredPositions": "error""#))
        defer { run.stop() }
        try run.register()
        let now = 6 * Self.hour
        try #require(run.fake.release(to: now))
        let pushes = run.fake.pushes
        let last = try #require(pushes.last?.position)
        let expired = pushes.dropLast().filter { now - $0.at >= 3 * Self.hour }
        try #require(!expired.isEmpty && expired.count < pushes.count - 1, "choose another seed: \(pushes)")
        let answer = try run.provider.call("POST", "/rerequest", ProviderRun.rerequest(position: Int32(last), gap: Int32(last - 1)),
                                           at: now)
        #expect(answer.status == 404, "\(answer)")
        #expect(run.fake.pushes.count == pushes.count, "something was re-sent")
        let counts = FakedRun.counts(try run.finish())
        #expect(counts[.positionsExpired] == Int64(expired.count) && counts[.resent] == 0 && counts[.rerequestErrors] == 1)
    }

    // MARK: APNs's answers

    @Test("410 Unregistered drops the token: the mails after it are dropped (dropped_no_token) until the app registers again")
    func unregisteredDropsToken() throws {
        let scenario = Self.scenario()
        let run = try FakedRun.start(scenario)
        defer { run.stop() }
        try run.register()
        run.fake.answerNext(.ok, .refuse(410, reason: "Unregistered", timestamp: LiveClock.epochMilliseconds(0, start: scenario.start)))
        let halfDay = 12 * Self.hour
        try #require(run.fake.release(to: halfDay))
        let sofar = try run.provider.counts()
        #expect(sofar["sent"] == 2 && sofar["refusals"] == 1 && sofar["rejected"] == 1 && sofar["dropped_no_token"] ?? 0 > 0, "\(sofar)")
        #expect(run.fake.pushes.count == 2)
        #expect(try run.provider.call("POST", "/register", ProviderRun.registration(), at: halfDay).status == 204)

        let counts = FakedRun.counts(try run.finish())
        let afterRegistration = run.fake.pushes.filter { $0.at > halfDay }.count
        #expect(afterRegistration > 0)
        #expect(counts[.sent] == Int64(2 + afterRegistration) && counts[.droppedNoToken] == counts[.messages] - counts[.sent])
        #expect(counts[.droppedNoToken] == sofar["dropped_no_token"] && counts[.rejected] == 1 && counts[.accepted] == counts[.sent] - 1)
    }

    @Test("a 410 stamped before the token's latest registration is ignored: the token stays in use")
    func stale410Ignored() throws {
        let scenario = Self.scenario()
        let run = try FakedRun.start(scenario)
        defer { run.stop() }
        try run.register()
        let sixHours = 6 * Self.hour
        try #require(run.fake.release(to: sixHours))
        #expect(try run.provider.call("POST", "/register", ProviderRun.registration(), at: sixHours).status == 204)
        run.fake.answerNext(.refuse(410, reason: "Unregistered",
                                    timestamp: LiveClock.epochMilliseconds(sixHours - TimeUnit.second, start: scenario.start)))
        let counts = FakedRun.counts(try run.finish())
        #expect(counts[.rejected] == 1 && counts[.refusals] == 1 && counts[.droppedNoToken] == 0, "\(counts)")
        #expect(counts[.sent] == counts[.messages] && counts[.accepted] == counts[.sent] - 1)
    }

    @Test("429 is retried after provider.backoff, doubling (1 s, then 2 s of simulated time), until APNs takes it")
    func tooManyRequestsRetriedWithBackoff() throws {
        let run = try FakedRun.start(Self.scenario(provider: #""retries": 2, "backoff": "1s""#))
        defer { run.stop() }
        try run.register()
        run.fake.answerNext(.refuse(429, reason: "TooManyRequests"), .refuse(429, reason: "TooManyRequests"))
        let service = try run.finish()
        let tries = try Self.firstMailTries(run.fake)
        let first = try #require(tries.first?.at)
        #expect(tries.map(\.at) == [first, first + TimeUnit.second, first + 3 * TimeUnit.second])
        #expect(run.fake.clockMoves.contains(first + TimeUnit.second) && run.fake.clockMoves.contains(first + 3 * TimeUnit.second))
        let counts = FakedRun.counts(service)
        #expect(counts[.retried] == 2 && counts[.refusals] == 2 && counts[.rejected] == 0, "\(counts)")
        #expect(counts[.sent] == counts[.messages] && counts[.accepted] == counts[.sent])
    }

    @Test("429 past the last retry gives the push up (rejected)")
    func tooManyRequestsOutOfRetries() throws {
        let run = try FakedRun.start(Self.scenario(provider: #""retries": 1, "backoff": "5s""#))
        defer { run.stop() }
        try run.register()
        run.fake.answerNext(.refuse(429, reason: "TooManyRequests"), .refuse(429, reason: "TooManyRequests"))
        let service = try run.finish()
        let tries = try Self.firstMailTries(run.fake)
        #expect(tries.count == 2 && tries[1].at - tries[0].at == 5 * TimeUnit.second)
        let counts = FakedRun.counts(service)
        #expect(counts[.retried] == 1 && counts[.refusals] == 2 && counts[.rejected] == 1 && counts[.accepted] == counts[.sent] - 1,
                "\(counts)")
    }

    @Test("5xx is retried: 500 InternalServerError, 503 ServiceUnavailable and a 500 without a reason, each after the doubled backoff")
    func serverErrorsRetried() throws {
        let run = try FakedRun.start(Self.scenario(provider: #""retries": 3, "backoff": "2s""#))
        defer { run.stop() }
        try run.register()
        run.fake.answerNext(.refuse(500, reason: "InternalServerError"), .refuse(503, reason: "ServiceUnavailable"),
                            .refuse(500, reason: nil))
        let service = try run.finish()
        let tries = try Self.firstMailTries(run.fake)
        let first = try #require(tries.first?.at)
        #expect(tries.map { ($0.at - first) / TimeUnit.second } == [0, 2, 6, 14])
        let counts = FakedRun.counts(service)
        #expect(counts[.retried] == 3 && counts[.refusals] == 3 && counts[.rejected] == 0 && counts[.accepted] == counts[.sent],
                "\(counts)")
    }

    @Test("an error without a reason Apple documents: a 4xx is given up at once, a bare 503 retried, a bare 410 drops the token")
    func errorsWithoutReason() throws {
        let run = try FakedRun.start(Self.scenario(provider: #""retries": 2, "backoff": "1s""#))
        defer { run.stop() }
        try run.register()
        run.fake.answerNext(.refuse(404, reason: nil), .refuse(400, reason: "NotAReasonAppleSends"), .refuse(503, reason: nil), .ok,
                            .refuse(410, reason: nil))
        let service = try run.finish()
        let counts = FakedRun.counts(service)
        // Mails 0 and 1 given up at once, mail 2 retried once and taken, mail 3's 410 drops the token.
        #expect(run.fake.pushes.map(\.mail) == [0, 1, 2, 2, 3], "\(run.fake.pushes)")
        #expect(counts[.rejected] == 3 && counts[.retried] == 1 && counts[.refusals] == 4 && counts[.sent] == 4, "\(counts)")
        #expect(counts[.droppedNoToken] == counts[.messages] - 4 && counts[.accepted] == 1)
    }

    @Test("a push APNs does not answer in time counts as no answer and is retried; the retry is taken")
    func noAnswerRetried() throws {
        let run = try FakedRun.start(Self.scenario(provider: #""retries": 1, "backoff": "1s""#),
                                     pushTimeout: .milliseconds(300))
        defer { run.stop() }
        try run.register()
        run.fake.answerNext(.silent)
        let service = try run.finish()
        let tries = try Self.firstMailTries(run.fake)
        #expect(tries.count == 2 && tries[1].at - tries[0].at == TimeUnit.second, "\(tries)")
        let counts = FakedRun.counts(service)
        #expect(counts[.noAnswers] == 1 && counts[.retried] == 1 && counts[.networkFailures] == 0, "\(counts)")
        #expect(counts[.accepted] == counts[.sent] && counts[.sent] == counts[.messages])
    }

    @Test("APNs not listening: every try fails at once, and with no retry every push is a network failure")
    func apnsRefusesConnections() throws {
        let closed = Self.closedPort()
        let run = try FakedRun.start(Self.scenario(), apns: Endpoint(host: "127.0.0.1", port: closed, protocol: .http2PriorKnowledge))
        defer { run.stop() }
        try run.register()
        let counts = FakedRun.counts(try run.finish())
        #expect(counts[.sent] == counts[.messages] && counts[.sent] > 0)
        #expect(counts[.noAnswers] == counts[.sent] && counts[.networkFailures] == counts[.sent] && counts[.accepted] == 0,
                "\(counts)")
    }

    // MARK: Against serve

    /// The provider's counts and serve's, summed over device apps.
    static func totals(_ provider: ProviderService, _ serve: ServeService) -> (ProviderLaneCounts, DeviceAppCounts) {
        var mine = ProviderLaneCounts()
        for lane in provider.provider.lanes { mine += lane.counts }
        var serves = DeviceAppCounts()
        for lane in serve.population.lanes { serves += lane.counts }
        return (mine, serves)
    }

    /// `live.json` of a finished run, parsed.
    static func liveJSON(_ service: ProviderService) throws -> JSONObject {
        let files = try ProviderReport.files(service, command: ["pushsim", "provider"])
        let live = try #require(files.first { $0.name == "live.json" })
        return try #require(try JSONParser.parse(Array(live.contents.utf8)).object)
    }

    /// Waits until serve's clock has passed `time`.
    static func waitForClock(_ serve: ServeRun, past time: SimTime) throws {
        let deadline = Date().addingTimeInterval(60)
        while try serve.clock() <= time {
            try #require(Date() < deadline, "serve's clock did not pass \(time) µs in 60 s")
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    @Test("serve and provider over a whole 28-day run (past day 11.57, 1e12 µs): re-requests re-sent, every count as the simulation's, live.json written")
    func wholeRunAgreesWithSimulation() throws {
        let run = try ServeAndProvider.start(devices: 3, days: 28)
        defer { run.stop() }
        let (scenario, serve, provider) = (run.scenario, run.serve, run.provider)
        let service = try provider.finish(within: 150)
        #expect(service.failure == nil, "\(service.failure ?? "")")
        let served = try serve.finish(within: 10)
        #expect(served.ending == .endReached && served.stopAsked, "serve did not wait for the provider's POST /stop")
        #expect(service.provider.now == scenario.duration && scenario.duration > 1_000_000_000_000)

        let simulated = try Simulation.run(scenario)["queue"]
        let (mine, serves) = Self.totals(service, served)
        #expect(mine[.messages] == simulated[.messages])
        #expect(serves[.mailsShown] == simulated[.delivered])
        #expect(mine[.sent] + mine[.resent] + mine[.retried] == simulated[.pushesSent])
        #expect(serves[.rerequests] == simulated.rerequests && mine[.rerequests] == serves[.rerequests])
        #expect(serves[.coalesced] == simulated.apns[.discardedReplaced])
        #expect(mine[.resent] > 0 && mine[.rerequestsServed] == mine[.rerequests])

        let live = try Self.liveJSON(service)
        #expect(live["simulatedSeconds"]?.number == 2_419_200 && live["serveReconnections"]?.int == 0
                && live["serveRestarts"]?.int == 0)
        let figure = live["figures"]?.object?["deliverability"]?.object?["value"]?.number
        let expected = Double(simulated[.delivered]) / Double(simulated[.messages])
        #expect(figure == expected)
    }

    @Test("serve killed mid-run and started again on its ports: the provider asks again and goes on; its accepted pushes are the two serves' together, live.json's serve counts only the second's")
    func serveRestarted() throws {
        let run = try ServeAndProvider.start(devices: 4, days: 3)
        defer { run.stop() }
        let (scenario, first, provider, port) = (run.scenario, run.serve, run.provider, run.providerPort)
        try Self.waitForClock(first, past: 24 * Self.hour)
        let killed = try first.kill()
        // Started again once the provider found it gone (a serve back before the provider's next
        // request is seen only as a restart: see serveRestartedUnnoticed).
        try Self.waitUntilProviderLostServe(provider)
        let second = try ServeRun.start(scenario, providerPort: port, ports: (first.apnsPort, first.controlPort), scenarioDigest: "same")
        defer { second.stop() }
        let service = try provider.finish(within: 120)
        #expect(service.failure == nil, "\(service.failure ?? "")")
        let last = try second.finish(within: 10)
        #expect(service.reconnections == 1 && service.restarts == 1 && service.provider.now == scenario.duration)

        let (mine, lastCounts) = Self.totals(service, last)
        let (_, killedCounts) = Self.totals(service, killed)
        #expect(killedCounts[.accepted] > 0 && lastCounts[.accepted] > 0)
        #expect(killedCounts[.accepted] + lastCounts[.accepted] == mine[.accepted],
                "the provider's 200s are not the two serves' together: \(killedCounts[.accepted]) + \(lastCounts[.accepted]) vs \(mine[.accepted])")
        let simulated = try Simulation.run(scenario)["queue"]
        #expect(mine[.messages] == simulated[.messages], "the provider drew other mail")
        #expect(lastCounts[.mailsShown] < simulated[.delivered], "the second serve shows the mails of the first")

        let live = try Self.liveJSON(service)
        #expect(live["serveReconnections"]?.int == 1 && live["serveRestarts"]?.int == 1)
        #expect(live["serve"]?.object?["accepted"]?.int == lastCounts[.accepted])
        #expect(live["provider"]?.object?["accepted"]?.int == mine[.accepted])
    }

    /// Waits until the provider's `GET /` says it is waiting for serve.
    static func waitUntilProviderLostServe(_ provider: ProviderRun) throws {
        let deadline = Date().addingTimeInterval(20)
        while try provider.call("GET", "/").json?.object?["waitingForServe"]?.bool != true {
            try #require(Date() < deadline, "the provider did not notice serve was gone")
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    @Test("serve killed and started again at once, before the provider's next request: the provider goes on, and counts the restart (the new serve's phones call before its clock)")
    func serveRestartedUnnoticed() throws {
        let run = try ServeAndProvider.start(devices: 4, days: 2)
        defer { run.stop() }
        let (scenario, first, provider, port) = (run.scenario, run.serve, run.provider, run.providerPort)
        try Self.waitForClock(first, past: 12 * Self.hour)
        let killed = try first.kill()
        let second = try ServeRun.start(scenario, providerPort: port, ports: (first.apnsPort, first.controlPort), scenarioDigest: "same")
        defer { second.stop() }
        let service = try provider.finish(within: 120)
        #expect(service.failure == nil, "\(service.failure ?? "")")
        let last = try second.finish(within: 10)
        #expect(service.restarts == 1 && service.reconnections <= 1 && service.provider.now == scenario.duration)
        let (mine, lastCounts) = Self.totals(service, last)
        let (_, killedCounts) = Self.totals(service, killed)
        #expect(killedCounts[.accepted] + lastCounts[.accepted] == mine[.accepted])
        #expect(try Self.liveJSON(service)["serveRestarts"]?.int == 1)
    }

    @Test("serve lost while the provider reads its counts at the end, and started again: the new serve's clock goes to the end before its counts are taken")
    func serveLostAtTheEnd() throws {
        let scenario = Self.scenario()
        let run = try FakedRun.start(scenario)
        defer { run.stop() }
        try run.register()
        run.fake.state.withLock { $0.holdsCounts = true }
        run.fake.state.withLock { $0.limit = scenario.duration }
        try #require(run.fake.waitUntil { $0.countsAsked == 1 }, "the provider never asked for the counts")
        run.fake.state.withLock { $0.stopped = true }
        try #require(run.fakeLoop.finished(within: 10))
        let (again, againLoop, _) = try FakeServe.start(scenario, controlPort: run.controlPort)
        again.state.withLock { $0.limit = scenario.duration }
        defer { again.state.withLock { $0.stopped = true } }
        let service = try run.provider.finish(within: 20)
        #expect(service.failure == nil, "\(service.failure ?? "")")
        // Whether the provider saw it gone or its request went to the new serve at once, it reads
        // counts from time 0, moves the clock to the end and reads them again.
        let asked = again.state.withLock { $0.countsAsked }
        #expect(again.clockMoves == [scenario.duration] && asked == 2 && again.stopped, "\(again.clockMoves), \(asked)")
        #expect(service.reconnections <= 1 && againLoop.finished(within: 10))
    }

    @Test("a serve running another scenario (its digest of the text with --set) or other topics is refused at the start, with one line naming what differs and nothing sent")
    func anotherScenarioOrTopicRefused() throws {
        let otherTopic = try ServeAndProvider.start(devices: 2, days: 2, serveTopics: ["com.example.app"])
        defer { otherTopic.stop() }
        var service = try otherTopic.provider.finish(within: 20)
        var failure = try #require(service.failure)
        #expect(failure == "serve's apps have the topics com.example.app, this provider's \(LiveHarness.topic): give both the same "
                + "--topic (APNs answers 400 DeviceTokenNotForTopic to any other)")
        #expect(service.provider.now == 0 && service.provider.lanes.allSatisfy { $0.counts == ProviderLaneCounts() })
        let otherText = try ServeAndProvider.start(devices: 2, days: 2, digests: ("0a1b", "2c3d"))
        defer { otherText.stop() }
        service = try otherText.provider.finish(within: 20)
        failure = try #require(service.failure)
        #expect(failure == "serve runs another scenario (its digest 0a1b, this provider's 2c3d): give both the same scenario "
                + "file and the same --set")
        #expect(service.provider.now == 0)
    }

    @Test("serve killed and not started again: the provider gives up after --wait, naming serve's control API")
    func serveNeverBack() throws {
        let run = try ServeAndProvider.start(devices: 2, days: 2, waitForServe: .seconds(1))
        defer { run.stop() }
        let (scenario, serve, provider) = (run.scenario, run.serve, run.provider)
        try Self.waitForClock(serve, past: 6 * Self.hour)
        _ = try serve.kill()
        let service = try provider.finish(within: 20)
        let failure = try #require(service.failure)
        #expect(failure.contains("stopped answering mid-run") && failure.contains("127.0.0.1:\(serve.controlPort)"), "\(failure)")
        #expect(service.reconnections == 0 && service.provider.now < scenario.duration)
    }

    /// A loopback port nothing listens on: bound, then closed.
    static func closedPort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                _ = bind(descriptor, pointer, length)
                return getsockname(descriptor, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
