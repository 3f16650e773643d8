#!/usr/bin/env bash
# Installs the Debian packages RowKit builds, tests and benchmarks with, if any is missing.
# Uses sudo when not root. Safe to run again: it installs nothing when all are present.
set -euo pipefail

packages=(
  pkg-config
  libicu-dev libharfbuzz-dev libfreetype-dev libfontconfig-dev libcairo2-dev
  libpango1.0-dev            # the incumbent, for `make bench`
  chromium                   # the reference browser, for fidelity tests
  libgtk-4-dev xvfb xauth xdotool imagemagick   # `rowkit view` and its GUI tests
  fonts-dejavu-core fonts-liberation fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fc-cache -f >/dev/null 2>&1 || true
