"""The framing h2_client.py and h2_server.py speak with their Swift tests over stdin and
stdout: a 4-octet big-endian payload length, a kind octet, the payload."""
import struct
import sys


def write(kind, payload):
    sys.stdout.buffer.write(struct.pack(">IB", len(payload), ord(kind)) + payload)
    sys.stdout.buffer.flush()


def read_exactly(count):
    data = b""
    while len(data) < count:
        chunk = sys.stdin.buffer.read(count - len(data))
        if not chunk:
            raise EOFError("the Swift side closed the pipe")
        data += chunk
    return data


def read_message():
    """The next message: (kind as an integer, payload)."""
    length, kind = struct.unpack(">IB", read_exactly(5))
    return kind, read_exactly(length)
