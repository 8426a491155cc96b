#!/bin/bash
# Builds the Debian package from an already built release binary (never builds it):
#   contrib/debian/build-deb.sh BINARY VERSION ARCH OUT.deb [COMPRESSION]
#
# Layout: /usr/lib/pushnode/pushnode with the Swift runtime libraries it links (the toolchain's
# copies, found through ldd) beside it and its RUNPATH set to $ORIGIN alone, so it never loads
# another toolchain's runtime; /usr/bin/pushnode → that binary; /etc/pushnode/config.yaml (a
# conffile: config.yaml.example with dataDir /var/lib/pushnode); the systemd unit; docs.
set -euo pipefail
binary=$1 version=$2 arch=$3 out=$4 compression=${5:-zstd}
root_dir=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/pushnode-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT

lib="$stage/usr/lib/pushnode"
install -d "$lib" "$stage/usr/bin" "$stage/etc/pushnode" "$stage/lib/systemd/system" \
    "$stage/usr/share/doc/pushnode" "$stage/DEBIAN"
"$root_dir/contrib/bundle-runtime.sh" "$binary" "$lib"
ln -s ../lib/pushnode/pushnode "$stage/usr/bin/pushnode"

sed 's|^dataDir: .*|dataDir: /var/lib/pushnode|' "$root_dir/config.yaml.example" > "$stage/etc/pushnode/config.yaml"
chmod 644 "$stage/etc/pushnode/config.yaml"
install -m644 "$root_dir/contrib/pushnode.service" "$stage/lib/systemd/system/pushnode.service"
install -m644 "$root_dir/config.yaml.example" "$root_dir/README.md" "$root_dir/docs/self-hosting.md" \
    "$stage/usr/share/doc/pushnode/"
{
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: pushnode"
    echo
    echo "Files: *"
    echo "Copyright: 2026 the pushnode authors"
    echo "License: Apache-2.0"
    echo
    echo "Files: usr/lib/pushnode/lib*.so"
    echo "Copyright: Apple Inc. and the Swift project authors"
    echo "License: Apache-2.0 with Runtime Library Exception (the Swift runtime and Foundation;"
    echo " lib_FoundationICU.so carries ICU, under the Unicode license)"
    echo
    echo "License: Apache-2.0"
    sed 's/^$/./; s/^/ /' "$root_dir/LICENSE"
} > "$stage/usr/share/doc/pushnode/copyright"

install -m755 "$root_dir/contrib/debian/postinst" "$root_dir/contrib/debian/prerm" "$root_dir/contrib/debian/postrm" \
    "$stage/DEBIAN/"
echo /etc/pushnode/config.yaml > "$stage/DEBIAN/conffiles"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
    "$root_dir/contrib/debian/control.in" > "$stage/DEBIAN/control"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | xargs -0 md5sum > DEBIAN/md5sums)

mkdir -p "$(dirname "$out")"
dpkg-deb --root-owner-group -Z"$compression" --build "$stage" "$out" >/dev/null
echo "$out"
