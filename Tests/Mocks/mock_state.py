"""What the mock remembers: per-token scripts, received requests, and counters."""

import base64
import collections
import itertools
import time


class ConnectionStats:
    _ids = itertools.count(1)

    def __init__(self, protocol, tls):
        self.id = next(self._ids)
        self.protocol = protocol  # "h2" or "http/1.1"
        self.tls = tls
        self.requests = 0
        self.open_streams = 0
        self.max_concurrent_streams = 0
        self.open = True

    def stream_opened(self):
        self.requests += 1
        self.open_streams += 1
        if self.open_streams > self.max_concurrent_streams:
            self.max_concurrent_streams = self.open_streams

    def stream_closed(self):
        self.open_streams -= 1

    def as_dict(self):
        return {"id": self.id, "protocol": self.protocol, "tls": self.tls, "requests": self.requests,
                "maxConcurrentStreams": self.max_concurrent_streams, "open": self.open}


class Script:
    """Scripted answers for one (provider, token): `responses` in order (each may repeat
    `times`), then `then` for every later request (None: behave normally)."""

    def __init__(self, responses, then):
        self.queue = collections.deque()
        for entry in responses:
            for _ in range(int(entry.get("times", 1))):
                self.queue.append(entry)
        self.then = then

    def next(self):
        if self.queue:
            return self.queue.popleft()
        return self.then


class State:
    def __init__(self, record=True, keep=200_000):
        self.record = record
        self.keep = keep
        self.connections = []  # ConnectionStats, most recent last
        self.reset()

    def reset(self):
        self.scripts = {}
        self.requests = collections.deque(maxlen=self.keep)
        self.counts = collections.Counter()
        self.token_mints = 0
        self.huawei_token_mints = 0  # Huawei Push Kit v1 client-credentials tokens
        self.revoked_before = 0.0  # access tokens minted before this are refused
        self.keys_revoked = False  # /_mock/revoke {"keys": true}: the signing keys themselves
        self.connections = [c for c in self.connections if c.open]
        for c in self.connections:
            c.requests = 0
            c.max_concurrent_streams = c.open_streams

    def add_connection(self, stats):
        self.connections.append(stats)
        if len(self.connections) > 10_000:
            self.connections = [c for c in self.connections if c.open] + self.connections[-1000:]

    def set_script(self, provider, token, responses, then):
        self.scripts[(provider, token)] = Script(responses, then)

    def scripted(self, provider, token):
        script = self.scripts.get((provider, token))
        return script.next() if script else None

    def remember(self, provider, token, request, status):
        """Records a request; returns its record (None with --no-record), which the connection
        completes with "answered" once the answer (or the scripted reset/close) goes out."""
        self.counts[provider] += 1
        if not self.record:
            return None
        record = {
            "provider": provider,
            "token": token,
            "method": request.method,
            "path": request.path,
            "headers": [[k, v] for k, v in request.headers],
            "body": base64.b64encode(request.body).decode(),
            "httpVersion": request.http_version,
            "connection": request.connection.id,
            "status": status,
            "time": time.time(),
            "answered": None,
        }
        self.requests.append(record)
        return record

    def received(self, provider=None, token=None):
        return [r for r in self.requests
                if (provider is None or r["provider"] == provider) and (token is None or r["token"] == token)]

    def stats(self):
        opened = self.connections
        return {
            "requests": dict(self.counts),
            "tokenMints": self.token_mints,
            "huaweiTokenMints": self.huawei_token_mints,
            "connections": {
                "total": len(opened),
                "open": sum(1 for c in opened if c.open),
                "h2": sum(1 for c in opened if c.protocol == "h2"),
                "http1": sum(1 for c in opened if c.protocol == "http/1.1"),
            },
            "maxConcurrentStreams": max((c.max_concurrent_streams for c in opened), default=0),
            "perConnection": [c.as_dict() for c in opened[-100:]],
        }
