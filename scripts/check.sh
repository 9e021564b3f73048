#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test
# (runtime unit tests and the lit suites) through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j 2
