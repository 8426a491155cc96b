"""The real `pushnode serve` binary as a test fixture: started on port 0 with a temporary data
directory, ready once it logs `event=ready listen=…`. Standard library HTTP client only.

`Node(binary, env=None, config_text=None, data_dir=None)`: `data_dir` reuses a directory across
processes (restart tests); it is then left in place by `stop`/`kill`. `log` holds every stderr
line (drained by a thread, so a chatty node never blocks on a full pipe)."""
import http.client
import json
import os
import re
import signal
import subprocess
import tempfile
import threading


class Node:
    def __init__(self, binary, env=None, config_text=None, data_dir=None):
        self.dir = tempfile.TemporaryDirectory()
        self.data_dir = data_dir or os.path.join(self.dir.name, "data")
        args = [binary, "serve"]
        if config_text is not None:
            path = os.path.join(self.dir.name, "config.yaml")
            with open(path, "w") as f:
                f.write(config_text)
            args += ["--config", path]
        environment = dict(os.environ, PUSHNODE_LISTEN="127.0.0.1:0",
                           PUSHNODE_DATA_DIR=self.data_dir, **(env or {}))
        self.proc = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=environment, text=True)
        self.log = []
        self.port = self.admin_port = None
        for line in self.proc.stderr:
            self.log.append(line)
            match = re.search(r"event=admin_listening listen=127\.0\.0\.1:(\d+)", line)
            if match:
                self.admin_port = int(match.group(1))
            match = re.search(r"event=ready listen=127\.0\.0\.1:(\d+)", line)
            if match:
                self.port = int(match.group(1))
                break
        assert self.port, "".join(self.log)
        # Keep draining stderr: a full pipe would block the node's next log line (and its request).
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def _drain(self):
        for line in self.proc.stderr:
            self.log.append(line)

    @property
    def database(self):
        """The SQLite file of the embedded store."""
        return os.path.join(self.data_dir, "pushnode.sqlite")

    def request(self, method, target, headers=None, body=b"", port=None):
        conn = http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=30)
        conn.request(method, target, body=body or None, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        conn.close()
        return response.status, dict(response.getheaders()), data

    def json(self, method, target, **kwargs):
        status, headers, data = self.request(method, target, **kwargs)
        return status, headers, json.loads(data)

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=30)
        self.reader.join(timeout=30)
        self.dir.cleanup()
        return code

    def kill(self):
        """SIGKILL: no shutdown, no flush. Returns the exit code (-9)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        code = self.proc.wait(timeout=30)
        self.reader.join(timeout=30)
        self.dir.cleanup()
        return code
