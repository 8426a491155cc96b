"""The real `pushnode serve` as a restartable child for the soak: one fixed port and one store for
every life, so senders keep their address across `kill -9`; each start is timed to its
`event=ready` line. The node's log goes to one file (appended over every life) and is read only
to find that line and, on failure, its tail (the node logs no tokens or payloads)."""
import os
import signal
import socket
import subprocess
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NodeProcess:
    def __init__(self, binary, env, log_path, ready_timeout=60):
        self.binary = binary
        self.port = free_port()
        self.env = dict(os.environ, PUSHNODE_LISTEN=f"127.0.0.1:{self.port}", PUSHNODE_ADMIN_LISTEN="", **env)
        self.log_path = log_path
        self.ready_timeout = ready_timeout
        self.proc = None
        self.starts = 0
        self.ready_times = []  # seconds from exec to `event=ready`, one per start

    def start(self):
        """Starts the node and waits for `event=ready`; returns the seconds it took. A start whose
        process exits first (a port still held by the killed one) is tried again."""
        began = time.monotonic()
        while True:
            offset = os.path.getsize(self.log_path) if os.path.exists(self.log_path) else 0
            with open(self.log_path, "ab") as log:
                self.proc = subprocess.Popen([self.binary, "serve"], env=self.env, stdout=subprocess.DEVNULL,
                                             stderr=log)
            if self._wait_ready(offset, began):
                break
            time.sleep(0.2)
        elapsed = time.monotonic() - began
        self.starts += 1
        self.ready_times.append(elapsed)
        return elapsed

    def _wait_ready(self, offset, began):
        while time.monotonic() - began < self.ready_timeout:
            with open(self.log_path, "rb") as log:
                log.seek(offset)
                if b"event=ready " in log.read():
                    return True
            if self.proc.poll() is not None:
                return False
            time.sleep(0.01)
        raise AssertionError(f"pushnode not ready within {self.ready_timeout} s:\n{self.log_tail()}")

    def kill(self):
        """SIGKILL: no shutdown at all."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self):
        """SIGTERM, the clean drain; returns the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=60)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, lines=40):
        try:
            with open(self.log_path, errors="replace") as log:
                return "".join(log.readlines()[-lines:])
        except FileNotFoundError:
            return ""
