#!/usr/bin/env bash
# Makes, in DIR, what the TLS recipe of docs/serve.md needs, with openssl only:
#   ca.crt, ca.key        a CA (the one haproxy's `ca-file` trusts and the client trusts)
#   server.pem            haproxy's `crt`: the server certificate (127.0.0.1, localhost) and its key
#   client.pem            a provider's client certificate and key, subject UID=TOPIC (Apple's push certificates)
#   nouid.pem             a client certificate whose subject has no UID
#   AuthKey_KEYID.p8      a P-256 key in PKCS#8 PEM, as Apple hands a team's token key
# Usage: make-pki.sh DIR [TOPIC] [KEYID]
set -euo pipefail
dir=$1 topic=${2:-com.example.mail} keyid=${3:-ABC123DEFG}
mkdir -p "$dir"
cd "$dir"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=PushSim test CA" \
    -keyout ca.key -out ca.crt -addext basicConstraints=critical,CA:TRUE \
    -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
sign() { # name subject extensions
    openssl req -newkey rsa:2048 -nodes -subj "$2" -keyout "$1.key" -out "$1.csr" 2>/dev/null
    printf '%s\n' "$3" > "$1.ext"
    openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 \
        -extfile "$1.ext" -out "$1.crt" 2>/dev/null
    cat "$1.crt" "$1.key" > "$1.pem"
    rm -f "$1.csr" "$1.ext"
}
sign server "/CN=localhost" "subjectAltName=IP:127.0.0.1,DNS:localhost
extendedKeyUsage=serverAuth"
sign client "/UID=$topic/CN=Apple Push Services: $topic/OU=TEAM123456/O=Example/C=US" "extendedKeyUsage=clientAuth"
sign nouid "/CN=No UID/O=Example/C=US" "extendedKeyUsage=clientAuth"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "AuthKey_$keyid.p8" 2>/dev/null
