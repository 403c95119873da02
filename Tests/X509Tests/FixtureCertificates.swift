import X509

/// Certificates made by openssl (OpenSSL 3.0, Debian) on 2026-11-27 with the commands below,
/// pasted as they came: a real peer's bytes for the parser and the verifier. Their
/// validity starts 2026-11-27T08:10:48Z–08:11:00Z; tests verify at `FixtureCertificates.now`.
///
/// ```sh
/// set -e
/// # EC: a P-256 root, a server leaf (SAN DNS and IP, serverAuth), a client with UID.
/// openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out ec-ca.key
/// openssl req -x509 -new -key ec-ca.key -sha256 -days 3650 -subj "/C=US/O=PushSim Test/CN=PushSim Test EC Root" \
///   -addext "basicConstraints=critical,CA:TRUE,pathlen:1" -addext "keyUsage=critical,keyCertSign,cRLSign" -out ec-ca.pem
/// openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out ec-leaf.key
/// openssl req -new -key ec-leaf.key -subj "/CN=api.push.apple.com" -out ec-leaf.csr
/// printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:api.push.apple.com,DNS:localhost,IP:127.0.0.1,IP:::1\n' > ec-leaf.ext
/// openssl x509 -req -in ec-leaf.csr -CA ec-ca.pem -CAkey ec-ca.key -set_serial 0x0102030405060708090a -days 825 -sha256 -extfile ec-leaf.ext -out ec-leaf.pem
/// # A certificate signed by the leaf (not a CA).
/// openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out ec-under-leaf.key
/// openssl req -new -key ec-under-leaf.key -subj "/CN=under a leaf" -out ec-under-leaf.csr
/// openssl x509 -req -in ec-under-leaf.csr -CA ec-leaf.pem -CAkey ec-leaf.key -set_serial 7 -days 365 -sha256 -out ec-under-leaf.pem
/// # RSA-2048: root, intermediate (pathlen 0), server leaf sha256; a client with UID (Apple's shape), PSS-signed leaf.
/// openssl genrsa -out rsa2048-root.key 2048
/// openssl req -x509 -new -key rsa2048-root.key -sha256 -days 3650 -subj "/C=US/O=PushSim Test/OU=Roots/CN=PushSim Test RSA 2048 Root" \
///   -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out rsa2048-root.pem
/// openssl genrsa -out rsa2048-int.key 2048
/// openssl req -new -key rsa2048-int.key -subj "/C=US/O=PushSim Test/CN=PushSim Test RSA 2048 Intermediate" -out rsa2048-int.csr
/// printf 'basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n' > ca.ext
/// openssl x509 -req -in rsa2048-int.csr -CA rsa2048-root.pem -CAkey rsa2048-root.key -set_serial 2 -days 3000 -sha256 -extfile ca.ext -out rsa2048-int.pem
/// openssl genrsa -out rsa2048-leaf.key 2048
/// openssl req -new -key rsa2048-leaf.key -subj "/CN=localhost" -out rsa2048-leaf.csr
/// printf 'keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=DNS:localhost\n' > rsa-leaf.ext
/// openssl x509 -req -in rsa2048-leaf.csr -CA rsa2048-int.pem -CAkey rsa2048-int.key -set_serial 3 -days 800 -sha256 -extfile rsa-leaf.ext -out rsa2048-leaf.pem
/// openssl genrsa -out client.key 2048
/// openssl req -new -key client.key -subj "/UID=com.example.mail/CN=Apple Push Services: com.example.mail/OU=TEAM123456/O=Example Inc./C=US" -out client.csr
/// printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n' > client.ext
/// openssl x509 -req -in client.csr -CA rsa2048-int.pem -CAkey rsa2048-int.key -set_serial 0x7fffffffffffffff01 -days 395 -sha256 -extfile client.ext -out client.pem
/// openssl x509 -req -in rsa2048-leaf.csr -CA rsa2048-root.pem -CAkey rsa2048-root.key -set_serial 4 -days 800 -sha256 \
///   -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest -extfile rsa-leaf.ext -out rsa-pss-leaf.pem
/// # RSA-4096: root signed sha512, leaf signed sha384.
/// openssl genrsa -out rsa4096-root.key 4096
/// openssl req -x509 -new -key rsa4096-root.key -sha512 -days 3650 -subj "/CN=PushSim Test RSA 4096 Root" \
///   -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" -out rsa4096-root.pem
/// openssl x509 -req -in rsa2048-leaf.csr -CA rsa4096-root.pem -CAkey rsa4096-root.key -set_serial 5 -days 800 -sha384 -extfile rsa-leaf.ext -out rsa4096-leaf.pem
/// ```
enum FixtureCertificates {
    /// A day after they were made: every fixture is valid then.
    static let now = CertificateTime(year: 2026, month: 11, day: 28)!

    /// ec-ca.pem
    static let ecRoot = """
        -----BEGIN CERTIFICATE-----
        MIIB7jCCAZSgAwIBAgIUDED8d5qPx1p9Lysp4q6qhs8aMcUwCgYIKoZIzj0EAwIw
        QzELMAkGA1UEBhMCVVMxFTATBgNVBAoMDFB1c2hTaW0gVGVzdDEdMBsGA1UEAwwU
        UHVzaFNpbSBUZXN0IEVDIFJvb3QwHhcNMjYxMTI3MDgxMDQ4WhcNMzYxMTI0MDgx
        MDQ4WjBDMQswCQYDVQQGEwJVUzEVMBMGA1UECgwMUHVzaFNpbSBUZXN0MR0wGwYD
        VQQDDBRQdXNoU2ltIFRlc3QgRUMgUm9vdDBZMBMGByqGSM49AgEGCCqGSM49AwEH
        A0IABGYPD+gMgpGq5g1Ie8KsAOh9T2R/0PwPNT4ctcnV4JE31warMGFWklOPREI8
        Z/sPi5zRxCpEy1zRvL3EtJ5Eu+2jZjBkMB0GA1UdDgQWBBS18GU5/svnPsleZyHI
        1sYAOGaqcjAfBgNVHSMEGDAWgBS18GU5/svnPsleZyHI1sYAOGaqcjASBgNVHRMB
        Af8ECDAGAQH/AgEBMA4GA1UdDwEB/wQEAwIBBjAKBggqhkjOPQQDAgNIADBFAiEA
        wHxH6FlkJ67nWDQdZnkh9Ros4Hzx4gnX/7xvyKhFnpwCIArjrJ4RDdBPpMN1hcGg
        gz6udLYoVNfnF+JFbv/3oQpZ
        -----END CERTIFICATE-----
        """

    /// ec-leaf.pem
    static let ecLeaf = """
        -----BEGIN CERTIFICATE-----
        MIICEjCCAbegAwIBAgIKAQIDBAUGBwgJCjAKBggqhkjOPQQDAjBDMQswCQYDVQQG
        EwJVUzEVMBMGA1UECgwMUHVzaFNpbSBUZXN0MR0wGwYDVQQDDBRQdXNoU2ltIFRl
        c3QgRUMgUm9vdDAeFw0yNjExMjcwODEwNDhaFw0yOTAzMDEwODEwNDhaMB0xGzAZ
        BgNVBAMMEmFwaS5wdXNoLmFwcGxlLmNvbTBZMBMGByqGSM49AgEGCCqGSM49AwEH
        A0IABC+fW4yCiBxZ2k8VVvBSrBa1bLjaOgaT58xZw/4cSN8OZ+cSBjsV48JkJmW8
        Q5hGTIgrZ7Zkjy+3dksXWLwRBL+jgbgwgbUwDAYDVR0TAQH/BAIwADAOBgNVHQ8B
        Af8EBAMCB4AwEwYDVR0lBAwwCgYIKwYBBQUHAwEwQAYDVR0RBDkwN4ISYXBpLnB1
        c2guYXBwbGUuY29tgglsb2NhbGhvc3SHBH8AAAGHEAAAAAAAAAAAAAAAAAAAAAEw
        HQYDVR0OBBYEFDgNlzu0WKQBOlgpRNJAN+UFBsw9MB8GA1UdIwQYMBaAFLXwZTn+
        y+c+yV5nIcjWxgA4ZqpyMAoGCCqGSM49BAMCA0kAMEYCIQDBLt6CaNiOqqpZ6Nhn
        5s3u2c7Pi1VVHG0Yh3OaDvcwjwIhAPKjE8O5+ezCMhymlo6MuitzPYNMjuj18zlV
        acUSuF+0
        -----END CERTIFICATE-----
        """

    /// ec-under-leaf.pem
    static let underLeaf = """
        -----BEGIN CERTIFICATE-----
        MIIBGjCBwgIBBzAKBggqhkjOPQQDAjAdMRswGQYDVQQDDBJhcGkucHVzaC5hcHBs
        ZS5jb20wHhcNMjYxMTI3MDgxMDQ5WhcNMjcxMTI3MDgxMDQ5WjAXMRUwEwYDVQQD
        DAx1bmRlciBhIGxlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQJOqrS52ki
        sZGLl5D6v0lLhnHj1emaeNmg8jWxpsssPwA/Aw16CmK7GGAF46CuGIizIUcgA2n5
        cIjiJPUa5BqBMAoGCCqGSM49BAMCA0cAMEQCIHA5XCuTz1tp1TFLK0gElR1umgHw
        VB3q4ra5ftHOpf5TAiB7lXuQ+QYQ4aq/L0PoLyOZXOW8fD6nbkdm+bi48cp3Jg==
        -----END CERTIFICATE-----
        """

    /// rsa2048-root.pem
    static let rsa2048Root = """
        -----BEGIN CERTIFICATE-----
        MIIDozCCAougAwIBAgIUF4Yh4u8qGQAOEymyVG6g7BT8CD0wDQYJKoZIhvcNAQEL
        BQAwWTELMAkGA1UEBhMCVVMxFTATBgNVBAoMDFB1c2hTaW0gVGVzdDEOMAwGA1UE
        CwwFUm9vdHMxIzAhBgNVBAMMGlB1c2hTaW0gVGVzdCBSU0EgMjA0OCBSb290MB4X
        DTI2MTEyNzA4MTA1MFoXDTM2MTEyNDA4MTA1MFowWTELMAkGA1UEBhMCVVMxFTAT
        BgNVBAoMDFB1c2hTaW0gVGVzdDEOMAwGA1UECwwFUm9vdHMxIzAhBgNVBAMMGlB1
        c2hTaW0gVGVzdCBSU0EgMjA0OCBSb290MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A
        MIIBCgKCAQEAsSQoZO48T2ZRTJpFVPgr4xYyiCP1ZaCDNclEeUPiFGL9yyzIhLCr
        +AcGY2ghZ5enu23pIfRYLiFsmEuDwe/YOnTLBwu6WSLBJuGS6izE+43OXkQUCneH
        YwvbX7NG+gFlo0Ex4ZaogK4ZLcQd38ndI6odvHOphJTPdElSRONWevtGTFRm1PIt
        O/3/zPynp/qkm3i6wUD5TsIwUeEyO2lN5FTIU/vHO4yn1qC6N2whv2w9ZMuyxBCQ
        1757UiyvpetLFWzW8MQuA1gQXVoS1YG5mXR/qfYkGSWYkHSerCppW3n2URsMYVNN
        NrDNhcV3ZQUvvcIJykEmeDKs1yIDiXBucQIDAQABo2MwYTAdBgNVHQ4EFgQUE2hC
        4/ZisqDTDuYIoM+nhOZXIV0wHwYDVR0jBBgwFoAUE2hC4/ZisqDTDuYIoM+nhOZX
        IV0wDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAQYwDQYJKoZIhvcNAQEL
        BQADggEBADeR+PNtsTNwV3jtxGE0M16pYMQ2cFx2/qc+WjVdDpx505bZuJe5s7CR
        GYOx3NKvGDaf3wfuTwOMkIpuDVkv1Mstycf0e7cLJlE1ow3rFmxyDmHyIkRykv6S
        VwBIZg/cjBEPJRHy119RPePfZiq2QlLwes3M8hRSRi4UwrbEkqeFLrcaI6k12fm+
        4h7LqjiW23XN6SXZhSI6UrO63GU4jV6cKJvXN+nVQ5zWR0AQredK5FlURAt6CgVz
        JQ5j+a+ZVTfBpukXPHaFX6KlYvx1CuU+mXxlbk3aDKwimX99Kftc5DgMqDo7X2zV
        uBfTaUwpD3TMtXINxwpKunzkb5/2rWw=
        -----END CERTIFICATE-----
        """

    /// rsa2048-int.pem
    static let rsa2048Intermediate = """
        -----BEGIN CERTIFICATE-----
        MIIDizCCAnOgAwIBAgIBAjANBgkqhkiG9w0BAQsFADBZMQswCQYDVQQGEwJVUzEV
        MBMGA1UECgwMUHVzaFNpbSBUZXN0MQ4wDAYDVQQLDAVSb290czEjMCEGA1UEAwwa
        UHVzaFNpbSBUZXN0IFJTQSAyMDQ4IFJvb3QwHhcNMjYxMTI3MDgxMDUxWhcNMzUw
        MjEzMDgxMDUxWjBRMQswCQYDVQQGEwJVUzEVMBMGA1UECgwMUHVzaFNpbSBUZXN0
        MSswKQYDVQQDDCJQdXNoU2ltIFRlc3QgUlNBIDIwNDggSW50ZXJtZWRpYXRlMIIB
        IjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAkaF35XJyN1aZXOq0L5JGdBb1
        Ep1IqG/v9FXvGdu2ZfP4KDWfUlhd6Q1uBjlYvE2a1fHunPAG1UwxH0gPmj+6wTlF
        KLTFNkjfQxARX551oWUMsWDXuczM4qfRsq9w3nP6FBQXyVR7I/UgrtUq3UPinkPw
        V/U5qy0X5nripq3gwVfyAVnTJUfvFVTxieVfBfK8skLbbTnRQuKB1HMGLhKP34ar
        6A2FZUVVmQDEXbgecIHoUzVuX3CvR4oKfNDjeZCagdHF3ej9nJ3j08VET3OnaeIH
        o5f3SGW6g5s3LRQSRR8VZ2rNx63rEHrIfs6DarZ3vECbeWAd4xmDvQhHIC4HPQID
        AQABo2YwZDASBgNVHRMBAf8ECDAGAQH/AgEAMA4GA1UdDwEB/wQEAwIBBjAdBgNV
        HQ4EFgQUOpqW9h3UxkDu/PGLzMQNQAryPwkwHwYDVR0jBBgwFoAUE2hC4/ZisqDT
        DuYIoM+nhOZXIV0wDQYJKoZIhvcNAQELBQADggEBADqlsjCkUKQ/6utOnqZ5xtBb
        YmYpmgDvS9giVsqgi2pZSK+UZFEsisNUlXujwFIyPMPlBFYexfRH8vXnEZk4Omi8
        h/MQgZWE+mLdYK+Ov6t2Y4/Uixp//u6+ODON4PloEYzImISabKTRm+x+UExH3SzJ
        Rhr/tX5DCslK34dG0hC7EMUPeaGda0Dif1ohGeT4ZtyZ/KO0x3r9o7Ksl+nTBWmJ
        Arxz9R5GDXf5ezaL+brMkVKBggAp3pl/u5xs+pfTnZkTxfhiJvaKVXKvXXxddRbM
        Wi2Gzz+ZlFF4NQoegV0eT4FGBoNsM69u80h+ON6UOqZp0cNeXvN37IiO4gbhZdo=
        -----END CERTIFICATE-----
        """

    /// rsa2048-leaf.pem
    static let rsa2048Leaf = """
        -----BEGIN CERTIFICATE-----
        MIIDaTCCAlGgAwIBAgIBAzANBgkqhkiG9w0BAQsFADBRMQswCQYDVQQGEwJVUzEV
        MBMGA1UECgwMUHVzaFNpbSBUZXN0MSswKQYDVQQDDCJQdXNoU2ltIFRlc3QgUlNB
        IDIwNDggSW50ZXJtZWRpYXRlMB4XDTI2MTEyNzA4MTA1MloXDTI5MDIwNDA4MTA1
        MlowFDESMBAGA1UEAwwJbG9jYWxob3N0MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A
        MIIBCgKCAQEAtI2D8oLpUPdZ8JMfz0Bek0n/c3Q0/94Y6+VfqKKicUGHImWAB6tb
        RLHmepz62PPMNGn5hmabV5f/5c1kvNsyQ/G1wvNR+aKeVMIOYNTkW5URgywkIFbD
        SZFvwgnnmljNf6WJziL4TdCbtV83WYR27ZRUntM4Egj3AWP+na7qXYYTwIsAp8ej
        qwzJbDRO8ySlxQHvauXhkgnydt9mh96HCZjDwB3A22fcEk9VR2gZiJ2+rfPAzK8I
        MSDJjrzor3ehWA9lfEK0x3lp5jtWlhHCetlcBs+54EZR9GkqMjtY1s8sW+I8YD4J
        usEcm+Y/aZjv4/2qZDnhp8MSxgIF3jQDpQIDAQABo4GIMIGFMA4GA1UdDwEB/wQE
        AwIFoDAdBgNVHSUEFjAUBggrBgEFBQcDAQYIKwYBBQUHAwIwFAYDVR0RBA0wC4IJ
        bG9jYWxob3N0MB0GA1UdDgQWBBQaUtwx60r3H5xcf+h/f+95gWdw9TAfBgNVHSME
        GDAWgBQ6mpb2HdTGQO788YvMxA1ACvI/CTANBgkqhkiG9w0BAQsFAAOCAQEASoZn
        o9ZKrN2lR9SE/oOSlEAU05NnPadUoVhDp50FrvvPeVR1OjideA8q3aEWLx0AeKbc
        Dc6fQ2Q7a2O+wYKtfrAazbtgs3wIGvotIdmaXdNuPm4QMahqHUI5s+cGauaIonjy
        R8vwL3yeqN+B79quhBycdoC7xdfPRE12KFHjKB5MIaBxFyTJk7wPEwgbz+Am30aH
        kKkXbq32GmysZtRGeOxOVarfXxE08WExuIjwc+R5lkmAidwJIbnhzIwz3tUEFBeS
        DTuH8EgIPcf5EYnFtOExA1mI6YdCUGzek8t/tmM95/+ypXrVSCJ4Hxq2P1P9o2T8
        hcw/5XqVrpmFteGX4w==
        -----END CERTIFICATE-----
        """

    /// client.pem
    static let apnsClient = """
        -----BEGIN CERTIFICATE-----
        MIID1TCCAr2gAwIBAgIJf/////////8BMA0GCSqGSIb3DQEBCwUAMFExCzAJBgNV
        BAYTAlVTMRUwEwYDVQQKDAxQdXNoU2ltIFRlc3QxKzApBgNVBAMMIlB1c2hTaW0g
        VGVzdCBSU0EgMjA0OCBJbnRlcm1lZGlhdGUwHhcNMjYxMTI3MDgxMDUzWhcNMjcx
        MjI3MDgxMDUzWjCBizEgMB4GCgmSJomT8ixkAQEMEGNvbS5leGFtcGxlLm1haWwx
        LjAsBgNVBAMMJUFwcGxlIFB1c2ggU2VydmljZXM6IGNvbS5leGFtcGxlLm1haWwx
        EzARBgNVBAsMClRFQU0xMjM0NTYxFTATBgNVBAoMDEV4YW1wbGUgSW5jLjELMAkG
        A1UEBhMCVVMwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQCf4FJnQvGp
        nvrNZkDss/6GU9hfs76pNeN4IaVBuSEZ4k/Z5KUNVy2DkUluJjrHyEaExYO+mTY4
        kfPhrmpzZ1STvhXwtZ5Jv1/6PDemWxEMC9IamGd7P0ioDjZLnHMKYGX8kVrXmZK6
        P0CiKBdTadDCqC2zYcg/dvY1YEvQfPdREWZjMQbIq3mLmlj8diAe+HnC3uZ0e5vl
        tr8K6EbyVHcd4hBQcjrLE9iE0Wxv8pLBTeGP/lDcWbLFfuIlRu2LYoimxMhj5YCU
        cfBQagifFkruAC4TLiLQ5J4kP8vQey/akXKg5JBQpfTR4LZr0VA/8SDgN2B71MPV
        5owvICZ1wrBRAgMBAAGjdTBzMAwGA1UdEwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeA
        MBMGA1UdJQQMMAoGCCsGAQUFBwMCMB0GA1UdDgQWBBTB1sFd0SU0AJvkrUpVEkE9
        Um6l4jAfBgNVHSMEGDAWgBQ6mpb2HdTGQO788YvMxA1ACvI/CTANBgkqhkiG9w0B
        AQsFAAOCAQEAhfBvtjvTAnXeG/Q9V3bUKYwbzDMNbltkc27rF7aZWM0AxSktZzF0
        zB2Q/fxx+OLu0XsrP678dkHw/wEnCl1rxTzPBgovNtYZZ33mP04W1NEg4+oEa9ds
        F+j9xqPEEBSvUvUqiwmuFzek65umMzZj8odcegnvp+uXbicO7WhU5ChndeL47X0/
        vRT5R07AGBr022CSyQnWp7wq8YtEG2WIXiFUC9jhFUmLB5lLILCY6YaBf8pKehQK
        uDl5BRqIrOYYqDDMYy342Ti4uXjN4sk6Ug9nkAJveysdMN5LbXqPxmGjIjSNv9hp
        ABaO1aiIYIGb/Z+rpAkFaqvcC63uKfurXQ==
        -----END CERTIFICATE-----
        """

    /// rsa-pss-leaf.pem
    static let pssLeaf = """
        -----BEGIN CERTIFICATE-----
        MIID2TCCAo2gAwIBAgIBBDBBBgkqhkiG9w0BAQowNKAPMA0GCWCGSAFlAwQCAQUA
        oRwwGgYJKoZIhvcNAQEIMA0GCWCGSAFlAwQCAQUAogMCASAwWTELMAkGA1UEBhMC
        VVMxFTATBgNVBAoMDFB1c2hTaW0gVGVzdDEOMAwGA1UECwwFUm9vdHMxIzAhBgNV
        BAMMGlB1c2hTaW0gVGVzdCBSU0EgMjA0OCBSb290MB4XDTI2MTEyNzA4MTA1NFoX
        DTI5MDIwNDA4MTA1NFowFDESMBAGA1UEAwwJbG9jYWxob3N0MIIBIjANBgkqhkiG
        9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtI2D8oLpUPdZ8JMfz0Bek0n/c3Q0/94Y6+Vf
        qKKicUGHImWAB6tbRLHmepz62PPMNGn5hmabV5f/5c1kvNsyQ/G1wvNR+aKeVMIO
        YNTkW5URgywkIFbDSZFvwgnnmljNf6WJziL4TdCbtV83WYR27ZRUntM4Egj3AWP+
        na7qXYYTwIsAp8ejqwzJbDRO8ySlxQHvauXhkgnydt9mh96HCZjDwB3A22fcEk9V
        R2gZiJ2+rfPAzK8IMSDJjrzor3ehWA9lfEK0x3lp5jtWlhHCetlcBs+54EZR9Gkq
        MjtY1s8sW+I8YD4JusEcm+Y/aZjv4/2qZDnhp8MSxgIF3jQDpQIDAQABo4GIMIGF
        MA4GA1UdDwEB/wQEAwIFoDAdBgNVHSUEFjAUBggrBgEFBQcDAQYIKwYBBQUHAwIw
        FAYDVR0RBA0wC4IJbG9jYWxob3N0MB0GA1UdDgQWBBQaUtwx60r3H5xcf+h/f+95
        gWdw9TAfBgNVHSMEGDAWgBQTaELj9mKyoNMO5gigz6eE5lchXTBBBgkqhkiG9w0B
        AQowNKAPMA0GCWCGSAFlAwQCAQUAoRwwGgYJKoZIhvcNAQEIMA0GCWCGSAFlAwQC
        AQUAogMCASADggEBAKjfpdrMjTwL5h8GAZQbAeyrqSY1W8GaxI4FZffxZI8cF3FN
        JG+nh7//MWrzuXEk0oC9tSUvICfzrNrn3yMyK5GSFHnRsOlO/jphHLebuyT6mpxu
        rrk7xBQsPhAEEtH4d1jk+37gyvhbIOrd+d9JjZLVAP/+OS7IQl+9oNK7khejDraD
        WO+vGEi3+NN0+mh8z2xwADXXKArCfLgyJv467I7UL19pUBQzfv+1lAMD9YkdAEZi
        I8RQmz9tX2M0kCFzLun8ElmZenDohhFQRG4rgmD1vdt//Nez2DhinRKdSdTA5N+V
        0/HKx6gw7NkZjUHl/0vP0S+RP7c3jqeQweVD0WI=
        -----END CERTIFICATE-----
        """

    /// rsa4096-root.pem
    static let rsa4096Root = """
        -----BEGIN CERTIFICATE-----
        MIIFOzCCAyOgAwIBAgIUatZ+rW6d4I7euqLxzheX/uysLrQwDQYJKoZIhvcNAQEN
        BQAwJTEjMCEGA1UEAwwaUHVzaFNpbSBUZXN0IFJTQSA0MDk2IFJvb3QwHhcNMjYx
        MTI3MDgxMTAwWhcNMzYxMTI0MDgxMTAwWjAlMSMwIQYDVQQDDBpQdXNoU2ltIFRl
        c3QgUlNBIDQwOTYgUm9vdDCCAiIwDQYJKoZIhvcNAQEBBQADggIPADCCAgoCggIB
        AMEDdwbvVjFZ4NiJ0hMgLbCNklEGPudDOdLgdd+H3nsoi0mELiljD6bjxvujAlCR
        3cOPPqWcHVSsLK6G2AeiWoR+9Twvcr6bGZ4TNSlHVZlqlF/Cp4KzaMgHGrAw2zML
        GEd+NQ5uclIyMipKlULrCk3VAFLAhCiLMjn0a+BCSwZeSh4O8KezPJnySOXkMks0
        17RzYBtj3GFO0av2CKGMCYhi8GN5VAJjbSgswYjxaUnbXlCzFXjrDD6mIuP9kKSw
        mEHibo//7MIE/qPrHLI9/KknPc9Yh+FPGwCxmADiVD8e0qHl1dcQ0g3cuV6T9gui
        eJjFTDnI+J6fQxQEfzysYS5xKK2r5M6i7Vl7AxrEBJAeHIzXXshuBIqlngleGvdz
        NHYKvO0td7K7XMnp836GTS857YhAiQ+w6iFbqU1lycRDAlFVg87iQ++WsNdP6HSC
        0iRBVxQdxBupgLv3dQEhArdhONuS8sHh/Af5LPn218pAY54TBymY+8kLQlI1JxR3
        SzE6/SxAyOYXHKc2Xqs7TbwS3nlH6aBJ9QbKs0BFK6W20MbDKw1OW1OgWSdR/GA5
        JYtlWhQpUUMeJ3HoY96RGJhvjv9ITUXkJ2PPfevFd/JauUxz9Vf7l3ImXyb9Gwri
        wDE/iRt/x3tm+FUiShmgYjmMh6wFPsRewJYtSyuQucrxAgMBAAGjYzBhMB0GA1Ud
        DgQWBBQgW6EWBZ33iaSttFpzA19w1TzgnTAfBgNVHSMEGDAWgBQgW6EWBZ33iaSt
        tFpzA19w1TzgnTAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwICBDANBgkq
        hkiG9w0BAQ0FAAOCAgEASqeSQnjqwXuIAIJpNHK/KHRqwt5y+NiAPfTx7CuEKZ8L
        5bkMxpkQLC4j7HaLi+yMVIWrGexVVUwFKBC3QTX0KSP/VowFtcPyh3lplb10pc+c
        UKeV+mVqs3yjARqKTHR5Aau3z8EVPwad+G0ECZ5NJvdqJ0ObQrJcEkyKpETWwE7O
        ZqWhxrNgtZ1oCD9yoMswfg+Bjrs7QX12E0k18DaSrnP7jpOk4UUjq+e5Ekc7tsi6
        XGw8av/2VkI2D3U+pEtoQoAqqb8z3wFIMu49v4S9D+nS9gpMYMETojY/G+asZNQK
        QU0u8f/6X3fTMv1P8fvSykj6V26+eSDywKGE6X8LdROD6rjElPeBgXY11t1DTJ/w
        jxE5lwux9x7grLxU33UScq8zKBt5vl19CorhmS84EHIvmZPBZJj6F7tuiamR0V7I
        TT67GmaDTmXv9cMdTDK3zExhWT5HwjU9RHlF4QnfUX5oiYnN3GpfA9vDb1bmgvsY
        1iLNVYFYdlniwJzaWEx14tmLwMH6z088+Xg2RnYPBi5w8caKU1ZvnA9vsiBcO5C3
        140+Gs6MSHdY/eZpbUqXz2SOj93MLpiNdqNWE5E+eM8FCvaGjb7DYC5lpscLr9Fv
        k9nOcYQgFjiR8DhbAi7YwfnLSVHWLkfUTNEiNxKxaPXmV0cvPq3bs5gShhrSTRA=
        -----END CERTIFICATE-----
        """

    /// rsa4096-leaf.pem
    static let rsa4096Leaf = """
        -----BEGIN CERTIFICATE-----
        MIIEPTCCAiWgAwIBAgIBBTANBgkqhkiG9w0BAQwFADAlMSMwIQYDVQQDDBpQdXNo
        U2ltIFRlc3QgUlNBIDQwOTYgUm9vdDAeFw0yNjExMjcwODExMDBaFw0yOTAyMDQw
        ODExMDBaMBQxEjAQBgNVBAMMCWxvY2FsaG9zdDCCASIwDQYJKoZIhvcNAQEBBQAD
        ggEPADCCAQoCggEBALSNg/KC6VD3WfCTH89AXpNJ/3N0NP/eGOvlX6iionFBhyJl
        gAerW0Sx5nqc+tjzzDRp+YZmm1eX/+XNZLzbMkPxtcLzUfminlTCDmDU5FuVEYMs
        JCBWw0mRb8IJ55pYzX+lic4i+E3Qm7VfN1mEdu2UVJ7TOBII9wFj/p2u6l2GE8CL
        AKfHo6sMyWw0TvMkpcUB72rl4ZIJ8nbfZofehwmYw8AdwNtn3BJPVUdoGYidvq3z
        wMyvCDEgyY686K93oVgPZXxCtMd5aeY7VpYRwnrZXAbPueBGUfRpKjI7WNbPLFvi
        PGA+CbrBHJvmP2mY7+P9qmQ54afDEsYCBd40A6UCAwEAAaOBiDCBhTAOBgNVHQ8B
        Af8EBAMCBaAwHQYDVR0lBBYwFAYIKwYBBQUHAwEGCCsGAQUFBwMCMBQGA1UdEQQN
        MAuCCWxvY2FsaG9zdDAdBgNVHQ4EFgQUGlLcMetK9x+cXH/of3/veYFncPUwHwYD
        VR0jBBgwFoAUIFuhFgWd94mkrbRacwNfcNU84J0wDQYJKoZIhvcNAQEMBQADggIB
        ALo4wR0jtixpm3SVDNOfVg+BrdxxzU0L+o+TikDhzHkjszHkuKb2IMQkSYvPLTKl
        orePQzyiycnKfdeUTELgLx45siz8SL+usBVPqfBuBTbX9Xm18aJ5XM7VGsIDx8NO
        0nu2JTniXrm1FpuBRzOjJ6CznsuNlWDs0TidGwgeqOcRpOxIAUwIz1M7+OF3VLpv
        oIuV3GaaYOlXHKJ5PDN9tbFCyQgWRZql/bsJmvoNJwaMgnblf85GpLbFFRFntAXE
        +fQ/9YGuM4H9ZkGFluqKwf3bUZbMDGRNrsPsiZETzxwQqiQ06m5JiOKYyqkfJKhI
        6/b33blTRwE8SFc7wNuhFe1/pHmGzcKdyMN06AqvegLm7N8eHR7zDGh9TDljCyfc
        SsVPuL1h4eY+FVbmYDipmPFvTKdA9u+xMzbKajVwvzF56GYLnWXsnjJjkB7CxYkW
        02F8eQSqx1QvIoKQcjr6BzzZY8t3V7KrBxRcXv3ZAZGml59th8OERU/VlxjIyWTK
        EBM8DeMzwfaGU4S8KQNWtgK0wEPbb7u5yYFMyhg8JByp195cdTCSb066VqpHS8XA
        Hd40h65SFHJqHK9x2McV1FQ+pMH2YAB7UcSZsGsnJiWGfzbLMjfyaYvYkwPYDBxR
        ucMGwc4CFeJ63dbUrwfeKTAiC/QVo43GJyb0SuCzkIOJ
        -----END CERTIFICATE-----
        """
}
