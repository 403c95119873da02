#!/usr/bin/env python3
"""Python's ssl module alone against `pushsim serve --tls`: a TLS 1.3 handshake trusting serve's
CA, with ALPN h2, checking the certificate against HOST.

Usage: python_ssl.py HOST PORT CA_FILE
Prints one JSON object: the version, the ALPN protocol, the cipher and the certificate's names.
"""
import json
import socket
import ssl
import sys

host, port, ca_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
context = ssl.create_default_context(cafile=ca_file)
context.minimum_version = ssl.TLSVersion.TLSv1_3
context.set_alpn_protocols(["h2"])
with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
    with context.wrap_socket(raw, server_hostname=host) as tls:
        names = [value for kind, value in tls.getpeercert().get("subjectAltName", ())]
        print(json.dumps({"version": tls.version(), "alpn": tls.selected_alpn_protocol(), "cipher": tls.cipher()[0],
                          "names": names}))
