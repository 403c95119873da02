import TestThreads
@testable import TLSCrypto
import Testing

/// RSA verification, PKCS#1 v1.5 and PSS (RFC 8017), against fixed vectors made once with
/// OpenSSL 3.0 (Debian's `openssl`, pasted here byte for byte):
///
///     openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:BITS -out kBITS.pem   # 2048, 3072, 4096; e = 65537
///     printf 'PushSim signs nothing; it checks.' > msg.txt
///     openssl dgst -sha256 -sign k2048.pem msg.txt                                      # PKCS#1 v1.5
///     openssl dgst -sha256 -sign k2048.pem -sigopt rsa_padding_mode:pss \
///         -sigopt rsa_pss_saltlen:32 -sigopt rsa_mgf1_md:sha256 msg.txt                 # PSS, salt = hash length
///     (and -sha384 with k3072 and salt 48, -sha512 with k4096 and salt 64; one PSS with salt 20)
///     openssl rsa -in kBITS.pem -noout -modulus
///
/// Each must verify; each with a bit flipped, under another hash, another digest, the other
/// padding, or another key must not; the salt-20 signature is refused (TLS 1.3 fixes the salt
/// to the hash's length).
@Suite("RSA verification: PKCS#1 v1.5 and PSS, 2048–4096 bits", .ownThread(.computing))
struct RSATests {
    static let message = Array("PushSim signs nothing; it checks.".utf8)
    static let e: [UInt8] = [0x01, 0x00, 0x01]

    static let modulus2048 = bytes(hex: """
            b9d1f6603813e9fac74def0cdfd24f9e4a3b1081b0bdcc1db10c50d32de454e79f79bff37597c85a10f7ebf8f8d568a2
            127c62e63429cc4939ae25074e66401cf3987b3796ac1fabd454f42ff440d0fde9e939c7abc73f5c2ee5d7289b6ffe46
            d0dd578d951718e633dba08ec2a3836fc2d6afe5f08a8e6cd945dffb2eee172d3c24e2970d153e2bcf137933c9459706
            6870126979aa2c8c71b1959bc75904af7fb1e8d40e77e1ad0049f79aaf4da5d7170b1bad30e0244e9929099f85be7526
            3b311a0cb493ce9bef604aecd16aa1f42906c2d4f27743a8d3e9c2046e64c86c1be53c535de086143efdd53c31785e1c
            e8575d5dbc9c44699e44d205a16351cf
            """)
    static let modulus3072 = bytes(hex: """
            b7084ac0cb976870e6f8de62c7e2b7c0cce7d9867f6b5fb9ac198042bb5d2c9d51d4fa6a29827f4b3bf4b7498b053ef7
            0d90ac6413e175901f5cbb5f1e6aa58471abfdddf893905352c226f0efa45505dd904ca90c0515a2b15cdc2fa33d77e3
            a7abe8d20edf7a4560db9ca35f7cf96a4672c42576d276a1b8eda9a1a9587ddbc89a435c81b0542326d0f34f55ff7426
            982dd46e37d80fa8a7b7237197beb4965657c7ceb0fc84abff51b4bbb02d0624bcf804fd3079e5c545ca86639d4bbe99
            0f5deee620b3e87dbe8ac006325a8507577661de503fa6fe2508547067f7aa376d19e3d0cb783bf878ffd95c6639c2ff
            14bf7c391da6e1507d5449a9cd7ec1c567cd872a47f98fe902476431f8b965afa67adc9add99bcd59cc6a9203e6af6f8
            6bbb943cf55b8ebd29b1d32b3ce354e54b250bfb3c745784a9e8ea44f61843b18700126f4d5028599202964d2f47b10c
            a6756bcc3eb4ede54a40a986ca5bf4f909db7d61e74d28bf5a32339cac6b12527d4bbd88ed7bea57b42c821a275695bf
            """)
    static let modulus4096 = bytes(hex: """
            b86bad796139f8aeb19a1d6fafcf2d7d6300a6bf54a2100ae2927cc499931f92de8de13cf7b71a6b53e8cd4452c1fd7a
            3935c017566f81260741bed8ed6bc1c23b2be6516dee31861ced91d929de07808840dd44d9c32e2f1b403bc1b343aa05
            51f2e9f233f7511549c762e209851b95a5e37a64e8f368e7e54dcc4e3a49fe7821cb85943df774792aec955f23b052a5
            d480791936295a18706663c28d7cdb12988aa58881a8bea4ec4a3bd0fd2f838befeb9f57d4f86959b9773e75d5aa953a
            3d315c0fbde221d69909db646ea8a3e64dc1bbe36e68f4968d9593649bb42167ecefa3635d6e3db22c1ca42a64ae953a
            1e2799a02ff1a13f72a21f2c5406593e1ad11d6f45be0f1237466dd8f18100b239efd379978df84dc9490ddf0b4afe77
            ab8703cd05ceb008614871f33cb2776dc02081bb9db58fc417eb7f6d601869c62565337e412b447a9dbb76d555aa2f40
            9faa04cfaf0aa860cbd03d1f059d01c0b21eb9a78b5d6d2b7826e15bc713787eafadc8759804feed682fd5364209e283
            43604617de79c7c2edc48a8a9498708bb58a6c3aaef55f4c77a69e20d6956b7462a8f8ee071baba56a8eaa2997909808
            2eadd3a23ca2f34637fcc29067f1b9270031b88ef4a6df47fe3fceb09866e0cc55369e459d709904546f66bbf03accd3
            f37f5e19a75dcefb02426853ff77c19af0a47281ae51b3c16e205b9eca3d6fa7
            """)
    static let pkcs1v15SHA256 = bytes(hex: """
            3102b634cbf4df305c7c89670bce76113e5b75903a6488bf7dcfd8e98582cdb31f7b5d843b5f72c2dc23411d77ce97ab
            ba719b47deefd108cf785557952d062f1b7cd28fe47cf80a12ea6228346c93dc00a5912dfd2298cca9614c51994f2618
            fc45ea0f5b619cd90793de280b65c38aedc04e56fb5130afd9eba7920ea32abf80c2eef1f608659f411742f7be2163bb
            152842cf1bdd34fddf43de3db3241afbcb6d73115f7b9d2722ff336fb2bfc0d2ae2bdc0ffb0fc048ea9c84d4f6b3b637
            b1cb26a40e7df69f9e71acaee474b82dabcd034d873211e4ed135fbb41ad10afdf1617c224b8fecf171630de083b4b84
            dbad763e36dcff571c8b6393f1d9a7d1
            """)
    static let pssSHA256 = bytes(hex: """
            5c5701f1098a4f5eeeebaa317422c6ce822c7824ac42af11bd39e4a7d09578730f84d9627594137544f90c1bcac99362
            7c154c3a451d96c8492d2e6d6d243f850c1898d8b5d42ab9fd3e37be661a8569596b33932fbe50df29b05541a9f46ee2
            099644694ad4411bd39a15f01553f22d6c4e06613544d852ebcf207f357bebc9d0462ff0117af53538dc257366bdf992
            78416fb33b93048968f29f435bae3bf457feab0d1dd0014711ebe0e1fc519727581cf1b1791b920018885725f808a70c
            d8297d5baabaf3bd57357b8e869aca48b010c68a8aeb34506cfee2e291960f92e8bcb9406bf950c506ed2650b31f7984
            d99c903d805b79ca0951cbf153b50202
            """)
    static let pssSHA256Salt20 = bytes(hex: """
            26a880f78c60a90c55f6445fc26d8beff714b04d67057c0e3ff3e8526547185b807f92947d00e1beec62e11f44c2ee22
            a1338d42df25eddc9694023cdd5ce09ebc73bd64f502c8eb8972a6dc24e7b0c9ced719f64133d6d639beb540873cddfd
            1e93797319431782b985c96ab963cb1b56ac2d002beb13805fd0f029057290783906b5d137970869554b8a90be2f5b06
            bb4d67e76ef244c67080e367f14f6a948ce2067985ef19277b83ffbd376f14dc6a0e3ccc8b85c687b2077edc6df2fca0
            c0e6f521bd7bc0af4cfa2cb9e07b0d64432fe45eedfc63d91842b7bcc3652fe10924509d997f29c679739d3ea2e4c6e5
            6464a7671358b6a9385dee8253d6fcbb
            """)
    static let pkcs1v15SHA384 = bytes(hex: """
            75ac84fa5b1648785046c117d74d3ce6826bd86da41823c580774f3272df8515ccfd0e9d6d0dac13cb4451819a892dcf
            2b6a120bcd68fef2ac6d35736336a02004c77ba1f25fc5026e5cd8822653f8bcb096892e4d14e9c81db933d6e1c0dbb8
            1a34d1f56c5df6ce33cb9321c1c895e09792a8b46fbca59dd77f8e3b56c2c2bb4856d4e3bc0028ad69c333a17f6f06b9
            93bce752a611a454264295d9a3a57d062ecf7cb45d4048f239a4fafe8ebc6f11b82a39c79748fdce98c7cf5174f262f3
            169b2f5387bb00299b798ecfc4bffc4024af346dbb4f0cfd32dc42f93efc635e63de536f007ffea62ec5bf8f887183ab
            d1250fbfcbf469c2d6549c6bd829942fe556c398e9a9c1cb6ae4dc71de1b4cb60e11c278a6fee0c99d7e2d47bc6756d4
            18cb87f88bf9355723195b9b63a4b624d520f1b2462301ae15a92a7385a27dfce9d36ac5335a5129bf86f63be29e8fb6
            877e20ba0cb03a6c9822947d19695fb9a5977e30d9d2daf45426ecd2a93771320377dd17c125ce6de74fd709e74fbaa0
            """)
    static let pssSHA384 = bytes(hex: """
            3293f6e985d25957399866f0f7f41f3e3d9489bcea4d8f5a4b1ac347a30d0e9a8568e12592056f560ab5348b68bef093
            75f4e26fe62b1a72d78ab339b7a06a456feea1d5eb6cbd286443918b403966acfd78e0f6999ae9756de057ed1396051e
            5c72155857fb2a79532b7fa6fc374a0a0e65c1964c684af70ea6f0cf0dfa34485f376c31997ae8e32561f0b0dfb8e1e6
            8e3acce59b20ad482e5ece38a607bf9c3bee6becf075a3c9a03a8bcad7a587432229133269e6693c0897e29fdc594fdf
            2b21c36827df01dd693813ef9d9c36fc30060e7192a92793567b0993dccdae4042392215f07750026a8a596f3ab8c76c
            46753073b3ca42c3a9cb469839710c7499402a577fb1394d8258fa4d7efa71427cbfdcb09c587ecae971525f82320f10
            831c078c41cc4bb90f020e81e8197d78206d58db849428bf0dd6bc8c400de6cdd8c02fa3d06d9e24c140fd37300c0a19
            65a3439e354dea8e0de219997e7754b2e97197f5ccf81a55c83707248c38179a3f5f04687f360cd592b71745cef83a15
            """)
    static let pkcs1v15SHA512 = bytes(hex: """
            abce8b24b376f4953f483c6b91640758e11dd5b82905db3df4156855fcc37cfbb9f959975abfda7bf4dc99a9cc6d08ff
            1f9f2ef4a7df40e626ea00059e5d93d9801a34bf5482c47b0b7350566c5fb7c02ff95dbacc7331f1fe4f40f49f6f12ad
            12f8b049a147cd056b4a8a2444f1a8c21fa8a0444f13b96bb375a331e3fb1c65adcff964edd2acecc092b4416d4ff914
            fc6f9ed539a40966b5669b5de39e9ef584872937cbe45589c99b9245bede076aeb58c477ccab5b9dee8bfceadb9ed44f
            eb3f151d7db3d3f51f0e2458b04c4b7055c856c6f020ac083f77a0fc7a81a9541cd87bdc601067bfa4fb263905de9a5a
            7ad1b87314779c3de5e58b9e4a431b14c9ab9d8b1797b7798ff174938ec3edf1bd31b676c3cbe2d751ce6488bd8fbdd1
            32c898d2ebb8a13359a75e995d3b5dab80b9a7d91a78abedafa95a5c5ca743c8ce9bedb77b11d69825cd98bf58a3a14e
            4c8217ba9f50e154ad9ff8296a486f80f2891967f2d0a4cedd1096f042cf90622ad386de91b6740b2052c1e863abf625
            1312ab315cd2b4119730a771a2c38de87c7d0f2399f204f8b3fc8258e37e70e6c7cbcd504e2c48940481395200b0b8ae
            8da3e979d08ebcda966bf80582d3777e19cda0703b6d2cc7312076346a88cac25673d07975dd8076388f9918272dbcb4
            1dee350c82620f1293ca965fa42de4533cf65b2fe3e7455c5e50cc6a9cf95a3f
            """)
    static let pssSHA512 = bytes(hex: """
            921d47930c052fffc489e5e46ad6aca85626a91479b5d06895a13f51193b2e0bafaa24f72c153b464d232c7dcfefc4a9
            52472baf416b4e16b3dcb8a43bbdf90b6aa49ee0493ccd62f4a711e09623a75caef840b01fa1076195baf1a0ee58bc51
            bbfbda31a2fccc98b2567fa55acdf4074558049959bba2c80c2312f03da614a432a7d37352049718074f47815d4bfccd
            fdde8c707208d02e76953a4683209c1503dcf573d4f503b0d86f051e1c05643adf8a455b9b1f40d5568367d3f5fb150e
            576d000285c91d52a9d4e45a7c43f456d5479f3f93a23471fc53ba75c1f711efc9292e094c8f72039d272acdb8ffa2d7
            1d2d2c355f1b35e54ba4f1e28b906282655e13d1e69a3b311ebe445c23d74326f01627382e25a755b6cf951860cab7a9
            89a8685db899a8775a60fd5988e5445de7e60103a0ba11c0492b3cccd051b15abb916c05c735510a3c0bc5cb01e2bb04
            41d3a34df5cf4711432c444f2380aff4c8b1bf1b74c2ff295baccce893c2adc987fa5ce0eff4ba8d02b943a5e41f1063
            da0634a013ce0d95e4cb6cd15ed3b00d1a0ed8d6f20a3e976a0b27e5c3533ad47d3b5db07a953fcb170e52d4e2681605
            faf06b82f9bc84d11da5f11cbd4e9471c8fec968ff9bca1fd4d460d1ed5a48e8c3f9913b02311133b0b90c40490749a8
            0ee0a55b068c0a3298d14a0b15c7b51fec1f57fb73ae7e855605013f9c720725
            """)

    /// One signature: the key's modulus, the padding, the hash, the bytes.
    struct Vector: Sendable, CustomTestStringConvertible {
        let modulus: [UInt8], pss: Bool, hash: RSA.Hash, signature: [UInt8]
        var testDescription: String { "\(8 * modulus.count) bits, \(pss ? "PSS" : "PKCS#1 v1.5"), \(hash)" }

        func verifies(_ signature: [UInt8], key: RSA.PublicKey, digest: [UInt8], hash: RSA.Hash) -> Bool {
            pss ? key.isValidPSSSignature(signature, digest: digest, hash: hash)
                : key.isValidPKCS1v15Signature(signature, digest: digest, hash: hash)
        }
    }

    static let vectors = [
        Vector(modulus: modulus2048, pss: false, hash: .sha256, signature: pkcs1v15SHA256),
        Vector(modulus: modulus2048, pss: true, hash: .sha256, signature: pssSHA256),
        Vector(modulus: modulus3072, pss: false, hash: .sha384, signature: pkcs1v15SHA384),
        Vector(modulus: modulus3072, pss: true, hash: .sha384, signature: pssSHA384),
        Vector(modulus: modulus4096, pss: false, hash: .sha512, signature: pkcs1v15SHA512),
        Vector(modulus: modulus4096, pss: true, hash: .sha512, signature: pssSHA512),
    ]

    @Test("OpenSSL's signature verifies; a flipped bit, another hash or digest, the other padding or another key do not",
          arguments: vectors)
    func vector(_ vector: Vector) throws {
        let key = try #require(RSA.PublicKey(modulus: vector.modulus, exponent: Self.e))
        let digest = vector.hash.hash(Self.message)
        #expect(vector.verifies(vector.signature, key: key, digest: digest, hash: vector.hash))
        for bit in [0, 7, 8 * vector.signature.count / 2, 8 * vector.signature.count - 1] {
            var flipped = vector.signature
            flipped[bit / 8] ^= 0x80 >> UInt8(bit % 8)
            #expect(!vector.verifies(flipped, key: key, digest: digest, hash: vector.hash), "bit \(bit)")
        }
        var otherDigest = digest
        otherDigest[0] ^= 1
        #expect(!vector.verifies(vector.signature, key: key, digest: otherDigest, hash: vector.hash))
        for other in RSA.Hash.allCases where other != vector.hash {
            #expect(!vector.verifies(vector.signature, key: key, digest: other.hash(Self.message), hash: other))
        }
        let otherPadding = Vector(modulus: vector.modulus, pss: !vector.pss, hash: vector.hash, signature: vector.signature)
        #expect(!otherPadding.verifies(vector.signature, key: key, digest: digest, hash: vector.hash))
        let otherKey = try #require(RSA.PublicKey(modulus: vector.modulus == Self.modulus2048 ? Self.modulus3072 : Self.modulus2048,
                                                  exponent: Self.e))
        #expect(!vector.verifies(vector.signature, key: otherKey, digest: digest, hash: vector.hash))
        // A digest of the wrong length, a signature cut, lengthened or not below n.
        #expect(!vector.verifies(vector.signature, key: key, digest: Array(digest.dropLast()), hash: vector.hash))
        #expect(!vector.verifies(Array(vector.signature.dropFirst()), key: key, digest: digest, hash: vector.hash))
        #expect(!vector.verifies([0] + vector.signature, key: key, digest: digest, hash: vector.hash))
        #expect(!vector.verifies(key.modulus, key: key, digest: digest, hash: vector.hash))
        #expect(!vector.verifies([UInt8](repeating: 0xFF, count: key.modulus.count), key: key, digest: digest, hash: vector.hash))
    }

    /// Wycheproof's rsa_pss_2048_sha256_mgf1_32_test.json (C2SP/wycheproof, version 0.8r12): the
    /// group's key, tcId 1 (the empty message) and tcId 3 ("Test"), both valid.
    static let wycheproofModulus = bytes(hex: """
            a2b451a07d0aa5f96e455671513550514a8a5b462ebef717094fa1fee82224e637f9746d3f7cafd31878d80325b6ef5a
            1700f65903b469429e89d6eac8845097b5ab393189db92512ed8a7711a1253facd20f79c15e8247f3d3e42e46e48c98e
            254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed81299615d9814c22da610428e09c7d9658594266f5c0
            21d0fceca08d945a12be82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0f1126422f590975a19
            69816f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c4e5ac0f7c1a45d12569a62807d3b9a02e5a530e77306
            6f453d1f5b4c2e9cf7820283f742b9d5
            """)

    @Test("Wycheproof rsa_pss_2048_sha256_mgf1_32: tcId 1 and 3 verify, and each fails for the other's message", arguments: [
        ("", """
        4f01e0c12b08625ecac89a69231906edf826380f37c959a96690d046316d68ffce9d5c471694fcebfc6b455348646892
        56e4fc81c78e583f675d0c94b449647451e81beff01a11a516d5e5ce3f1a910437cb8a3a5096b19fb15f4524a35b23d8
        9cdba12cf5b71aac1047b28c562df7c5542c34ce23a182cf7e0e231934b17294799d44877a1d68ef1b8f073619b7618e
        6b7c22db20030d98cf591ffc3d4da5f58613ecd5ecfc3b40a1d02f40891ca43695cd4c088b05a8054c89c595a47e2748
        16f35384226f74459ee63e25a1bfc03c360490552ec38343f8ace502f065303b00bc0ec320711b211fde92e57feb9013
        c3609342495ec0d7cabdec21e54acc38
        """),
        ("54657374", """
        401eb03cdb47ca88033e3030f6bdecbac8f5c8fc1dd6a13d23d379ed9a2b309891d13d74fea9d21d159b9e6d8f37efa2
        489962e24555f56dd434ff1d31ce4f9f5abd3f22cbea8b691d6a11e44efb83e2bca155e6a164325e0fde2a8865afd5c9
        f51161a9d615f62af7ec2e31b3e5ab649c164490d31d88cfae35b84aea7925690f929a144b6d2f48e8fb894a52deecd1
        b9a6496990c4ecf1588699a42cacd10c53af350514e4291ea9a058e77f101e32c1c0cefa61d945f7bc931f8bd19e7ba3
        169358a60e5a8b0123bc3199b9fdcafe8e519c41ba675491a27b85e44ef2d77277c10fe107293c8290186913bc9a99b6
        40d8da041b64f31eab1d35920985f4a5
        """),
    ])
    func wycheproofPSS(message: String, signature: String) throws {
        let key = try #require(RSA.PublicKey(modulus: Self.wycheproofModulus, exponent: Self.e))
        let digest = SHA256.hash(bytes(hex: message)), other = SHA256.hash(bytes(hex: message.isEmpty ? "54657374" : ""))
        #expect(key.isValidPSSSignature(bytes(hex: signature), digest: digest, hash: .sha256))
        #expect(!key.isValidPSSSignature(bytes(hex: signature), digest: other, hash: .sha256))
        #expect(!key.isValidPKCS1v15Signature(bytes(hex: signature), digest: digest, hash: .sha256))
    }

    @Test("PSS with a salt shorter than the hash (20 bytes) is refused: TLS 1.3 fixes the salt to the hash's length")
    func otherSaltLength() throws {
        let key = try #require(RSA.PublicKey(modulus: Self.modulus2048, exponent: Self.e))
        #expect(!key.isValidPSSSignature(Self.pssSHA256Salt20, digest: SHA256.hash(Self.message), hash: .sha256))
    }

    @Test("keys: 2048–4096-bit odd moduli with an odd exponent from 3 below n; leading zeros dropped; the rest refused")
    func keys() throws {
        let key = try #require(RSA.PublicKey(modulus: [0, 0] + Self.modulus2048, exponent: [0] + Self.e))
        #expect(key.modulus == Self.modulus2048 && key.exponent == Self.e && key.modulusBitCount == 2048)
        #expect(RSA.PublicKey(modulus: Self.modulus4096, exponent: [3])?.modulusBitCount == 4096)
        #expect(RSA.PublicKey(modulus: Self.modulus2048, exponent: [3]) != key)
        var even = Self.modulus2048
        even[even.count - 1] &= 0xFE
        let short = Array(Self.modulus2048.dropFirst()), long = [1] + Self.modulus4096
        for (modulus, exponent) in [(even, Self.e), (short, Self.e), (long, Self.e), ([], Self.e), (Self.modulus2048, [1]),
                                    (Self.modulus2048, [2]), (Self.modulus2048, [0x01, 0x00, 0x00]), (Self.modulus2048, []),
                                    (Self.modulus2048, Self.modulus2048), (Self.modulus2048, [0xFF] + Self.modulus2048)] {
            #expect(RSA.PublicKey(modulus: modulus, exponent: exponent) == nil)
        }
    }

    @Test("the Montgomery arithmetic: (n − 1)² = 1 and 2¹⁰ by exponentiation, modulo a 2048-bit n")
    func arithmetic() throws {
        let key = try #require(RSA.PublicKey(modulus: Self.modulus2048, exponent: Self.e))
        let n = key.arithmetic.limbs
        var one = [UInt64](repeating: 0, count: n.count)
        one[0] = 1
        let minusOne = MontgomeryModulus.subtract(n, one)
        #expect(key.arithmetic.power(minusOne, exponent: [2]) == one)
        var two = [UInt64](repeating: 0, count: n.count)
        two[0] = 2
        var expected = [UInt64](repeating: 0, count: n.count)
        expected[0] = 1024
        #expect(key.arithmetic.power(two, exponent: [10]) == expected)
        #expect(key.arithmetic.power(two, exponent: [0, 0, 10]) == expected)
    }
}
