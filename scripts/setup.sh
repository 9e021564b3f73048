#!/usr/bin/env bash
# Installs what gpu-autopar needs from Debian's registry. Idempotent and quick
# when everything is already there: it only calls apt-get for missing packages.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config python3
  clang-22 libclang-22-dev llvm-22-dev llvm-22-tools libclang-rt-22-dev
  libgtest-dev libbenchmark-dev
  openmpi-bin libopenmpi-dev
  libisl-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
