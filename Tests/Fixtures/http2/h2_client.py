#!/usr/bin/env python3
"""Python's h2 client against PushSim's HTTP/2 server state machine (Tests/HTTP2Tests/InteropTests.swift).

The Swift test runs this script and relays octets: each message on stdout or stdin is a
4-octet big-endian payload length, a kind octet ('B' octets for the other side, 'R' this
script's verdict as text) and the payload. Every 'B' this script writes is answered by one
'B' with what the server sent back, so the two sides move in lockstep.

The client sends APNs-like requests (with Huffman-coded, indexed and never-indexed fields
from h2's own HPACK encoder), a 100 000-octet body that needs the server's WINDOW_UPDATEs,
a small receive window of its own so the server must respect it, trailers, a stream it
resets, and a PING; h2 validates every frame and header block the server sends, and this
script checks each response. The verdict is "ok ..." or "fail: ...".
"""
import json
import os
import signal
import sys

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.settings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lockstep import read_message, write  # noqa: E402

TOKEN = "a1" * 32
APNS_ID = "EC1BF194-B3B2-424A-89A9-5A918A6E6B5A"


def exchange(connection):
    """Sends what the client has queued and returns the server's answer."""
    write("B", connection.data_to_send())
    kind, payload = read_message()
    if kind != ord("B"):
        raise ValueError("unexpected message kind %r" % kind)
    return payload


def main():
    signal.alarm(30)  # bounded even if the Swift side stops answering
    config = h2.config.H2Configuration(client_side=True, header_encoding="utf-8")
    connection = h2.connection.H2Connection(config=config)
    connection.initiate_connection()
    # A small receive window: the server's 5 000-octet response must wait for our updates.
    connection.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 1000})

    base = [(":method", "POST"), (":scheme", "http"), (":authority", "api.push.example")]
    apns = [("apns-topic", "com.example.app"), ("apns-push-type", "alert"), ("apns-priority", "10"),
            ("authorization", "bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyMyJ9")]
    payload = json.dumps({"aps": {"alert": "hi"}}).encode()
    expected = {}   # stream -> (status, body or None, {header: value})
    bodies = {}     # stream -> octets still to send
    trailers = {}   # stream -> trailers to send after the body

    def request(path, body=b"", headers=(), status=200, expect_body=None, expect_headers=None, method=None,
                end_with_trailers=None):
        stream = connection.get_next_available_stream_id()
        fields = list(base) + [(":path", path)] + list(apns) + list(headers)
        if method:
            fields[0] = (":method", method)
        if body or end_with_trailers:
            fields.append(("content-length", str(len(body))))
        connection.send_headers(stream, fields, end_stream=not body and not end_with_trailers)
        if body:
            bodies[stream] = body
        if end_with_trailers:
            trailers[stream] = end_with_trailers
        expected[stream] = (status, expect_body, expect_headers or {})
        return stream

    request("/3/device/" + TOKEN, payload, [("apns-id", APNS_ID)], expect_headers={"apns-id": APNS_ID})
    request("/3/device/bad", payload, status=400, expect_body=json.dumps({"reason": "BadDeviceToken"}).encode())
    request("/big", method="GET", expect_body=b"x" * 5000)
    request("/echo-length", b"z" * 100_000, expect_body=b"100000")
    cancelled = request("/3/device/" + TOKEN, payload)
    del expected[cancelled]
    for index in range(20):  # the same fields again: h2 indexes them, we must follow its table
        request("/3/device/" + TOKEN, payload, [("apns-expiration", "0"), ("apns-collapse-id", "c%d" % (index % 3))])
    request("/trailers", b"abc", expect_body=b"trailers:1", end_with_trailers=[("x-checksum", "900150983cd24fb0")])
    connection.ping(b"pushsim!")

    responses = {}  # stream -> [status, headers, body, ended]
    ping_acknowledged = False
    reset_sent = False
    for _ in range(2000):
        # Request bodies, within the server's windows and frame size.
        for stream in list(bodies):
            if stream == cancelled and not reset_sent:
                connection.send_data(stream, bodies.pop(stream)[:10])
                connection.reset_stream(stream, h2.errors.ErrorCodes.CANCEL)
                reset_sent = True
                continue
            room = min(connection.local_flow_control_window(stream), connection.max_outbound_frame_size)
            if room <= 0:
                continue
            chunk, rest = bodies[stream][:room], bodies[stream][room:]
            done = not rest and stream not in trailers
            connection.send_data(stream, chunk, end_stream=done)
            if rest:
                bodies[stream] = rest
            else:
                del bodies[stream]
                if stream in trailers:
                    connection.send_headers(stream, trailers.pop(stream), end_stream=True)
        for event in connection.receive_data(exchange(connection)):
            if isinstance(event, h2.events.ResponseReceived):
                fields = dict(event.headers)
                responses[event.stream_id] = [int(fields[":status"]), fields, b"", False]
            elif isinstance(event, h2.events.DataReceived):
                responses[event.stream_id][2] += event.data
                connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                responses[event.stream_id][3] = True
            elif isinstance(event, h2.events.PingAckReceived):
                ping_acknowledged = event.ping_data == b"pushsim!"
            elif isinstance(event, (h2.events.StreamReset, h2.events.ConnectionTerminated)):
                if getattr(event, "stream_id", None) != cancelled:
                    return "fail: %r" % event
        if ping_acknowledged and not bodies and all(responses.get(s, [0, 0, 0, False])[3] for s in expected):
            break
    else:
        return "fail: no end after 2000 exchanges; responses %r" % sorted(responses)

    for stream, (status, body, headers) in sorted(expected.items()):
        got = responses[stream]
        if got[0] != status:
            return "fail: stream %d status %d, expected %d" % (stream, got[0], status)
        if body is not None and got[2] != body:
            return "fail: stream %d body %r" % (stream, got[2][:80])
        for name, value in headers.items():
            if got[1].get(name) != value:
                return "fail: stream %d %s: %r" % (stream, name, got[1].get(name))
    if cancelled in responses and responses[cancelled][3]:
        return "fail: the cancelled stream was answered"
    connection.close_connection()
    write("B", connection.data_to_send())
    read_message()  # the server's (empty) answer to our GOAWAY
    return "ok %d responses, ping acknowledged" % len(expected)


if __name__ == "__main__":
    try:
        verdict = main()
    except Exception as error:  # any h2 protocol error is a failure of the server under test
        verdict = "fail: %s: %s" % (type(error).__name__, error)
    write("R", verdict.encode())
