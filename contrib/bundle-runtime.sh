#!/bin/bash
# Installs a release binary into DIR with the Swift runtime libraries it links (the toolchain's
# copies, found through ldd) beside it and its RUNPATH set to $ORIGIN alone, so it runs where no
# Swift toolchain is installed and never loads another toolchain's runtime:
#   contrib/bundle-runtime.sh BINARY DIR
# Used by the Debian package (contrib/debian/build-deb.sh) and the container image (Dockerfile).
set -euo pipefail
binary=$1 dir=$2
command -v patchelf >/dev/null || { echo "bundle-runtime: patchelf is missing (apt-get install patchelf)" >&2; exit 1; }
install -d "$dir"
install -m755 "$binary" "$dir/pushnode"
# Every library ldd resolves into the directory holding libswiftCore.so.
runtime=$(ldd "$binary" | awk '$1 == "libswiftCore.so" { print $3 }' | xargs dirname)
ldd "$binary" | awk -v dir="$runtime/" 'index($3, dir) == 1 { print $3 }' | while read -r so; do
    install -m644 "$so" "$dir/"
done
patchelf --set-rpath '$ORIGIN' "$dir/pushnode"
