"""Decodes HPACK field blocks with Python's hpack for ResponseEncodingTests: one decoder
for every block (its table follows the Swift encoder's), each "B" message a block,
answered by an "F" message with the fields as JSON [[name, value], ...] (octets as
latin-1 text, so any octet round-trips), or "X" with hpack's error; "E" ends."""
import json

import hpack

from lockstep import read_message, write

decoder = hpack.Decoder()
while True:
    try:
        kind, payload = read_message()
    except EOFError:
        break
    if kind == ord("E"):
        break
    try:
        fields = decoder.decode(payload, raw=True)
    except Exception as error:  # any refusal is the Swift side's finding
        write("X", str(error).encode())
        continue
    write("F", json.dumps([[name.decode("latin-1"), value.decode("latin-1")] for name, value in fields]).encode())
