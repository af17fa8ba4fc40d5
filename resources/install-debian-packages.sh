#!/bin/sh
# Installs the system packages the tests and the native builds need (resources/debian-packages.txt)
# on Debian or Ubuntu: as root directly, or through sudo for anyone else, so the same command works
# for both. CI runs it too.
set -eu
cd "$(dirname "$0")/.."

if [ "$(id -u)" -eq 0 ]; then
  as_root() { env DEBIAN_FRONTEND=noninteractive "$@"; }
elif command -v sudo >/dev/null 2>&1; then
  as_root() { sudo env DEBIAN_FRONTEND=noninteractive "$@"; }
else
  echo "install-debian-packages: installing packages needs root. Run this as root, or install sudo." >&2
  exit 1
fi

as_root apt-get update
# shellcheck disable=SC2046
as_root apt-get install -y --no-install-recommends $(cat resources/debian-packages.txt)
