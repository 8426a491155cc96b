"""Transport-neutral request/response values shared by the HTTP/1.1 and HTTP/2 servers."""

import json
import time


class Request:
    __slots__ = ("method", "path", "query", "headers", "body", "http_version", "scheme",
                 "authority", "connection")

    def __init__(self, method, target, headers, body, http_version, scheme, authority, connection):
        self.method = method
        path, _, query = target.partition("?")
        self.path = path
        self.query = query
        self.headers = headers  # list of (lowercased name, value) str pairs, in order
        self.body = body
        self.http_version = http_version  # "1.1" or "2"
        self.scheme = scheme
        self.authority = authority
        self.connection = connection  # the ConnectionStats of the carrying connection

    def header(self, name):
        values = [v for k, v in self.headers if k == name]
        return ", ".join(values) if values else None

    def header_count(self, name):
        return sum(1 for k, _ in self.headers if k == name)

    def query_params(self):
        params = {}
        for part in self.query.split("&"):
            if part:
                k, _, v = part.partition("=")
                params[_unquote(k)] = _unquote(v)
        return params

    @property
    def origin(self):
        return f"{self.scheme}://{self.authority}"


def _unquote(text):
    from urllib.parse import unquote_plus
    return unquote_plus(text)


class Response:
    """An answer. `action` replaces it with misbehaviour: "reset" (RST_STREAM, or
    closing an HTTP/1.1 connection), "goaway" (GOAWAY that refuses this stream, then
    close), "close" (drop the connection without answering)."""

    __slots__ = ("status", "headers", "body", "delay_ms", "action", "close", "record")

    def __init__(self, status=200, headers=None, body=b"", delay_ms=0, action=None, close=False):
        self.status = status
        self.headers = headers or []
        self.body = body
        self.delay_ms = delay_ms
        self.action = action
        self.close = close
        self.record = None  # the request's State record, completed by mark_answered()


def mark_answered(response):
    """Stamps the request's record with the time its answer (or reset/close) left the mock."""
    record = getattr(response, "record", None)
    if record is not None and record["answered"] is None:
        record["answered"] = time.time()


def json_response(status, document, headers=None, **kwargs):
    body = json.dumps(document, separators=(",", ":")).encode()
    return Response(status, [("content-type", "application/json; charset=UTF-8")] + (headers or []), body, **kwargs)
