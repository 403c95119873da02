"""The control API of `pushsim serve` (docs/serve.md), read with the standard library only.

Shared by the client scripts beside it (Tests/CLITests/ServeClientTests.swift runs them).
"""
import json
import urllib.request


class Control:
    def __init__(self, port, host="127.0.0.1"):
        self.base = "http://%s:%d" % (host, port)

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=10) as answer:
            return json.loads(answer.read())

    def post(self, path, body):
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST")
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())

    def devices(self, topic=None):
        return self.get("/devices" + ("?topic=" + topic if topic else ""))["devices"]

    def rotated(self, topic=None, step_seconds=86400, steps=30):
        """Moves the controlled clock a day at a time until some device app's token has rotated.

        Returns (that app's entry, one of its old tokens)."""
        for _ in range(steps):
            for app in self.devices(topic):
                if app.get("oldTokens"):
                    return app, app["oldTokens"][0]
            self.post("/clock", {"advanceSeconds": step_seconds})
        raise RuntimeError("no token rotated in %d steps of %d s" % (steps, step_seconds))


# A token the population never issued: 32 bytes, as Apple's are, that no seed draws in practice.
UNKNOWN_TOKEN = "0123456789abcdef" * 4
