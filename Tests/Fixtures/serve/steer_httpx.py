#!/usr/bin/env python3
"""A test written only against serve's control API and Python httpx (HTTP/2 with prior
knowledge, h2c on loopback): a phone switched offline gets two pushes, is switched online,
and shows only the newest.

Usage: steer_httpx.py APNS_PORT CONTROL_PORT TOPIC
Serve runs under the controlled clock. The script prints one JSON object: the device app
steered, the two pushes' statuses, what APNs held while the phone was offline, what
Notification Center shows once it is back (newest first), the app's counts and the
simulated instants of each step. Nothing in it depends on the wall clock.
"""
import json
import signal
import sys

import httpx

from control import Control


def main():
    signal.alarm(60)
    apns_port, control_port, topic = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    control = Control(control_port)
    phone = control.devices(topic)[0]
    path = "/devices/%d/apps/%d" % (phone["device"], phone["app"])
    result = {"device": phone["device"], "app": phone["app"], "token": phone["token"]}

    offline = control.post(path + "/actions", {"action": "offline"})
    result["offlineAt"] = offline["now"]
    result["onlineWhenOff"] = offline["online"]
    with httpx.Client(http1=False, http2=True, timeout=10) as client:
        def push(body):
            answer = client.post("http://127.0.0.1:%d/3/device/%s" % (apns_port, phone["token"]),
                                 headers={"apns-topic": topic, "apns-push-type": "alert", "apns-priority": "10"},
                                 content=json.dumps({"aps": {"alert": {"title": "steered", "body": body}}}))
            return {"httpVersion": answer.http_version, "status": answer.status_code}

        result["first"] = push("first")
        control.post("/clock", {"advanceSeconds": 60})
        result["second"] = push("second")
    held = control.get(path)
    result["held"] = [hold["body"] for hold in held["apnsHolds"]]

    online = control.post(path + "/actions", {"action": "online"})
    result["onlineAt"] = online["now"]
    control.post("/clock", {"advanceSeconds": 60})
    after = control.get(path)
    result["online"] = after["online"]
    result["shown"] = [entry["body"] for entry in after["notificationCenter"]]
    result["shownAt"] = [entry["shownAt"] for entry in after["notificationCenter"]]
    result["counts"] = {key: after["counts"][key] for key in ("accepted", "delivered", "shown", "coalesced")}
    result["steps"] = [entry["step"] for entry in after["extensionLog"] if entry["step"].startswith("steered")]
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
