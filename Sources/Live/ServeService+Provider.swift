import Base
import Transport

/// Where serve's phones call the provider (`--provider`, docs/provider-api.md).
public struct ProviderTarget: Sendable, Equatable {
    public var url: EndpointURL
    /// The longest a call waits for its answer, in wall time.
    public var timeout: Duration
    /// Where the extension reads the provider's fields in payloads.
    package var fields: ProviderFields

    package init(url: EndpointURL, timeout: Duration, fields: ProviderFields) {
        self.url = url
        self.timeout = timeout
        self.fields = fields
    }
}

extension ServeService {
    /// How long an install registration is tried again before it counts as failed.
    static let installRetryInterval = Duration.seconds(1)

    /// Sends the calls the phones made since the last time.
    /// - Complexity: O(calls).
    func sendCalls() {
        guard let provider, let outgoing else { return }
        for call in population.takeCalls() { send(call, to: provider, over: outgoing) }
    }

    private func send(_ call: ProviderCall, to provider: ProviderTarget, over outgoing: OutgoingRequests) {
        let tag = nextCallTag
        nextCallTag += 1
        callsInFlight[tag] = call
        let lane = population.lanes[Int(call.lane)]
        let body = call.body(device: lane.device, app: lane.app, topic: population.topic(ofApp: lane.app), tokens: population.tokens)
        outgoing.send(OutgoingRequest(method: "POST", path: provider.url.pathPrefix + call.path,
                                      headers: [Header("content-type", "application/json"),
                                                Header("pushsim-time", String(population.now))],
                                      body: Array(body.utf8)),
                      to: provider.url.endpoint, timeout: provider.timeout, tag: tag)
    }

    /// A call's outcome came: 2xx is taken. An install registration the provider did not take
    /// is sent again a second later while `--provider-timeout` has not passed since the start
    /// (the provider may start after serve).
    func callReturned(_ outcome: OutgoingOutcome, tag: Int) {
        guard let call = callsInFlight.removeValue(forKey: tag), let provider else { return }
        let ok = if case .response(let response) = outcome { (200..<300).contains(response.status) } else { false }
        if !ok, case .register(_, _, _, true) = call.kind, ending == nil,
           ContinuousClock.now - started + Self.installRetryInterval < provider.timeout {
            installRetries.append((ContinuousClock.now + Self.installRetryInterval, call))
            return
        }
        population.answered(call, ok: ok)
        if population.now >= population.end, population.pendingTarget == nil { stop(.endReached) }
    }

    /// Sends again the install registrations whose second has passed.
    func retryInstallRegistrations() {
        guard !installRetries.isEmpty, let provider, let outgoing else { return }
        let now = ContinuousClock.now
        let due = installRetries.filter { $0.due <= now }
        installRetries.removeAll { $0.due <= now }
        for (_, call) in due { send(call, to: provider, over: outgoing) }
    }

    /// Answers the `POST /clock` requests that waited for the provider, once the clock got there.
    func answerClockWaiters() {
        guard !clockWaiters.isEmpty, population.pendingTarget == nil, let laterAnswers else { return }
        let answer = ControlAPI.json(200, clockJSON())
        for waiter in clockWaiters { laterAnswers.answer(waiter, with: answer) }
        clockWaiters.removeAll()
    }
}
