"""Senders for the soak: each its own account, calling a signed `POST /v1/notify` at a steady rate
and retrying the identical body (signed afresh, as PushClient does) while the node is down or
answers 503, until it is answered 200. Every answer is tallied in one `Ledger`.

Allowed answers are 200 and 503 `storage.unavailable` with `Retry-After` (PROTOCOL §3.2); a
connection that fails (the node was killed) is no answer and promises nothing. Anything else is
unexpected and fails the soak."""
import collections
import http.client
import json
import threading
import time

from nodeclient import Account

RETRY_DELAY = 0.25  # shorter than the node's Retry-After: the soak wants many tries per outage


class Ledger:
    def __init__(self):
        self.lock = threading.Lock()
        self.notifies = 0                       # distinct Notify bodies
        self.answers = collections.Counter()    # "200", "200 duplicate", "503 storage.unavailable", "no answer", …
        self.accepted = set()                   # notification ids answered 200
        self.unexpected = collections.Counter() # answers that are neither 200 nor a proper 503
        self.gave_up = 0                        # bodies the run ended on before any 200

    def tally(self, key, unexpected=False):
        with self.lock:
            self.answers[key] += 1
            if unexpected:
                self.unexpected[key] += 1


def post(port, path, headers, body, timeout=10):
    """(status, headers, parsed JSON or None), or None when the connection failed."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
    except (OSError, http.client.HTTPException):
        return None
    finally:
        conn.close()
    try:
        parsed = json.loads(data) if data else None
    except ValueError:
        parsed = None
    return response.status, {k.lower(): v for k, v in response.getheaders()}, parsed


class Sender(threading.Thread):
    """`stop`: make no new Notify; `give_up`: stop retrying the one in hand."""

    def __init__(self, port, topic, rate, ledger, stop, give_up):
        super().__init__(daemon=True)
        self.port, self.topic, self.interval = port, topic, 1.0 / rate
        self.ledger, self.stop, self.give_up = ledger, stop, give_up
        self.account = Account()

    def run(self):
        next_at = time.monotonic()
        while not self.stop.is_set():
            if self.stop.wait(max(0.0, next_at - time.monotonic())):
                break
            next_at += self.interval
            body = json.dumps(self.account.notify([self.topic])).encode()
            with self.ledger.lock:
                self.ledger.notifies += 1
            self.send(body)

    def send(self, body):
        while True:
            headers = dict(self.account.headers("POST", "/v1/notify", body), **{"Content-Type": "application/json"})
            answer = post(self.port, "/v1/notify", headers, body)
            if answer is None:
                self.ledger.tally("no answer")
            else:
                status, response_headers, document = answer
                if status == 200 and document and len(document.get("id", "")) == 32:
                    self.ledger.tally("200 duplicate" if document.get("duplicate") else "200")
                    with self.ledger.lock:
                        self.ledger.accepted.add(document["id"])
                    return
                code = (document or {}).get("error", {}).get("code") if isinstance(document, dict) else None
                if status == 503 and code == "storage.unavailable" and response_headers.get("retry-after", "").isdigit():
                    self.ledger.tally("503 storage.unavailable")
                else:
                    self.ledger.tally(f"{status} {code or 'no error code'}", unexpected=True)
                    return
            if self.give_up.wait(RETRY_DELAY):
                with self.ledger.lock:
                    self.ledger.gave_up += 1
                return
