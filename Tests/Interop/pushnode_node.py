"""The real `pushnode serve` binary as a test fixture: started on port 0, its stderr drained
by a thread (delivery logs must never fill the pipe), stopped with SIGTERM or killed with
SIGKILL, and restartable on the same data directory."""
import http.client
import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time


class Node:
    """`log_file`: the node logs to that file (`log.file`) instead of stderr; `text_log()` then
    reads the file, and the port is found there."""

    def __init__(self, binary, env=None, config_text=None, data_dir=None, log_file=None):
        self.dir = tempfile.TemporaryDirectory()
        self.log_file = log_file
        self.data_dir = data_dir or os.path.join(self.dir.name, "data")
        args = [binary, "serve"]
        if config_text is not None:
            path = os.path.join(self.dir.name, "config.yaml")
            with open(path, "w") as f:
                f.write(config_text)
            args += ["--config", path]
        # The default admin listener (127.0.0.1:9765) is off unless the test asks for one: test nodes
        # run side by side, and /metrics then stays on the API listener as the tests expect.
        no_admin = {} if config_text and "adminListen" in config_text else {"PUSHNODE_ADMIN_LISTEN": ""}
        # Every test client is 127.0.0.1: the limit on accounts one address may bring
        # (limits.newAccountsPerAddress) is off unless the test sets it.
        one_address = {} if config_text and "newAccountsPerAddress" in config_text else {
            "PUSHNODE_LIMITS_NEW_ACCOUNTS_PER_ADDRESS": "0"}
        # `env` wins, a fixed PUSHNODE_LISTEN included (a node restarted where a client expects it).
        environment = {**os.environ, "PUSHNODE_LISTEN": "127.0.0.1:0", "PUSHNODE_DATA_DIR": self.data_dir,
                       **no_admin, **one_address, **(env or {})}
        if log_file:
            environment["PUSHNODE_LOG_FILE"] = log_file
        self.proc = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=environment, text=True)
        self.log = []
        self.port = self.admin_port = None
        if log_file:
            self.reader = threading.Thread(target=self._drain, daemon=True)
            self.reader.start()
            wait_for(lambda: self._find_ports(self.text_log().splitlines()) or self.proc.poll() is not None,
                     message="event=ready in " + log_file)
        else:
            for line in self.proc.stderr:
                self.log.append(line)
                if self._find_ports([line]):
                    break
            self.reader = threading.Thread(target=self._drain, daemon=True)
            self.reader.start()
        assert self.port, self.text_log() + "".join(self.log)

    def _find_ports(self, lines):
        """Reads the listeners' ports from `event=admin_listening` / `event=ready` lines (text or json)."""
        for line in lines:
            match = re.search(r'"?event"?[=:]"?admin_listening"?.*"?listen"?[=:]"?127\.0\.0\.1:(\d+)', line)
            if match:
                self.admin_port = int(match.group(1))
            match = re.search(r'"?event"?[=:]"?ready"?.*"?listen"?[=:]"?127\.0\.0\.1:(\d+)', line)
            if match:
                self.port = int(match.group(1))
                return True
        return False

    def _drain(self):
        for line in self.proc.stderr:
            self.log.append(line)

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

    def metric(self, name, **labels):
        """The sum of the series of one metric from /metrics that carry `labels` (0 when none does),
        whatever their other labels (the delivery metrics' `app`, PROTOCOL §10); from the admin
        listener when the node has one (it is served only there)."""
        _, _, text = self.request("GET", "/metrics", port=self.admin_port)
        wanted = {f'{k}="{v}"' for k, v in labels.items()}
        total, found = 0.0, False
        for line in text.decode().splitlines():
            if line.startswith("#"):
                continue
            series, _, value = line.rpartition(" ")
            head, _, rest = series.partition("{")
            if head != name:
                continue
            got = set(rest.rstrip("}").split(",")) if rest else set()
            if wanted <= got:
                total, found = total + float(value), True
        return total if found else 0.0

    def text_log(self):
        if self.log_file:
            try:
                with open(self.log_file) as f:
                    return f.read()
            except FileNotFoundError:
                return ""
        return "".join(self.log)

    def _finish(self, cleanup):
        self.reader.join(timeout=30)
        if cleanup:
            self.dir.cleanup()

    def stop(self, cleanup=True):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=30)
        self._finish(cleanup)
        return code

    def kill(self, cleanup=True):
        """SIGKILL: no shutdown at all (crash test)."""
        self.proc.kill()
        code = self.proc.wait(timeout=30)
        self._finish(cleanup)
        return code


def wait_for(predicate, timeout=30, interval=0.05, message="condition"):
    """Polls until `predicate()` is truthy; returns its value. Fails after `timeout` s."""
    deadline = time.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting for {message}")
        time.sleep(interval)
