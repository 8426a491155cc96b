"""How many Web Push messages one Python process prepares per second with pywebpush.

`PushBench e2e` (Web Push) runs this in the same run as the node's deliveries: for each push,
pywebpush's `WebPusher.encode` (RFC 8291 aes128gcm, a fresh ECDH key and salt) and a VAPID
header signed by py_vapid (ES256 JWT), round-robin over the same subscriptions the node
delivers to. Nothing is sent: pywebpush sends over HTTP/1.1 (requests), and the bench sink
speaks HTTP/2 only, so this is an upper bound of what pywebpush reaches, sending excluded.

argument: a JSON file {"subscriptions": [{"endpoint", "keys": {"p256dh", "auth"}}], "payloadBytes": N, "seconds": S}
stdout: {"pushes": N, "seconds": S, "rate": pushes per second}
"""

import json
import os
import sys
import time
from urllib.parse import urlsplit

from py_vapid import Vapid
from pywebpush import WebPusher


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as file:
        request = json.load(file)
    subscriptions = request["subscriptions"]
    payload = os.urandom(int(request["payloadBytes"]))
    duration = float(request["seconds"])
    vapid = Vapid()
    vapid.generate_keys()
    origin = urlsplit(subscriptions[0]["endpoint"])
    claims = {"aud": f"{origin.scheme}://{origin.netloc}", "sub": "mailto:bench@example.org"}

    def push(subscription: dict) -> None:
        encoded = WebPusher(subscription).encode(payload, content_encoding="aes128gcm")
        claims["exp"] = int(time.time()) + 12 * 3600
        headers = vapid.sign(dict(claims))
        assert encoded["body"] and headers["Authorization"]

    push(subscriptions[0])  # warm-up, not timed
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < duration:
        push(subscriptions[count % len(subscriptions)])
        count += 1
    elapsed = time.perf_counter() - start
    json.dump({"pushes": count, "seconds": elapsed, "rate": count / elapsed}, sys.stdout)


if __name__ == "__main__":
    main()
