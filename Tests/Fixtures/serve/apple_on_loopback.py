#!/usr/bin/env python3
"""Runs an APNs client script with Apple's host names resolved to loopback, as a test would
with an /etc/hosts line and a port redirect, for this process only.

Usage: apple_on_loopback.py PORT SCRIPT [ARGS...]
api.push.apple.com, api.sandbox.push.apple.com and api.development.push.apple.com on 443 or
2197 resolve to 127.0.0.1:PORT (`pushsim serve --tls` there); every other name resolves as
usual. The client still names Apple's host in its TLS server_name and checks the certificate
against it, so nothing of the client is changed: only the address its connection goes to.
The CA the client trusts comes from the environment (SSL_CERT_FILE), as on a machine whose
trust store holds serve's CA.
"""
import runpy
import socket
import sys

APPLE_HOSTS = {"api.push.apple.com", "api.sandbox.push.apple.com", "api.development.push.apple.com"}
APPLE_PORTS = {443, 2197, "443", "2197"}


def main():
    port = int(sys.argv[1])
    resolve = socket.getaddrinfo

    def getaddrinfo(host, service, *rest, **named):
        name = host.decode() if isinstance(host, bytes) else host
        if name in APPLE_HOSTS and service in APPLE_PORTS:
            return resolve("127.0.0.1", port, *rest, **named)
        return resolve(host, service, *rest, **named)

    socket.getaddrinfo = getaddrinfo
    script = sys.argv[2]
    sys.argv = sys.argv[2:]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
