#!/usr/bin/env python3
"""Python's httpx over HTTP/2 with prior knowledge (h2c) against PushSim's transport
(Tests/TransportTests/HttpxTests.swift): python3 httpx_client.py http://127.0.0.1:PORT

One client, one connection: 20 APNs-like POSTs in turn, a 100 000-octet body echoed, a 404
from the service, then 16 requests at once from threads sharing the connection. Prints one
JSON object: what httpx saw. Bounded in time by an alarm.
"""
import json
import signal
import sys
import threading

import httpx

signal.alarm(48)
base = sys.argv[1]
seen = {"versions": [], "statuses": [], "apns_ids": 0, "echo_ok": False, "concurrent": []}
# httpx closes a connection idle for its keep-alive expiry (5 s by default) and opens another:
# a loaded machine can pause this client that long between two requests, and the test asks
# for one connection, so the expiry is longer than the whole script.
limits = httpx.Limits(keepalive_expiry=60)
with httpx.Client(http1=False, http2=True, timeout=40, limits=limits) as client:
    for index in range(20):
        response = client.post(f"{base}/3/device/{index:064x}", content=b'{"aps":{"alert":"hi"}}',
                               headers={"apns-topic": "com.example.mail", "apns-push-type": "alert"})
        seen["versions"].append(response.http_version)
        seen["statuses"].append(response.status_code)
        if response.headers.get("apns-id"):
            seen["apns_ids"] += 1
    body = bytes(range(256)) * 390 + b"end!"
    response = client.post(f"{base}/echo", content=body)
    seen["echo_ok"] = response.status_code == 200 and response.content == body
    seen["statuses"].append(client.get(f"{base}/status/404").status_code)

    def fetch(index):
        try:
            seen["concurrent"].append(client.get(f"{base}/concurrent/{index}").status_code)
        except Exception as error:  # said on stderr, so a failure names its cause
            print(f"request {index}: {type(error).__name__}: {error}", file=sys.stderr)

    threads = [threading.Thread(target=fetch, args=(index,)) for index in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
print(json.dumps(seen))
