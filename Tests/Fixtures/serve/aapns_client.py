#!/usr/bin/env python3
"""aapns against `pushsim serve --tls`, with only its host, port and CA set (its `Server`
options).

Usage: aapns_client.py TLS_PORT CONTROL_PORT CA_FILE TOPIC cert CLIENT_PEM
       aapns_client.py TLS_PORT CONTROL_PORT CA_FILE TOPIC key KEY_FILE KEY_ID TEAM_ID
aapns authenticates by client certificate only (`Server(client_cert_path, host, port,
ca_file)`); for a provider token the script sends through aapns's own HTTP/2 connection pool
(`aapns.pool.Pool`, `Request`) with the `authorization` header a token provider sends (PyJWT,
ES256). Its API reports an error's reason, not 410's timestamp: the timestamp is read from
the pool's `Response.data`, aapns's parse of the body. Prints one JSON object as
aioapns_apple.py does.
"""
import asyncio
import json
import signal
import sys
import time

import jwt
from aapns import errors
from aapns.api import APNS, Server
from aapns.models import Alert, Notification
from aapns.pool import Pool, Request, create_ssl_context

from control import Control, UNKNOWN_TOKEN


async def run(arguments):
    port, control_port, ca_file, topic, kind = int(arguments[0]), int(arguments[1]), arguments[2], arguments[3], arguments[4]
    headers = {"apns-topic": topic, "apns-push-type": "alert"}
    if kind == "cert":
        client = await Server(client_cert_path=arguments[5], host="localhost", port=port, ca_file=ca_file).create_client()
        pool = client.pool
    else:
        with open(arguments[5]) as file:
            key = file.read()
        token = jwt.encode({"iss": arguments[7], "iat": int(time.time())}, key, algorithm="ES256",
                           headers={"kid": arguments[6]})
        headers["authorization"] = "bearer " + token
        context = create_ssl_context()
        context.load_verify_locations(cafile=ca_file)
        pool = await Pool.create("https://localhost:%d" % port, size=1, ssl=context)
        client = APNS(pool)
    control = Control(control_port)
    notification = Notification(alert=Alert(title="aapns", body="over TLS"))

    async def push(token):
        if kind == "cert":
            try:
                await client.send_notification(token, notification, topic=topic)
                answer = {"status": 200, "reason": None}
            except errors.ResponseError as error:
                answer = {"status": None, "reason": error.reason}
        # The status and timestamp, as aapns's pool parsed them (its API keeps only the reason).
        response = await pool.post(Request.new(path="/3/device/" + token, header=headers, data=notification.get_dict()))
        data = response.data or {}
        parsed = {"status": response.code, "reason": data.get("reason"), "timestamp": data.get("timestamp")}
        if kind == "cert":
            parsed["apiReason"] = answer["reason"]
        return parsed

    result = {"current": await push(control.devices(topic)[0]["token"]), "unknown": await push(UNKNOWN_TOKEN)}
    _, old = control.rotated(topic)
    result["rotatedAt"] = control.get("/clock")["epochMilliseconds"]
    result["rotated"] = await push(old)
    await pool.close()
    print(json.dumps(result))


def main():
    signal.alarm(90)
    asyncio.run(run(sys.argv[1:]))


if __name__ == "__main__":
    main()
