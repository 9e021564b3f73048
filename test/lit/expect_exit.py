#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with the given status.

Usage (lit): %expect-exit <status> <command> [args...]
lit's `not` only tells zero from non-zero; the tool's contract distinguishes
1 (rejected input) from 2 (usage or I/O error).
"""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("expect-exit: expected exit status %d, got %d\n" % (want, got))
    sys.exit(1)
