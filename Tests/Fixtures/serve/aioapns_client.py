#!/usr/bin/env python3
"""aioapns, as a provider uses it, through a TLS terminator (haproxy) in front of `pushsim serve`.

Usage: aioapns_client.py TLS_PORT CONTROL_PORT CA_FILE TOPIC cert CLIENT_PEM [once]
       aioapns_client.py TLS_PORT CONTROL_PORT CA_FILE TOPIC key KEY_FILE KEY_ID TEAM_ID [once]
aioapns always speaks TLS to api.push.apple.com:443 (its protocol class's APNS_SERVER and
APNS_PORT); they are pointed at 127.0.0.1:TLS_PORT, whose certificate CA_FILE signed. The
script pushes to a current token, to a token the population never issued and to a rotated one
(moving serve's controlled clock until one rotates), and prints one JSON object: for each of
"current", "unknown", "rotated" the NotificationResult as aioapns parsed it (status,
description, timestamp, notification_id) and the id sent; "rotatedAt" is the clock's epoch
milliseconds when the rotation was found; "concurrent", the statuses of 20 pushes sent at
once, and "concurrentMatched", whether aioapns matched each answer to its request. With `once`,
only "current" (credentials serve refuses).
"""
import asyncio
import json
import logging
import signal
import ssl
import sys
import uuid

from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsProductionClientProtocol

from control import Control, UNKNOWN_TOKEN


async def run(arguments):
    port, control_port, ca_file, topic, kind = int(arguments[0]), int(arguments[1]), arguments[2], arguments[3], arguments[4]
    APNsProductionClientProtocol.APNS_SERVER = "127.0.0.1"
    APNsProductionClientProtocol.APNS_PORT = port
    context = ssl.create_default_context(cafile=ca_file)
    if kind == "cert":
        apns = APNs(client_cert=arguments[5], topic=topic, use_sandbox=False, ssl_context=context)
    else:
        with open(arguments[5]) as file:
            key = file.read()
        apns = APNs(key=key, key_id=arguments[6], team_id=arguments[7], topic=topic, use_sandbox=False,
                    ssl_context=context)
    control = Control(control_port)

    async def push(token):
        request = NotificationRequest(device_token=token, notification_id=str(uuid.uuid4()),
                                      message={"aps": {"alert": {"title": "aioapns", "body": "hello"}}},
                                      push_type=PushType.ALERT)
        result = await asyncio.wait_for(apns.send_notification(request), 20)
        return {"sentId": request.notification_id, "notification_id": result.notification_id,
                "status": result.status, "description": result.description, "timestamp": result.timestamp}

    result = {}
    current = control.devices(topic)[0]
    result["current"] = await push(current["token"])
    if arguments[-1] == "once":
        print(json.dumps(result))
        return
    result["unknown"] = await push(UNKNOWN_TOKEN)
    _, old = control.rotated(topic)
    result["rotatedAt"] = control.get("/clock")["epochMilliseconds"]
    result["rotated"] = await push(old)
    # Several at once on the same connection: aioapns matches answers by the echoed apns-id.
    many = await asyncio.gather(*(push(current["token"]) for _ in range(20)))
    result["concurrent"] = sorted({answer["status"] for answer in many})
    result["concurrentMatched"] = all(answer["sentId"] == answer["notification_id"] for answer in many)
    print(json.dumps(result))


def main():
    signal.alarm(90)
    logging.basicConfig(level=logging.CRITICAL)  # aioapns logs every error answer; the JSON says them
    asyncio.run(run(sys.argv[1:]))


if __name__ == "__main__":
    main()
