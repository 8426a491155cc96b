"""Shared fixtures: the pushnode binary under test (PUSHNODE_BIN, set by `make interop`)."""
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VECTORS = os.path.join(ROOT, "Spec", "vectors")


@pytest.fixture(scope="session")
def pushnode_bin():
    path = os.environ.get("PUSHNODE_BIN") or os.path.join(ROOT, ".build", "release", "pushnode")
    assert os.path.exists(path), f"build pushnode first ({path})"
    return path


def run_cli(binary, *args, stdin=b"", check=True):
    """Runs the CLI; returns (returncode, stdout bytes, stderr text)."""
    proc = subprocess.run([binary, *args], input=stdin, capture_output=True, timeout=60)
    if check and proc.returncode != 0:
        raise AssertionError(f"pushnode {' '.join(args)} failed: {proc.stderr.decode()}")
    return proc.returncode, proc.stdout, proc.stderr.decode()


def cli_json(binary, *args, stdin=b""):
    _, out, _ = run_cli(binary, *args, stdin=stdin)
    return json.loads(out)
