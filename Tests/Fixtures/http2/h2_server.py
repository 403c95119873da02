#!/usr/bin/env python3
"""Python's h2 server against PushSim's HTTP/2 client state machine (Tests/HTTP2Tests/ClientInteropTests.swift).

The Swift test runs this script and relays octets as h2_client.py's test does: each
message is a 4-octet big-endian payload length, a kind octet and the payload. 'B' carries
octets for the other side; every 'B' the client side writes is answered by one 'B' with
what this server sent back (possibly nothing), so the two move in lockstep. 'E' from the
client side ends the run: this script answers 'R' with its verdict as text.

The server announces 5 concurrent streams and a 1 000-octet initial window, so the client
must queue requests and cut its bodies to the windows; it answers by path: /echo with the
request body, /big with 200 000 octets (within the client's windows), /trailers with
trailers, /refuse with RST_STREAM REFUSED_STREAM, anything else 200 with an apns-id.
h2 validates every frame and header block the client sends.
"""
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


def main():
    signal.alarm(30)  # bounded even if the Swift side stops answering
    config = h2.config.H2Configuration(client_side=False, header_encoding="utf-8")
    connection = h2.connection.H2Connection(config=config)
    connection.initiate_connection()
    connection.update_settings({h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: 5,
                                h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 1000})
    requests = {}   # stream -> [headers, body]
    outgoing = {}   # stream -> [octets still to send, trailers or None]
    seen = 0
    most_open = 0
    problems = []

    def respond(stream, headers, body):
        path = headers.get(":path")
        if path == "/refuse":
            connection.reset_stream(stream, h2.errors.ErrorCodes.REFUSED_STREAM)
            return
        if path == "/echo":
            fields, data, trailers = [(":status", "200"), ("content-type", "application/octet-stream")], body, None
        elif path == "/big":
            fields, data, trailers = [(":status", "200")], b"y" * 200_000, None
        elif path == "/trailers":
            fields, data, trailers = [(":status", "200")], b"t", [("x-checksum", "42")]
        else:
            fields, data, trailers = [(":status", "200"), ("apns-id", "id-%d" % stream)], b"", None
        connection.send_headers(stream, fields, end_stream=not data and not trailers)
        if data or trailers:
            outgoing[stream] = [data, trailers]

    def pump_outgoing():
        for stream in list(outgoing):
            data, trailers = outgoing[stream]
            room = min(connection.local_flow_control_window(stream), connection.max_outbound_frame_size)
            if data and room > 0:
                chunk, rest = data[:room], data[room:]
                connection.send_data(stream, chunk, end_stream=not rest and not trailers)
                outgoing[stream][0] = rest
                data = rest
            if not data:
                if trailers:
                    connection.send_headers(stream, trailers, end_stream=True)
                del outgoing[stream]

    while True:
        kind, payload = read_message()
        if kind == ord("E"):
            break
        for event in connection.receive_data(payload):
            if isinstance(event, h2.events.RequestReceived):
                seen += 1
                requests[event.stream_id] = [dict(event.headers), b""]
                most_open = max(most_open, connection.open_inbound_streams)
                names = [name for name, _ in event.headers]
                if names[:4] != [":method", ":scheme", ":path", ":authority"]:
                    problems.append("pseudo-headers %r" % names[:4])
            elif isinstance(event, h2.events.DataReceived):
                requests[event.stream_id][1] += event.data
                connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                headers, body = requests.pop(event.stream_id)
                respond(event.stream_id, headers, body)
            elif isinstance(event, h2.events.StreamReset):
                requests.pop(event.stream_id, None)
            elif isinstance(event, h2.events.ConnectionTerminated):
                problems.append("terminated: %r" % event)
        pump_outgoing()
        write("B", connection.data_to_send())
    if problems:
        return "fail: " + "; ".join(problems)
    if most_open > 5:
        return "fail: %d streams open at once, above the 5 announced" % most_open
    return "ok %d requests" % seen


if __name__ == "__main__":
    try:
        verdict = main()
    except Exception as error:  # any h2 protocol error is a failure of the client under test
        verdict = "fail: %s: %s" % (type(error).__name__, error)
    write("R", verdict.encode())
