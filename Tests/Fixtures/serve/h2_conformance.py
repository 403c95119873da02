#!/usr/bin/env python3
"""An HTTP/2 conformance pass over a socket, in the spirit of h2spec's sections, with raw frames
made by hyperframe and header blocks by hpack (no client library to smooth anything over).

Usage: h2_conformance.py PORT
Each case opens its own connection to 127.0.0.1:PORT and prints one JSON object keyed by case:
what the server sent that the case is about. The Swift test (ServeClientTests) judges them.

  bad-preface      (RFC 9113 §3.4) a wrong connection preface: GOAWAY PROTOCOL_ERROR, then close
  data-stream-0    (§6.1) DATA on stream 0: a connection error PROTOCOL_ERROR (GOAWAY)
  uppercase-name   (§8.2.1) a field name with an uppercase letter: the stream is malformed,
                   RST_STREAM PROTOCOL_ERROR; the connection goes on (a later request is answered)
  window-1         (§6.9.2) SETTINGS_INITIAL_WINDOW_SIZE 1: the server sends the body one octet
                   per WINDOW_UPDATE, and the whole answer arrives
  ping             (§6.7) PING is answered with ACK and the same 8 octets
  unknown-frame    (§5.5) a frame of an unknown type is ignored: a request after it is answered
"""
import json
import signal
import socket
import struct
import sys

import hpack
from hyperframe.frame import (DataFrame, Frame, GoAwayFrame, HeadersFrame, PingFrame, RstStreamFrame,
                              SettingsFrame, WindowUpdateFrame)

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
ERRORS = {0: "NO_ERROR", 1: "PROTOCOL_ERROR", 2: "INTERNAL_ERROR", 3: "FLOW_CONTROL_ERROR", 4: "SETTINGS_TIMEOUT",
          5: "STREAM_CLOSED", 6: "FRAME_SIZE_ERROR", 7: "REFUSED_STREAM", 8: "CANCEL", 9: "COMPRESSION_ERROR",
          10: "CONNECT_ERROR", 11: "ENHANCE_YOUR_CALM", 12: "INADEQUATE_SECURITY", 13: "HTTP_1_1_REQUIRED"}
UNKNOWN_TOKEN = "0123456789abcdef" * 4


class Connection:
    def __init__(self, port, settings=None, preface=PREFACE):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buffer = b""
        self.encoder = hpack.Encoder()
        self.decoder = hpack.Decoder()
        self.socket.sendall(preface)
        if preface == PREFACE:
            self.send(SettingsFrame(0, settings=settings or {}))

    def send(self, frame):
        self.socket.sendall(frame.serialize())

    def send_raw(self, kind, flags, stream, payload):
        """A frame hyperframe would refuse to make (DATA on stream 0, a type it does not know)."""
        self.socket.sendall(struct.pack(">I", len(payload))[1:] + struct.pack(">BBI", kind, flags, stream) + payload)

    def receive(self):
        """The next frame, or None when the server closed the connection (or stayed silent 5 s)."""
        try:
            while True:
                if len(self.buffer) >= 9:
                    frame, length = Frame.parse_frame_header(memoryview(self.buffer[:9]))
                    if len(self.buffer) >= 9 + length:
                        frame.parse_body(memoryview(self.buffer[9:9 + length]))
                        self.buffer = self.buffer[9 + length:]
                        if isinstance(frame, SettingsFrame) and "ACK" not in frame.flags:
                            self.send(SettingsFrame(0, flags=["ACK"]))
                        return frame
                chunk = self.socket.recv(65536)
                if not chunk:
                    return None
                self.buffer += chunk
        except (socket.timeout, ConnectionResetError):
            return None

    def request(self, stream, headers=None, body=b'{"aps":{"alert":"conformance"}}'):
        fields = headers or [(":method", "POST"), (":scheme", "http"), (":path", "/3/device/" + UNKNOWN_TOKEN),
                             (":authority", "127.0.0.1"), ("apns-push-type", "alert")]
        self.send(HeadersFrame(stream, self.encoder.encode(fields), flags=["END_HEADERS"]))
        self.send(DataFrame(stream, body, flags=["END_STREAM"]))

    def response(self, stream, window_updates=False):
        """Reads until `stream` ends or is reset: its status, body, the frames' kinds, and the sizes of its DATA frames."""
        answer = {"status": None, "body": "", "dataFrames": [], "reset": None, "goAway": None}
        while True:
            frame = self.receive()
            if frame is None:
                answer["closed"] = True
                return answer
            if isinstance(frame, GoAwayFrame):
                answer["goAway"] = ERRORS.get(frame.error_code, frame.error_code)
            if frame.stream_id != stream:
                continue
            if isinstance(frame, HeadersFrame):
                answer["status"] = int(dict(self.decoder.decode(frame.data))[":status"])
            elif isinstance(frame, DataFrame):
                answer["body"] += frame.data.decode()
                answer["dataFrames"].append(len(frame.data))
                if window_updates and frame.data:
                    self.send(WindowUpdateFrame(stream, window_increment=len(frame.data)))
            elif isinstance(frame, RstStreamFrame):
                answer["reset"] = ERRORS.get(frame.error_code, frame.error_code)
                return answer
            if "END_STREAM" in frame.flags:
                return answer

    def until_goaway(self):
        """Reads until GOAWAY: its error, and whether the server closed the connection after it."""
        while True:
            frame = self.receive()
            if frame is None:
                return {"goAway": None, "closed": True}
            if isinstance(frame, GoAwayFrame):
                return {"goAway": ERRORS.get(frame.error_code, frame.error_code), "closed": self.receive() is None}

    def close(self):
        self.socket.close()


def bad_preface(port):
    connection = Connection(port, preface=b"PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n")
    try:
        return connection.until_goaway()
    finally:
        connection.close()


def data_stream_0(port):
    connection = Connection(port)
    try:
        connection.send_raw(0x0, 0x0, 0, b"hello")
        return connection.until_goaway()
    finally:
        connection.close()


def uppercase_name(port):
    connection = Connection(port)
    try:
        connection.request(1, headers=[(":method", "POST"), (":scheme", "http"), (":path", "/3/device/" + UNKNOWN_TOKEN),
                                       (":authority", "127.0.0.1"), ("APNS-Push-Type", "alert")])
        first = connection.response(1)
        connection.request(3)
        later = connection.response(3)
        return {"reset": first["reset"], "status": first["status"], "goAway": first["goAway"] or later["goAway"],
                "laterStatus": later["status"]}
    finally:
        connection.close()


def window_1(port):
    connection = Connection(port, settings={SettingsFrame.INITIAL_WINDOW_SIZE: 1})
    try:
        connection.request(1)
        answer = connection.response(1, window_updates=True)
        return {"status": answer["status"], "body": answer["body"], "largestDataFrame": max(answer["dataFrames"] or [0]),
                "dataFrames": len(answer["dataFrames"]), "reset": answer["reset"], "goAway": answer["goAway"]}
    finally:
        connection.close()


def ping(port):
    connection = Connection(port)
    try:
        connection.send(PingFrame(0, opaque_data=b"pushsim!"))
        while True:
            frame = connection.receive()
            if frame is None:
                return {"ack": False, "closed": True}
            if isinstance(frame, PingFrame):
                return {"ack": "ACK" in frame.flags, "data": frame.opaque_data.decode()}
    finally:
        connection.close()


def unknown_frame(port):
    connection = Connection(port)
    try:
        connection.send_raw(0xBB, 0xFF, 0, b"\x00\x01\x02\x03")
        connection.send_raw(0xBB, 0x00, 1, b"")
        connection.request(1)
        answer = connection.response(1)
        return {"status": answer["status"], "reset": answer["reset"], "goAway": answer["goAway"]}
    finally:
        connection.close()


def main():
    signal.alarm(60)
    port = int(sys.argv[1])
    cases = {"bad-preface": bad_preface, "data-stream-0": data_stream_0, "uppercase-name": uppercase_name,
             "window-1": window_1, "ping": ping, "unknown-frame": unknown_frame}
    result = {}
    for name, case in cases.items():
        try:
            result[name] = case(port)
        except Exception as error:  # one case's failure is reported, the others still run
            result[name] = {"error": "%s: %s" % (type(error).__name__, error)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
