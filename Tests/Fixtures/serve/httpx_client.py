#!/usr/bin/env python3
"""Python httpx (HTTP/2 with prior knowledge, `http1=False, http2=True`) against `pushsim serve`.

Usage: httpx_client.py APNS_PORT CONTROL_PORT TOPIC
Serve runs a scenario with token rotations under the controlled clock. The script pushes to a
current token, to a token the population never issued and to a rotated one, and prints one
JSON object: for each of "current", "unknown", "rotated" the HTTP version, status, apns-id
and the reason and timestamp of the body; and "rotatedAt", the clock's epoch milliseconds when
the rotation was found (the 410's timestamp is at or before it).
"""
import json
import signal
import sys
import uuid

import httpx

from control import Control, UNKNOWN_TOKEN


def main():
    signal.alarm(60)
    apns_port, control_port, topic = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    control = Control(control_port)
    result = {}
    with httpx.Client(http1=False, http2=True, timeout=10) as client:
        def push(token):
            apns_id = str(uuid.uuid4())
            answer = client.post("http://127.0.0.1:%d/3/device/%s" % (apns_port, token),
                                 headers={"apns-topic": topic, "apns-push-type": "alert", "apns-id": apns_id,
                                          "apns-priority": "10"},
                                 content=json.dumps({"aps": {"alert": {"title": "httpx", "body": "hello"}}}))
            body = json.loads(answer.content) if answer.content else {}
            return {"httpVersion": answer.http_version, "status": answer.status_code, "sentId": apns_id,
                    "apnsId": answer.headers.get("apns-id"), "reason": body.get("reason"),
                    "timestamp": body.get("timestamp")}

        current = control.devices(topic)[0]
        result["current"] = push(current["token"])
        result["unknown"] = push(UNKNOWN_TOKEN)
        app, old = control.rotated(topic)
        result["rotatedAt"] = control.get("/clock")["epochMilliseconds"]
        result["rotated"] = push(old)
        result["rotatedCurrent"] = push(app["token"])
    print(json.dumps(result))


if __name__ == "__main__":
    main()
