#!/usr/bin/env bash
# Builds acp-plan's packages for one platform into OUT:
#
#   bash packaging/build.sh OUT                  # this machine's platform
#   TARGET=aarch64-apple-darwin bash packaging/build.sh OUT   # another (its toolchain and linker set up)
#
# It leaves in OUT:
#   acp-plan-VERSION-TARGET.tar.gz (.zip on Windows) and its .sha256  the release archive
#   acp-plan-VERSION.tgz                                              the npm launcher (`npx acp-plan`)
#   acp-plan-PLATFORM-VERSION.tgz                                     the npm package of this platform's binary
#   acp_plan-VERSION-py3-none-PLATFORM.whl                            the PyPI wheel (`uvx acp-plan`)
#
# Every package holds the same release binary. Needs cargo, npm, and
# maturin (on PATH, or `MATURIN=/path/to/maturin`; `pip install maturin`).
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: bash packaging/build.sh OUT" >&2
  exit 2
fi
mkdir -p "$1"
out=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
target=${TARGET:-$(rustc -vV | sed -n 's/^host: //p')}
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
maturin=${MATURIN:-maturin}
# The launcher names the same version, and so does each platform it needs.
if [[ $(grep -c "\"$version\"" "$root/packaging/npm/acp-plan/package.json") -ne 7 ]]; then
  echo "packaging/build.sh: packaging/npm/acp-plan/package.json is not at version $version (itself and its 6 platforms)" >&2
  exit 2
fi

# The npm platform name (`os`-`cpu`[-`libc`]) of a Rust target.
case $target in
  x86_64-unknown-linux-gnu) platform=linux-x64-gnu os=linux cpu=x64 libc=glibc ;;
  aarch64-unknown-linux-gnu) platform=linux-arm64-gnu os=linux cpu=arm64 libc=glibc ;;
  x86_64-unknown-linux-musl) platform=linux-x64-musl os=linux cpu=x64 libc=musl ;;
  x86_64-apple-darwin) platform=darwin-x64 os=darwin cpu=x64 libc= ;;
  aarch64-apple-darwin) platform=darwin-arm64 os=darwin cpu=arm64 libc= ;;
  x86_64-pc-windows-msvc) platform=win32-x64 os=win32 cpu=x64 libc= ;;
  *)
    echo "packaging/build.sh: no package is defined for $target" >&2
    exit 2
    ;;
esac
exe=acp-plan
[[ $os == win32 ]] && exe=acp-plan.exe

# 1. The release binary (the wheel's build below reuses it).
cargo build --release --locked -p acp-plan --target "$target" --manifest-path "$root/Cargo.toml"
target_dir=${CARGO_TARGET_DIR:-$root/target}
binary="$target_dir/$target/release/$exe"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 2. The release archive and its checksum (what `cargo binstall` fetches).
name="acp-plan-$version-$target"
mkdir -p "$work/$name"
cp "$binary" "$root/acp-plan/README.md" "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$work/$name/"
if [[ $os == win32 ]]; then
  archive="$name.zip"
  (cd "$work" && 7z a -bd -tzip "$out/$archive" "$name" >/dev/null)
else
  archive="$name.tar.gz"
  tar -C "$work" -czf "$out/$archive" "$name"
fi
# (`shasum -a 256` where coreutils' sha256sum is not installed: macOS.)
if command -v sha256sum >/dev/null; then
  (cd "$out" && sha256sum "$archive" >"$archive.sha256")
else
  (cd "$out" && shasum -a 256 "$archive" >"$archive.sha256")
fi

# 3. npm: this platform's package (the binary) and the launcher.
package="$work/npm-$platform"
mkdir -p "$package/bin"
cp "$binary" "$package/bin/$exe"
chmod 755 "$package/bin/$exe"
sed -e "s/PLATFORM/$platform/g" -e "s/VERSION/$version/g" "$root/packaging/npm/platform.json" >"$package/package.json.in"
# `os`, `cpu` and (on Linux) `libc` pick the package; npm installs the
# optional dependency that matches and skips the rest.
node_fields="\"os\": [\"$os\"], \"cpu\": [\"$cpu\"]"
[[ -n $libc ]] && node_fields="$node_fields, \"libc\": [\"$libc\"]"
sed -e "s/\"files\": \[\"bin\"\],/\"files\": [\"bin\"], $node_fields,/" "$package/package.json.in" >"$package/package.json"
rm "$package/package.json.in"
cp "$root/packaging/npm/acp-plan/README.md" "$package/README.md"
(cd "$package" && npm pack --silent --pack-destination "$out" >/dev/null)
launcher="$work/npm-launcher"
cp -R "$root/packaging/npm/acp-plan" "$launcher"
(cd "$launcher" && npm pack --silent --pack-destination "$out" >/dev/null)
# npm names a scoped package's tarball `acp-plan-PLATFORM-VERSION.tgz`.

# 4. The wheel, built by maturin from the same sources and target folder.
(cd "$root/packaging/pypi" &&
  "$maturin" build --release --quiet --target "$target" --out "$out" >/dev/null)

ls -1 "$out"
