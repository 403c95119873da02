#!/usr/bin/env python3
"""aioapns, unmodified and as documented, against `pushsim serve --tls` reached as
api.push.apple.com:443 (run it under apple_on_loopback.py, with SSL_CERT_FILE set to serve's CA).

Usage: aioapns_apple.py CONTROL_PORT TOPIC cert CLIENT_PEM
       aioapns_apple.py CONTROL_PORT TOPIC key KEY_FILE KEY_ID TEAM_ID
Prints one JSON object: for "current", "unknown" (a token never issued) and "rotated" (a
token that rotated, found by moving serve's controlled clock) what aioapns parsed of the
answer (status, reason, timestamp), and "rotatedAt", the clock's epoch milliseconds then.
"""
import asyncio
import json
import logging
import signal
import sys
import uuid

from aioapns import APNs, NotificationRequest, PushType

from control import Control, UNKNOWN_TOKEN


async def run(arguments):
    control_port, topic, kind = int(arguments[0]), arguments[1], arguments[2]
    if kind == "cert":
        apns = APNs(client_cert=arguments[3], topic=topic, use_sandbox=False)
    else:
        with open(arguments[3]) as file:
            key = file.read()
        apns = APNs(key=key, key_id=arguments[4], team_id=arguments[5], topic=topic, use_sandbox=False)
    control = Control(control_port)

    async def push(token):
        request = NotificationRequest(device_token=token, notification_id=str(uuid.uuid4()),
                                      message={"aps": {"alert": {"title": "aioapns", "body": "over TLS"}}},
                                      push_type=PushType.ALERT)
        result = await asyncio.wait_for(apns.send_notification(request), 20)
        return {"status": int(result.status), "reason": result.description, "timestamp": result.timestamp}

    result = {"current": await push(control.devices(topic)[0]["token"]), "unknown": await push(UNKNOWN_TOKEN)}
    _, old = control.rotated(topic)
    result["rotatedAt"] = control.get("/clock")["epochMilliseconds"]
    result["rotated"] = await push(old)
    print(json.dumps(result))


def main():
    signal.alarm(90)
    logging.basicConfig(level=logging.CRITICAL)
    asyncio.run(run(sys.argv[1:]))


if __name__ == "__main__":
    main()
