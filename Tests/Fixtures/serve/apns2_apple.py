#!/usr/bin/env python3
"""apns2-up (PyAPNs2's maintained fork), unmodified and as documented, against `pushsim serve
--tls` reached as api.push.apple.com:443 (run it with its own virtual environment's Python
under apple_on_loopback.py, with SSL_CERT_FILE set to serve's CA).

Usage: apns2_apple.py CONTROL_PORT TOPIC cert CLIENT_PEM
       apns2_apple.py CONTROL_PORT TOPIC key KEY_FILE KEY_ID TEAM_ID
apns2-up's TLS library (hyper) trusts the CA file `hyper.tls.cert_loc` names, not the
system's store: it is pointed at SSL_CERT_FILE, the one setting this client has for it.
Prints one JSON object as aioapns_apple.py does, from apns2's answers and exceptions.
"""
import json
import os
import signal
import sys

import hyper.tls
from apns2.client import APNsClient
from apns2.credentials import CertificateCredentials, TokenCredentials
from apns2.errors import APNsException, Unregistered
from apns2.payload import Payload

from control import Control, UNKNOWN_TOKEN


def main():
    signal.alarm(90)
    hyper.tls.cert_loc = os.environ["SSL_CERT_FILE"]
    control_port, topic, kind = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    if kind == "cert":
        credentials = CertificateCredentials(sys.argv[4])
    else:
        credentials = TokenCredentials(auth_key_path=sys.argv[4], auth_key_id=sys.argv[5], team_id=sys.argv[6])
    client = APNsClient(credentials=credentials, use_sandbox=False)
    control = Control(control_port)
    payload = Payload(alert={"title": "apns2", "body": "over TLS"})

    def push(token):
        try:
            client.send_notification(token, payload, topic=topic)
            return {"status": 200, "reason": None, "timestamp": None}
        except Unregistered as error:
            return {"status": 410, "reason": "Unregistered", "timestamp": int(error.timestamp)}
        except APNsException as error:
            return {"status": None, "reason": type(error).__name__, "timestamp": None}

    result = {"current": push(control.devices(topic)[0]["token"]), "unknown": push(UNKNOWN_TOKEN)}
    _, old = control.rotated(topic)
    result["rotatedAt"] = control.get("/clock")["epochMilliseconds"]
    result["rotated"] = push(old)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
