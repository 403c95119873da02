#!/usr/bin/env python3
"""A minimal provider for `pushsim serve --provider URL` (docs/provider-api.md).

    python3 examples/provider.py --listen 127.0.0.1:0 --apns http://127.0.0.1:2197

It prints the URL it listens on (HTTP/1.1), then takes the phones' three calls:
  POST /register       remember the token and deviceIdHash of a device app; a new hash starts its queue at 1
  POST /subscriptions  taken (this provider has no folders)
  POST /rerequest      re-send positions position-gap ... position-1 through APNs: 200 if one was re-sent, else 404
and two of its own, for a person or a test:
  POST /mail {"device": d, "app": a, "body": "text"}   numbers a mail, pushes it: {"position": n, "status": <APNs's>}
  GET /calls                                           the phones' calls so far, by path
Python 3.11 and httpx with HTTP/2 (pip install httpx h2). Everything is kept in memory, for ever:
a real provider keeps payloads for a while (the scenario's provider.payloadTTL) in a database.
"""
import argparse
import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

lock = threading.Lock()  # guards the two below: requests come on many threads
queues = {}              # (device, app) -> {"token", "deviceId", "deviceIdHash", "topic", "payloads": {position: payload}}
calls = {"/register": [], "/subscriptions": [], "/rerequest": []}
mids = itertools.count(1)  # the mails' ids (`mid`)
apns = None              # an httpx.Client speaking HTTP/2 with prior knowledge, set in main()
apns_url = ""


def push(queue, position, payload):
    """Sends one numbered push through APNs and returns APNs's status (None: no answer); a 410 forgets the token."""
    try:
        answer = apns.post(f"{apns_url}/3/device/{queue['token']}", content=json.dumps(payload), headers={
            "apns-topic": queue["topic"], "apns-push-type": "alert", "apns-priority": "10",
            # Its own collapse id per position: a re-sent push replaces its original instead of showing twice.
            "apns-collapse-id": f"{queue['deviceId']}+{queue['topic']}/{position}"})
    except httpx.HTTPError:
        return None
    if answer.status_code == 410:
        with lock:
            queue["token"] = None  # Unregistered: wait for the app's next registration
    return answer.status_code


class Provider(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: serve reuses its connections

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path != "/calls":
            return self.answer(404, {"error": "no such route"})
        with lock:
            self.answer(200, calls)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        key = (body.get("device"), body.get("app"))
        if self.path in calls:
            with lock:
                calls[self.path].append(body)
        if self.path == "/register":
            with lock:
                queue = queues.get(key)
                if queue is None or queue["deviceIdHash"] != body["deviceIdHash"]:
                    queue = queues[key] = {"payloads": {}}  # a new device id: a new queue, from position 1
                queue.update(token=body["token"], deviceId=body["deviceId"],
                             deviceIdHash=body["deviceIdHash"], topic=body["topic"])
            self.answer(200, {})
        elif self.path == "/subscriptions":
            self.answer(200, {})
        elif self.path == "/rerequest":
            held = {}  # the missing positions this provider still has, for the device id the phone has now
            with lock:
                queue = queues.get(key)
                if queue and queue["token"] and queue["deviceIdHash"] == body["deviceIdHash"]:
                    for position in range(body["position"] - body["gap"], body["position"]):
                        if position in queue["payloads"]:
                            held[position] = queue["payloads"][position]
            # Answer only after APNs answered the re-sent pushes (outside the lock: APNs may take a while).
            resent = [p for p, payload in held.items() if push(queue, p, payload) == 200]
            self.answer(200 if resent else 404, {"resent": resent})
        elif self.path == "/mail":
            with lock:
                queue = queues.get(key)
                if queue is None or not queue["token"]:
                    return self.answer(404, {"error": "no token registered for this device app"})
                position = len(queue["payloads"]) + 1
                payload = {"aps": {"alert": {"title": "New mail", "body": body["body"]},
                                   "mutable-content": 1, "thread-id": queue["topic"]},
                           "xiva": {"pos": position, "device_id_hash": queue["deviceIdHash"]}, "mid": next(mids)}
                queue["payloads"][position] = payload
            self.answer(200, {"position": position, "status": push(queue, position, payload)})
        else:
            self.answer(404, {"error": "no such route"})


def main():
    global apns, apns_url
    parser = argparse.ArgumentParser(description="A minimal provider for pushsim serve --provider.")
    parser.add_argument("--listen", default="127.0.0.1:0", help="host:port to listen on (port 0: any free port)")
    parser.add_argument("--apns", default="http://127.0.0.1:2197", help="serve's APNs URL (HTTP/2, prior knowledge)")
    arguments = parser.parse_args()
    host, port = arguments.listen.rsplit(":", 1)
    apns, apns_url = httpx.Client(http1=False, http2=True, timeout=10), arguments.apns.rstrip("/")
    server = ThreadingHTTPServer((host, int(port)), Provider)
    print(f"http://{host}:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
