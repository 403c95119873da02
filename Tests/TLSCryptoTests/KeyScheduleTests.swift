@testable import TLSCrypto
import TestVectors
import Testing

/// RFC 8448 §3's simple 1-RTT handshake, the server's side of the key schedule: every secret,
/// transcript hash, key, IV and verify_data the trace prints, byte for byte, from the printed
/// messages hashed as they go.
@Suite("TLS 1.3 key schedule: RFC 8448 §3")
struct KeyScheduleTests {
    @Test("HKDF-Expand-Label writes RFC 8446's HkdfLabel: the info RFC 8448 prints for \"c hs traffic\"")
    func hkdfLabel() {
        // Expand with the printed info must equal Expand-Label with the label and context.
        let secret = bytes(hex: "1dc826e93606aa6fdc0aadc12f741b01046aa6b99f691ed221a9f0ca043fbeac")
        let hash = bytes(hex: "860c06edc07858ee8e78f0e7428c58edd6b43f2ca3e6e95f02ed063cf0e1cad8")
        let info = bytes(hex: "0020 12 746c73313320632068732074726166666963 20") + hash
        #expect(HKDF.expandLabel(secret: secret, label: "c hs traffic", context: hash, byteCount: 32)
                == HKDF.expand(pseudorandomKey: secret, info: info, byteCount: 32))
    }

    @Test("early, handshake and master secrets; traffic secrets, keys, IVs and both Finished; exporter and resumption master")
    func simpleHandshake() {
        var transcript = TLSCrypto.SHA256()
        #expect(hex(KeySchedule.emptyHash) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")

        let early = KeySchedule.earlySecret()
        #expect(hex(early) == "33ad0a1c607ec03b09e6cd9893680ce210adf300aa1f2660e1b22e10f170f92a")
        #expect(hex(HKDF.deriveSecret(secret: early, label: "derived", transcriptHash: KeySchedule.emptyHash))
                == "6f2615a108c702c5678f54fc9dbab69716c076189c48250cebeac3576c3611ba")
        let handshake = KeySchedule.handshakeSecret(earlySecret: early, sharedSecret: bytes(hex: RFC8448.sharedSecret))
        #expect(hex(handshake) == "1dc826e93606aa6fdc0aadc12f741b01046aa6b99f691ed221a9f0ca043fbeac")

        transcript.update(bytes(hex: RFC8448.clientHello))
        transcript.update(bytes(hex: RFC8448.serverHello))
        let helloHash = transcript.finalize()
        #expect(hex(helloHash) == "860c06edc07858ee8e78f0e7428c58edd6b43f2ca3e6e95f02ed063cf0e1cad8")
        let handshakeTraffic = KeySchedule.handshakeTrafficSecrets(handshakeSecret: handshake, helloHash: helloHash)
        #expect(hex(handshakeTraffic.client) == "b3eddb126e067f35a780b3abf45e2d8f3b1a950738f52e9600746a0e27a55a21")
        #expect(hex(handshakeTraffic.server) == "b67b7d690cc16c4e75e54213cb2d37b4e9c912bcded9105d42befd59d391ad38")

        #expect(hex(HKDF.deriveSecret(secret: handshake, label: "derived", transcriptHash: KeySchedule.emptyHash))
                == "43de77e0c77713859a944db9db2590b53190a65b3ee2e4f12dd7a0bb7ce254b4")
        let master = KeySchedule.masterSecret(handshakeSecret: handshake)
        #expect(hex(master) == "18df06843d13a08bf2a449844c5f8a478001bc4d4c627984d5a41da8d0402919")

        let serverHandshakeKeys = TrafficKeys(secret: handshakeTraffic.server, keyByteCount: 16)
        #expect(hex(serverHandshakeKeys.key) == "3fce516009c21727d0f2e4e86ee403bc")
        #expect(hex(serverHandshakeKeys.iv.bytes) == "5d313eb2671276ee13000b30")
        let clientHandshakeKeys = TrafficKeys(secret: handshakeTraffic.client, keyByteCount: 16)
        #expect(hex(clientHandshakeKeys.key) == "dbfaa693d1762c5b666af5d950258d01")
        #expect(hex(clientHandshakeKeys.iv.bytes) == "5bd3c71b836e0b76bb73265f")

        transcript.update(bytes(hex: RFC8448.encryptedExtensions))
        transcript.update(bytes(hex: RFC8448.certificate))
        transcript.update(bytes(hex: RFC8448.certificateVerify))
        #expect(hex(KeySchedule.finishedKey(trafficSecret: handshakeTraffic.server))
                == "008d3b66f816ea559f96b537e885c31fc068bf492c652f01f288a1d8cdc19fc8")
        let serverVerifyData = KeySchedule.finishedVerifyData(trafficSecret: handshakeTraffic.server, transcriptHash: transcript.finalize())
        #expect(bytes(hex: "14000020") + serverVerifyData == bytes(hex: RFC8448.serverFinished))

        transcript.update(bytes(hex: RFC8448.serverFinished))
        let serverFinishedHash = transcript.finalize()
        #expect(hex(serverFinishedHash) == "9608102a0f1ccc6db6250b7b7e417b1a000eaada3daae4777a7686c9ff83df13")
        let application = KeySchedule.applicationTrafficSecrets(masterSecret: master, serverFinishedHash: serverFinishedHash)
        #expect(hex(application.client) == "9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5")
        #expect(hex(application.server) == "a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643")
        #expect(hex(KeySchedule.exporterMasterSecret(masterSecret: master, serverFinishedHash: serverFinishedHash))
                == "fe22f881176eda18eb8f44529e6792c50c9a3f89452f68d8ae311b4309d3cf50")
        let serverApplicationKeys = TrafficKeys(secret: application.server, keyByteCount: 16)
        #expect(hex(serverApplicationKeys.key) == "9f02283b6c9c07efc26bb9f2ac92e356")
        #expect(hex(serverApplicationKeys.iv.bytes) == "cf782b88dd83549aadf1e984")

        #expect(hex(KeySchedule.finishedKey(trafficSecret: handshakeTraffic.client))
                == "b80ad01015fb2f0bd65ff7d4da5d6bf83f84821d1f87fdc7d3c75b5a7b42d9c4")
        let clientVerifyData = KeySchedule.finishedVerifyData(trafficSecret: handshakeTraffic.client, transcriptHash: serverFinishedHash)
        #expect(ConstantTime.equals(bytes(hex: "14000020") + clientVerifyData, bytes(hex: RFC8448.clientFinished)))

        transcript.update(bytes(hex: RFC8448.clientFinished))
        let clientFinishedHash = transcript.finalize()
        #expect(hex(clientFinishedHash) == "209145a96ee8e2a122ff810047cc952684658d6049e86429426db87c54ad143d")
        let clientApplicationKeys = TrafficKeys(secret: application.client, keyByteCount: 16)
        #expect(hex(clientApplicationKeys.key) == "17422dda596ed5d9acd890e3c63f5051")
        #expect(hex(clientApplicationKeys.iv.bytes) == "5b78923dee08579033e523d9")
        #expect(hex(HKDF.deriveSecret(secret: master, label: "res master", transcriptHash: clientFinishedHash))
                == "7df235f2031d2a051287d02b0241b0bfdaf86cc856231f2d5aba46c434ec196c")
    }

    @Test("KeyUpdate's next secret is Expand-Label(secret, \"traffic upd\", \"\", 32), and differs")
    func keyUpdate() {
        let secret = bytes(hex: "a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643")
        let next = KeySchedule.nextApplicationTrafficSecret(secret)
        let info = bytes(hex: "0020 11") + Array("tls13 traffic upd".utf8) + [0]
        #expect(next == HKDF.expand(pseudorandomKey: secret, info: info, byteCount: 32))
        #expect(next != secret && next.count == 32)
    }
}
