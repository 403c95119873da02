import Testing
import Transport

/// `Server.bind`: free ports, the indices requests carry, and one-line errors.
@Suite("Binding listeners")
struct BindTests {
    @Test("port 0 binds a free port; each listener gets the next index")
    func ephemeralPorts() throws {
        let server = Server()
        let first = try server.bind(host: "127.0.0.1", port: 0, protocol: .http2PriorKnowledge)
        let second = try server.bind(host: "localhost", port: 0, protocol: .http1OrHTTP2)
        #expect(first.listener == 0 && second.listener == 1)
        #expect(first.port > 0 && second.port > 0 && first.port != second.port)
    }

    @Test("a port in use is refused in one line naming the address and the system's reason")
    func addressInUse() throws {
        let holder = Server()
        let port = try holder.bind(host: "127.0.0.1", port: 0, protocol: .http2PriorKnowledge).port
        #expect(throws: TransportError.cannotListen(address: "127.0.0.1:\(port)", reason: "Address already in use")) {
            _ = try Server().bind(host: "127.0.0.1", port: port, protocol: .http2PriorKnowledge)
        }
        let error = TransportError.cannotListen(address: "127.0.0.1:\(port)", reason: "Address already in use")
        #expect(error.description == "cannot listen on 127.0.0.1:\(port): Address already in use")
    }

    @Test("an address of no interface here, and a port out of range, are refused in one line")
    func otherRefusals() {
        #expect(throws: TransportError.cannotListen(address: "192.0.2.1:0", reason: "Cannot assign requested address")) {
            _ = try Server().bind(host: "192.0.2.1", port: 0, protocol: .http1OrHTTP2)
        }
        #expect(throws: TransportError.invalidPort(70_000)) {
            _ = try Server().bind(host: "127.0.0.1", port: 70_000, protocol: .http1OrHTTP2)
        }
        #expect(TransportError.invalidPort(70_000).description == "cannot listen on port 70000: a port is 0…65535 (0 picks a free one)")
    }

    @Test("a server bound and never run closes its listeners when released: the port is free again")
    func releasedServerFreesItsPort() throws {
        var server: Server? = Server()
        let port = try #require(server).bind(host: "127.0.0.1", port: 0, protocol: .http1OrHTTP2).port
        server = nil
        _ = try Server().bind(host: "127.0.0.1", port: port, protocol: .http1OrHTTP2)
    }
}
