"""Starts Tests/Mocks/mockproviders.py on free ports and talks to its control API.

    with MockProviders(tmp_dir) as mock:
        mock.script("fcm", token, [{"error": "UNAVAILABLE", "times": 2}])
        ...mock.requests("webpush", sub_id), mock.stats()

`mock.ready` holds the ready-file JSON (ports, caFile, serviceAccountFile, apnsKeyFile, ...).
"""
import json
import os
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "Tests", "Mocks", "mockproviders.py")


class MockProviders:
    def __init__(self, directory, *extra_args):
        self.directory = str(directory)
        self.extra_args = list(extra_args)
        self.process = None
        self.ready = None

    def __enter__(self):
        ready_file = os.path.join(self.directory, "ready.json")
        self.process = subprocess.Popen(
            [sys.executable, SCRIPT, "--dir", self.directory, "--ready-file", ready_file, *self.extra_args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 30
        while not os.path.exists(ready_file):
            if self.process.poll() is not None:
                raise RuntimeError("mock providers exited: " + self.process.stderr.read().decode())
            if time.time() > deadline:
                raise RuntimeError("mock providers did not become ready")
            time.sleep(0.05)
        with open(ready_file) as f:
            self.ready = json.load(f)
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=10)

    @property
    def https(self):
        return f"https://127.0.0.1:{self.ready['tlsPort']}"

    @property
    def http(self):
        return f"http://127.0.0.1:{self.ready['httpPort']}"

    def control(self, method, path, document=None):
        data = json.dumps(document).encode() if document is not None else None
        request = urllib.request.Request(self.http + path, data=data, method=method,
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def script(self, provider, token, responses, then=None):
        return self.control("POST", "/_mock/script",
                            {"provider": provider, "token": token, "responses": responses, "then": then})

    def requests(self, provider=None, token=None):
        query = "&".join(f"{k}={v}" for k, v in (("provider", provider), ("token", token)) if v is not None)
        return self.control("GET", "/_mock/requests?" + query)["requests"]

    def stats(self):
        return self.control("GET", "/_mock/stats")

    def reset(self):
        return self.control("POST", "/_mock/reset", {})
