#!/usr/bin/env python3
"""APNs's faults as a provider's HTTP/2 stack (the h2 library) sees them from `pushsim serve`.

Usage: h2_faults.py APNS_PORT CONTROL_PORT TOPIC
Each case starts a fault with POST /faults (or moves the controlled clock into the scenario's
window), opens its own connection, sends pushes and records what came back: statuses, reasons,
GOAWAY (its last stream id and error code), and whether the server closed the connection.
Prints one JSON object keyed by case; the Swift test (ServeFaultClientTests) judges it.

  scenario-window     the scenario's serviceUnavailable window: 503 ServiceUnavailable
  internal-error      500 InternalServerError
  shutdown            two pushes on one connection: 503 Shutdown on the first, then GOAWAY naming
                      it (NO_ERROR) and the connection closed; the second is never answered
  goaway              GOAWAY naming stream 0 (the push was not processed), no answer, closed
  connection-closed   the connection closed without GOAWAY and without an answer
  slow                the answer (200) comes after the scenario's slowLatency
  idle-closed         the push answered 200, then (idle for a second) GOAWAY naming it and the
                      connection closed
  after-stop          {"stop": true}: 200 again
"""
import json
import socket
import sys
import time
import urllib.request

import h2.config
import h2.connection
import h2.events

APNS, CONTROL, TOPIC = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]


def control(path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{CONTROL}{path}", data=data, method="POST" if data else "GET")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def pushes(token, count=1, wait=3.0):
    """Opens a connection, sends `count` pushes at once, reads until the server closes or `wait` passes."""
    sock = socket.create_connection(("127.0.0.1", APNS), timeout=wait)
    connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    connection.initiate_connection()
    streams = []
    for _ in range(count):
        stream = connection.get_next_available_stream_id()
        body = json.dumps({"aps": {"alert": {"title": "t", "body": "b"}}}).encode()
        connection.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":authority", "api.push.apple.com"),
                                         (":path", f"/3/device/{token}"), ("apns-topic", TOPIC),
                                         ("apns-push-type", "alert"), ("content-length", str(len(body)))])
        connection.send_data(stream, body, end_stream=True)
        streams.append(stream)
    sock.sendall(connection.data_to_send())
    started = time.monotonic()
    answers, bodies, seen = {}, {}, {"goaway": None, "closed": False, "order": []}
    while time.monotonic() - started < wait:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            break
        except ConnectionResetError:
            seen["closed"] = True
            break
        if not data:
            seen["closed"] = True
            break
        try:
            events = connection.receive_data(data)
        except Exception as error:  # a frame after GOAWAY, say: note it and stop reading
            seen["error"] = repr(error)
            break
        for event in events:
            if isinstance(event, h2.events.ResponseReceived):
                answers[event.stream_id] = {"status": int(dict(event.headers)[b":status"]),
                                            "after": round(time.monotonic() - started, 3)}
                seen["order"].append(f"response {event.stream_id}")
            elif isinstance(event, h2.events.DataReceived):
                bodies[event.stream_id] = bodies.get(event.stream_id, b"") + event.data
                connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.ConnectionTerminated):
                seen["goaway"] = {"lastStreamId": event.last_stream_id, "errorCode": int(event.error_code)}
                seen["order"].append("goaway")
        outgoing = connection.data_to_send()
        if outgoing:
            try:
                sock.sendall(outgoing)
            except OSError:
                pass
    sock.close()
    for stream, body in bodies.items():
        if stream in answers and body:
            answers[stream]["reason"] = json.loads(body).get("reason")
    return {"streams": streams, "answers": {str(k): v for k, v in answers.items()}, **seen}


def main():
    token = control("/devices")["devices"][0]["token"]
    result = {}
    control("/clock", {"toSeconds": 3700})
    result["scenario-window"] = pushes(token)
    result["scenario-faults"] = control("/faults")
    control("/clock", {"toSeconds": 7300})
    for case, kind, count in [("internal-error", "internalServerError", 1), ("shutdown", "shutdown", 2),
                              ("goaway", "goaway", 1), ("connection-closed", "connectionClosed", 1),
                              ("slow", "slow", 1), ("idle-closed", "idleClosed", 1)]:
        control("/faults", {"kind": kind, "seconds": 600})
        result[case] = pushes(token, count)
        control("/faults", {"stop": True})
    result["after-stop"] = pushes(token, wait=1.0)
    result["faults"] = control("/faults")
    print(json.dumps(result))


main()
