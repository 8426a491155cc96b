"""Packaging through the real tools: `make deb` builds the Debian package from the release binary
already built (never rebuilding it), `dpkg-deb -I`/`-c` show its control data and contents,
`dpkg-deb -x` unpacks it into a throwaway root, and the unpacked binary — loading the Swift
runtime the package bundles, not the toolchain's — serves `/readyz` on the packaged config. Also
`make install DESTDIR=…`. Skipped only where dpkg-deb is missing."""
import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT
from pushnode_node import Node

pytestmark = pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="dpkg-deb is not installed")

RUNTIME_LIBS = ["libsodium23", "libssl3", "libcurl4", "libsqlite3-0", "libyaml-0-2", "libmicrohttpd12", "libpq5"]


def run(*args, **kwargs):
    proc = subprocess.run(args, capture_output=True, text=True, timeout=120, **kwargs)
    assert proc.returncode == 0, f"{' '.join(args)}: {proc.stderr}"
    return proc.stdout


def make(*args):
    return run("make", "--no-print-directory", "-s", "-C", ROOT, *args)


def version():
    with open(os.path.join(ROOT, "Sources", "PushSupport", "NodeVersion.swift")) as f:
        return re.search(r'current = "([^"]+)"', f.read()).group(1).replace("-", "~")


def needed(path):
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", run("readelf", "-d", path))


def owning_packages(sonames):
    """The Debian package that provides each soname on this system (one ldconfig, one dpkg -S)."""
    cache = run("ldconfig", "-p")
    candidates = {}
    for soname in sonames:
        match = re.search(rf"^\s+{re.escape(soname)} \(.*\) => (\S+)$", cache, re.M)
        assert match, f"{soname} is not installed here"
        real = os.path.realpath(match.group(1))
        # usrmerge: dpkg may know the file under /lib or /usr/lib.
        candidates[soname] = {match.group(1), real} | {p.replace("/usr/lib/", "/lib/", 1) for p in (match.group(1), real)}
    paths = sorted(set().union(*candidates.values()))
    listed = subprocess.run(["dpkg", "-S", *paths], capture_output=True, text=True).stdout
    owner = {path.strip(): package.split(":")[0] for package, path in
             (line.rsplit(": ", 1) for line in listed.splitlines() if ": " in line)}
    found = {soname: next((owner[p] for p in paths if p in owner), None) for soname, paths in candidates.items()}
    assert all(found.values()), f"no package owns {[s for s, p in found.items() if not p]}"
    return found


@pytest.fixture(scope="module")
def package(pushnode_bin, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("deb") / "pushnode.deb")
    before = os.stat(pushnode_bin).st_mtime
    make("deb", f"BIN={pushnode_bin}", f"DEB={out}")
    assert os.stat(pushnode_bin).st_mtime == before  # reused, not rebuilt
    return out


def test_the_control_data_names_the_package_its_runtime_libraries_and_guarded_scripts(package):
    info = run("dpkg-deb", "-I", package)
    fields = dict(re.findall(r"^ ([A-Z][\w-]+): (.*)$", info, re.M))
    assert fields["Package"] == "pushnode" and fields["Version"] == version()
    assert fields["Architecture"] == run("dpkg", "--print-architecture").strip()
    depends = [d.strip() for d in fields["Depends"].split(",")]
    assert set(RUNTIME_LIBS) <= set(depends), depends
    assert run("dpkg-deb", "-f", package, "Package").strip() == "pushnode"
    for script in ("postinst", "prerm", "postrm", "conffiles"):
        assert re.search(rf"^\s+\d+ bytes,\s+\d+ lines\s+\*?\s+{script}\b", info, re.M), info


def test_the_contents_are_the_binary_the_runtime_the_unit_the_config_and_docs(package):
    listing = run("dpkg-deb", "-c", package)
    paths = {line.split()[5].removeprefix(".") for line in listing.splitlines()}
    for path in ("/usr/lib/pushnode/pushnode", "/usr/lib/pushnode/libswiftCore.so", "/usr/lib/pushnode/libFoundation.so",
                 "/lib/systemd/system/pushnode.service", "/etc/pushnode/config.yaml",
                 "/usr/share/doc/pushnode/copyright", "/usr/share/doc/pushnode/self-hosting.md"):
        assert path in paths, path
    assert re.search(r"^l\S+ root/root .* \./usr/bin/pushnode -> \.\./lib/pushnode/pushnode$", listing, re.M)
    assert not any("/opt/" in p or p.startswith("/usr/local") for p in paths)


def test_unpacked_it_is_self_contained_and_serves_readyz(package, tmp_path):
    root = tmp_path / "root"
    run("dpkg-deb", "-x", package, str(root))
    lib = root / "usr" / "lib" / "pushnode"
    binary = str(lib / "pushnode")
    assert re.search(r"\(RUNPATH\)\s+Library runpath: \[\$ORIGIN\]", run("readelf", "-d", binary))

    # Every library the binary and the bundled runtime link is bundled or comes from a Depends package.
    control = run("dpkg-deb", "-f", package, "Depends")
    depends = {d.strip() for d in control.split(",")}
    bundled = set(os.listdir(lib))
    external = {soname for elf in [binary] + [str(lib / name) for name in bundled if name.endswith(".so")]
                for soname in needed(elf) if soname not in bundled}
    assert {"libsodium.so.23", "libcurl.so.4", "libnghttp2.so.14", "libstdc++.so.6"} <= external
    owners = owning_packages(external)
    assert {soname: p for soname, p in owners.items() if p not in depends} == {}

    unit = (root / "lib" / "systemd" / "system" / "pushnode.service").read_text()
    for directive in ("ExecStart=/usr/bin/pushnode serve --config /etc/pushnode/config.yaml", "DynamicUser=yes",
                      "StateDirectory=pushnode", "ConfigurationDirectory=pushnode", "ProtectSystem=strict",
                      "ProtectHome=yes", "NoNewPrivileges=yes", "PrivateTmp=yes", "Restart=on-failure", "RestartSec=",
                      "ExecReload=/bin/kill -HUP $MAINPID"):
        assert directive in unit, directive
    if shutil.which("systemd-analyze"):  # systemd's own check of every directive (no running systemd needed)
        (tmp_path / "units").mkdir()
        (tmp_path / "units" / "pushnode.service").write_text(unit.replace("/usr/bin/pushnode", str(root / "usr/bin/pushnode")))
        proc = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "units" / "pushnode.service")],
                              capture_output=True, text=True, timeout=60)
        assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    packaged = (root / "etc" / "pushnode" / "config.yaml").read_text()
    assert "\ndataDir: /var/lib/pushnode\n" in packaged
    data_dir = str(tmp_path / "data")
    config = packaged.replace("dataDir: /var/lib/pushnode", f"dataDir: {data_dir}").replace(
        "listen: 127.0.0.1:8765", "listen: 127.0.0.1:0")

    node = Node(str(root / "usr" / "bin" / "pushnode"), config_text=config, data_dir=data_dir)
    try:
        assert json.loads(run("curl", "-sf", f"http://127.0.0.1:{node.port}/readyz"))["status"] == "ready"
        maps = open(f"/proc/{node.proc.pid}/maps").read()
        assert str(lib / "libswiftCore.so") in maps and "/opt/swift" not in maps
        assert os.path.exists(os.path.join(data_dir, "vapid.pem"))
    finally:
        assert node.stop() == 0


def test_make_install_honours_destdir_and_prefix(pushnode_bin, tmp_path):
    stage = tmp_path / "stage"
    make("install", f"BIN={pushnode_bin}", f"DESTDIR={stage}", "PREFIX=/opt/pn")
    assert os.access(stage / "opt/pn/bin/pushnode", os.X_OK)
    assert (stage / "opt/pn/share/pushnode/config.yaml.example").exists()
    unit = (stage / "opt/pn/lib/systemd/system/pushnode.service").read_text()
    assert "ExecStart=/opt/pn/bin/pushnode serve --config /etc/pushnode/config.yaml" in unit
    assert "dataDir: /var/lib/pushnode" in (stage / "etc/pushnode/config.yaml").read_text()
    (stage / "etc/pushnode/config.yaml").write_text("listen: 127.0.0.1:9\n")  # an admin's config is kept
    make("install", f"BIN={pushnode_bin}", f"DESTDIR={stage}", "PREFIX=/opt/pn")
    assert (stage / "etc/pushnode/config.yaml").read_text() == "listen: 127.0.0.1:9\n"
