"""The short soak of `make test` (the long one is `make soak`): Tests/Soak/soak.py with small numbers
through the real binary — a steady Notify load, `kill -9` every 1.5–4 s with restarts on the same
store, on PostgreSQL a database stop/start in the middle — and the exact account: every 200 delivered
to every device at least once, no answer but 200 and 503 `storage.unavailable` (PROTOCOL §3.2, §4.3)."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT

SOAK = os.path.join(ROOT, "Tests", "Soak", "soak.py")
SECONDS = {"sqlite": 12, "postgres": 16}  # at least three kill intervals of at most 4 s each (two kills on postgres, then the outage)


@pytest.mark.parametrize("storage", ["sqlite", "postgres"])
def test_a_short_soak_loses_no_200(pushnode_bin, storage):
    proc = subprocess.run([sys.executable, SOAK, "--binary", pushnode_bin, "--storage", storage,
                           "--minutes", str(SECONDS[storage] / 60), "--json"],
                          capture_output=True, text=True, timeout=240)
    print(proc.stdout)
    line = next((l for l in proc.stdout.splitlines() if l.startswith("SOAK ")), None)
    assert line, proc.stdout + proc.stderr
    figures = json.loads(line[len("SOAK "):])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert figures["lost"] == 0 and figures["unexpected"] == {}
    assert figures["accepted"] > 0 and figures["delivered"] == figures["deliveries_expected"]
    assert figures["kills"] >= 2 and figures["restarts"] == figures["kills"]
    if storage == "postgres":
        assert len(figures["outages"]) == 1 and figures["answers"]["503 storage.unavailable"] > 0
