"""What contrib/ ships for watching a node, checked against the real thing: the Prometheus alerting
rules (`promtool check rules`, `promtool test rules`), the Grafana dashboard (valid JSON, every
PromQL expression parses offline and on a live Prometheus, every metric it names is one a live node
exports), and a real Prometheus scraping a real node whose FCM mock is down: the provider alert
fires, read through Prometheus's HTTP API."""
import json
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.parse
import urllib.request

import pytest

from mockproviders_helper import MockProviders
from pushnode_node import Node, wait_for
from test_delivery_e2e import node_env

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RULES_DIR = os.path.join(ROOT, "contrib", "prometheus")
ALERTS = os.path.join(RULES_DIR, "alerts.yml")
DASHBOARD = os.path.join(ROOT, "contrib", "grafana", "pushnode.json")
# Grafana's variables, as a viewer's defaults would set them.
GRAFANA_VARIABLES = {"$__rate_interval": "5m", "$job": "pushnode", "$instance": ".*"}
NOT_METRICS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless",
               "offset", "bool", "inf", "nan"}


def tool(name):
    path = shutil.which(name)
    assert path, f"{name} is missing: `make test-deps` installs Debian's prometheus"
    return path


def metric_names(expr):
    """The metric names a PromQL expression selects: identifiers left once strings, label matchers,
    ranges and grouping clauses are cut, that are neither a function (followed by "(") nor a keyword."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    text = re.sub(r"\{[^}]*\}|\[[^\]]*\]", " ", text)
    text = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    names = set()
    for match in re.finditer(r"(?<![\w:.])[A-Za-z_:][\w:]*", text):
        if not text[match.end():].lstrip().startswith("(") and match.group(0).lower() not in NOT_METRICS:
            names.add(match.group(0))
    return names


def dashboard_queries():
    """Every panel target's expression and the templating query, Grafana variables filled in."""
    with open(DASHBOARD) as f:
        dashboard = json.load(f)
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])]
    exprs += [v["query"]["query"].removeprefix("label_values(").rsplit(",", 1)[0]
              for v in dashboard["templating"]["list"] if v["type"] == "query"]
    filled = []
    for expr in exprs:
        for variable, value in GRAFANA_VARIABLES.items():
            expr = expr.replace(variable, value)
        assert "$" not in expr, f"unknown Grafana variable in {expr}"
        filled.append(expr)
    return dashboard, filled


def exported_names(metrics_text):
    """The series names a /metrics text can produce: each family, and a histogram's parts."""
    names = set()
    for line in metrics_text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split()
            names.add(name)
            if kind in ("histogram", "summary"):
                names |= {name + "_sum", name + "_count"} | ({name + "_bucket"} if kind == "histogram" else set())
    return names


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prometheus_api(port, path, **query):
    url = f"http://127.0.0.1:{port}/api/v1/{path}?" + urllib.parse.urlencode(query)
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        return json.loads(error.read())


@pytest.fixture(scope="module")
def watched(pushnode_bin, tmp_path_factory):
    """A node with its admin listener, whose FCM mock is down (stopped before the node starts:
    no access token can be minted), and a real Prometheus scraping it every second with
    alerts.yml, each rule's `for` cut to 1 s."""
    directory = tmp_path_factory.mktemp("watched")
    with MockProviders(directory / "mock") as mock:
        env = node_env(mock, PUSHNODE_ADMIN_LISTEN="127.0.0.1:0")
    node = Node(pushnode_bin, env=env)
    rules = directory / "alerts.yml"
    with open(ALERTS) as f:
        rules.write_text(re.sub(r"(?m)^(\s+for:) \S+$", r"\1 1s", f.read()))
    config = directory / "prometheus.yml"
    config.write_text(json.dumps({
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(rules)],
        "scrape_configs": [{"job_name": "pushnode", "static_configs": [{"targets": [f"127.0.0.1:{node.admin_port}"]}]}],
    }))
    port = free_port()
    log = open(directory / "prometheus.log", "w")
    prometheus = subprocess.Popen([tool("prometheus"), f"--config.file={config}", f"--storage.tsdb.path={directory / 'tsdb'}",
                                   f"--web.listen-address=127.0.0.1:{port}"], stdout=log, stderr=log)

    def ready():
        assert prometheus.poll() is None, (directory / "prometheus.log").read_text()
        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{port}/-/ready", timeout=2).status == 200
        except OSError:
            return False
    try:
        wait_for(ready, message="Prometheus ready")
        yield node, port
    finally:
        prometheus.terminate()
        prometheus.wait(timeout=30)
        log.close()
        node.stop()


def test_the_alert_rules_pass_promtool_check_and_their_unit_tests():
    for args in (["check", "rules", "alerts.yml"], ["test", "rules", "alerts.test.yml"]):
        proc = subprocess.run([tool("promtool"), *args], cwd=RULES_DIR, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0 and "SUCCESS" in proc.stdout, proc.stdout + proc.stderr


def test_metric_names_are_read_from_promql():
    assert metric_names('histogram_quantile(0.99, sum by (le, provider) (rate(a_bucket{x="y{z}"}[5m]))) > 5 '
                        'and on (job) b:c offset 1h') == {"a_bucket", "b:c"}
    assert metric_names("up == 0") == {"up"}


def test_the_dashboard_is_valid_and_names_only_metrics_a_live_node_exports(watched, tmp_path):
    node, port = watched
    dashboard, queries = dashboard_queries()
    assert dashboard["uid"] and dashboard["title"] and dashboard["schemaVersion"] >= 36
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids)) and len(queries) >= 20
    for panel in dashboard["panels"]:
        assert panel["type"] == "row" or (panel["targets"] and panel["datasource"]["uid"] == "${datasource}"), panel["title"]

    # Offline: promtool parses each expression (as a recording rule).
    rules = tmp_path / "dashboard-rules.yml"
    rules.write_text(json.dumps({"groups": [{"name": "dashboard", "rules": [
        {"record": f"dashboard:query{i}", "expr": expr} for i, expr in enumerate(queries)]}]}))
    proc = subprocess.run([tool("promtool"), "check", "rules", str(rules)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # Online: the live Prometheus evaluates each without an error.
    for expr in queries:
        answer = prometheus_api(port, "query", query=expr)
        assert answer["status"] == "success", (expr, answer)

    _, _, text = node.request("GET", "/metrics", port=node.admin_port)
    exported = exported_names(text.decode()) | {"up"}  # `up`: Prometheus's own, per scrape target
    with open(ALERTS) as f:
        alert_exprs = re.findall(r"expr: \|?\n?((?:.+\n)+?)\s+(?:for|labels):", f.read())
    named = set().union(*(metric_names(expr) for expr in queries + alert_exprs))
    assert {"pushnode_deliveries_total", "pushnode_delivery_latency_seconds_bucket", "process_open_fds"} <= named
    assert named <= exported, f"named but not exported: {sorted(named - exported)}"


def test_prometheus_fires_the_provider_alert_for_a_node_whose_provider_is_down(watched):
    node, port = watched

    def firing():
        alerts = prometheus_api(port, "alerts")["data"]["alerts"]
        return [a for a in alerts if a["state"] == "firing"] or None
    alerts = wait_for(firing, timeout=60, message="a firing alert")
    time.sleep(3)  # a few more evaluations: nothing else may fire for this node
    alerts = firing()
    assert [(a["labels"]["alertname"], a["labels"]["provider"], a["labels"]["instance"]) for a in alerts] == \
        [("PushnodeProviderUnhealthy", "fcm", f"127.0.0.1:{node.admin_port}")], alerts
    assert alerts[0]["annotations"]["summary"] == f"fcm refuses the credentials or configuration of 127.0.0.1:{node.admin_port}"
    up = prometheus_api(port, "query", query='up{job="pushnode"}')["data"]["result"]
    assert [sample["value"][1] for sample in up] == ["1"]
