"""A small HTTP/1.1 server connection (keep-alive, Content-Length bodies, answers in
request order) for the plain-HTTP port and TLS clients that do not offer h2."""

import asyncio

from mock_http import Request, mark_answered
from mock_state import ConnectionStats

_REASONS = {200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 400: "Bad Request",
            401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
            410: "Gone", 411: "Length Required", 413: "Payload Too Large", 415: "Unsupported Media Type",
            429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable"}


class H1Connection(asyncio.Protocol):
    def __init__(self, app, state, scheme):
        self.app = app
        self.state = state
        self.scheme = scheme
        self.buffer = bytearray()
        self.transport = None
        self.stats = ConnectionStats("http/1.1", scheme == "https")
        self.queue = []  # [response or None] in request order
        self.closed = False

    def connection_made(self, transport):
        self.transport = transport
        self.state.add_connection(self.stats)

    def connection_lost(self, exc):
        self.closed = True
        self.stats.open = False
        self.stats.open_streams = 0

    def data_received(self, data):
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
            try:
                method, target, version = head[0].split(" ", 2)
            except ValueError:
                self.transport.close()
                return
            headers = []
            for line in head[1:]:
                name, _, value = line.partition(":")
                headers.append((name.strip().lower(), value.strip()))
            fields = dict(headers)
            if "chunked" in fields.get("transfer-encoding", ""):
                self.write(Response411, close=True)
                return
            length = int(fields.get("content-length", "0") or 0)
            if len(self.buffer) < end + 4 + length:
                return
            body = bytes(self.buffer[end + 4:end + 4 + length])
            del self.buffer[:end + 4 + length]
            keep_alive = version == "HTTP/1.1" and fields.get("connection", "").lower() != "close"
            self.stats.stream_opened()
            request = Request(method, target, headers, body, "1.1", self.scheme, fields.get("host", ""), self.stats)
            slot = [None, keep_alive]
            self.queue.append(slot)
            response = self.app.handle(request)
            if response.delay_ms:
                asyncio.get_running_loop().call_later(response.delay_ms / 1000, self.ready, slot, response)
            else:
                self.ready(slot, response)

    def ready(self, slot, response):
        slot[0] = response
        while self.queue and self.queue[0][0] is not None and not self.closed:
            response, keep_alive = self.queue.pop(0)
            self.stats.stream_closed()
            mark_answered(response)
            if response.action in ("reset", "goaway", "close"):
                self.transport.abort()
                self.closed = True
                return
            self.write(response, close=not keep_alive or response.close)

    def write(self, response, close=False):
        lines = [f"HTTP/1.1 {response.status} {_REASONS.get(response.status, 'Status')}"]
        lines += [f"{k}: {v}" for k, v in response.headers]
        lines.append(f"content-length: {len(response.body)}")
        if close:
            lines.append("connection: close")
        self.transport.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + response.body)
        if close:
            self.transport.close()
            self.closed = True


class _Static:
    def __init__(self, status):
        self.status = status
        self.headers = []
        self.body = b""
        self.close = True
        self.action = None


Response411 = _Static(411)
