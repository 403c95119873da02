import Testing
import X509

@Suite("Certificate times: RFC 5280's UTCTime and GeneralizedTime, the civil calendar")
struct CertificateTimeTests {
    func read(_ tag: DERTag, _ text: String) -> CertificateTime? {
        var writer = DERWriter()
        writer.element(tag, Array(text.utf8))
        var reader = DERReader(writer.bytes)
        return try? reader.time("t")
    }

    @Test("known instants: the epoch, a leap day, the UTCTime century switch, Y2038 and 9999")
    func knownInstants() {
        #expect(read(.utcTime, "700101000000Z")?.secondsSinceEpoch == 0)
        #expect(read(.utcTime, "491231235959Z")?.secondsSinceEpoch == 2_524_607_999)
        #expect(read(.utcTime, "500101000000Z")?.secondsSinceEpoch == -631_152_000)
        #expect(read(.utcTime, "240229120000Z")?.secondsSinceEpoch == 1_709_208_000)
        #expect(read(.generalizedTime, "20380119031408Z")?.secondsSinceEpoch == 2_147_483_648)
        #expect(read(.generalizedTime, "99991231235959Z")?.secondsSinceEpoch == 253_402_300_799)
        #expect(read(.generalizedTime, "20000229000000Z") != nil)
    }

    @Test("refused: no Z, a fraction, an offset, no seconds, a 30 February, 2100-02-29, hour 24, a leap second", arguments: [
        (DERTag.utcTime, "7001010000Z"), (.utcTime, "700101000000"), (.utcTime, "700101000000+0100"), (.utcTime, "700230000000Z"),
        (.utcTime, "701301000000Z"), (.utcTime, "700101240000Z"), (.utcTime, "700101000060Z"), (.utcTime, "7001010000 0Z"),
        (.generalizedTime, "20261127000000.5Z"), (.generalizedTime, "21000229000000Z"), (.generalizedTime, "2026112700000Z"),
        (.generalizedTime, "-0261127000000Z"),
    ])
    func refused(tag: DERTag, text: String) {
        #expect(read(tag, text) == nil)
    }

    @Test("every day from 1600 to 2500 goes to its civil date and back; written as RFC 5280 asks for its year")
    func civilRoundTrip() {
        let start = CertificateTime(year: 1600, month: 1, day: 1)!.secondsSinceEpoch
        let end = CertificateTime(year: 2500, month: 12, day: 31)!.secondsSinceEpoch
        var failures = 0
        for seconds in stride(from: start, through: end, by: 86_400) {
            let time = CertificateTime(secondsSinceEpoch: seconds + 3_723)
            let c = time.components
            if CertificateTime(year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute, second: c.second) != time
                || (c.hour, c.minute, c.second) != (1, 2, 3) { failures += 1 }
        }
        for year in 1600..<2500 {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let length = CertificateTime(year: year + 1, month: 1, day: 1)!.secondsSinceEpoch
                - CertificateTime(year: year, month: 1, day: 1)!.secondsSinceEpoch
            if length != (leap ? 366 : 365) * 86_400 { failures += 1 }
        }
        #expect(failures == 0)
        var writer = DERWriter()
        writer.time(CertificateTime(year: 2049, month: 12, day: 31, hour: 23, minute: 59, second: 59)!)
        writer.time(CertificateTime(year: 2050, month: 1, day: 1)!)
        writer.time(CertificateTime(year: 1949, month: 12, day: 31)!)
        #expect(writer.bytes == [0x17, 13] + Array("491231235959Z".utf8) + [0x18, 15] + Array("20500101000000Z".utf8)
            + [0x18, 15] + Array("19491231000000Z".utf8))
        #expect(CertificateTime(secondsSinceEpoch: 1_795_737_600).description == "2026-11-27T00:00:00Z")
    }
}
