#!/usr/bin/env python3
"""docs/tutorial.md shows what a run of examples/image_batch reports: checks the
tutorial's report excerpts against the reports of a real run (package.image_batch).

usage: tutorial_matches.py TUTORIAL LOOPS_JSON RUN_JSONL

- Each runtime line the tutorial shows (a ```json block of {"loop":...} objects)
  has the fields the runtime writes, for the loop and for each device, and the
  real loop's mode, iteration count, backend and number of devices; its devices'
  iterations add up to the loop's; the bytes copied per iteration, and the
  copies, allocations and launches per chunk, are the real run's (the split
  itself varies from run to run, these do not; a reduction's bytes back per
  iteration vary within 2% with where the chunks end).
- The prose "The N planes went a, b and c to the three devices" agrees with the
  task-mode line shown.
- The tool's entry the tutorial shows (abridged with ...) names only fields the
  tool writes, at the real loop's line and mode, and quotes real messages.
"""
import json
import re
import sys

tutorial, loops_json, run_jsonl = sys.argv[1:4]
text = open(tutorial).read()
real_runs = {}
for line in open(run_jsonl):
    r = json.loads(line)
    real_runs[r["loop"]] = r
real_loops = json.load(open(loops_json))["loops"]
failures = []


def fail(msg):
    failures.append(msg)


def objects(block):
    """The JSON objects written one after another in a code block."""
    dec, pos, out = json.JSONDecoder(), 0, []
    while True:
        while pos < len(block) and block[pos].isspace():
            pos += 1
        if pos == len(block):
            return out
        obj, pos = dec.raw_decode(block, pos)
        out.append(obj)


def per(d, num, den):
    return d[num] / d[den] if d[den] else None


blocks = re.findall(r"```json\n(.*?)```", text, re.S)
shown = [o for b in blocks if b.lstrip().startswith('{"loop"') for o in objects(b)]
if not shown:
    fail("no runtime report line in the tutorial")
for t in shown:
    where = t.get("loop")
    r = real_runs.get(where)
    if r is None:
        fail(f"{where}: the run has no such loop (it ran {sorted(real_runs)})")
        continue
    if set(t) != set(r):
        fail(f"{where}: the tutorial shows fields {sorted(t)}, the runtime writes {sorted(r)}")
    for key in ("mode", "iterations", "backend", "fallback"):
        if t.get(key) != r.get(key):
            fail(f"{where}: the tutorial says {key} {t.get(key)!r}, the run {r.get(key)!r}")
    if len(t["devices"]) != len(r["devices"]):
        fail(f"{where}: {len(t['devices'])} devices shown, {len(r['devices'])} in the run")
    if sum(d["iterations"] for d in t["devices"]) != t["iterations"]:
        fail(f"{where}: the devices' iterations shown do not add up to {t['iterations']}")
    for td, rd in zip(t["devices"], r["devices"]):
        if set(td) != set(rd):
            fail(f"{where}: device fields shown {sorted(td)}, written {sorted(rd)}")
            continue
        ratios = [("h2d_bytes", "iterations"), ("d2h_bytes", "iterations"), ("h2d_copies", "chunks"),
                  ("allocations", "chunks"), ("launches", "chunks")]
        for num, den in ratios:
            shown_r, run_r = per(td, num, den), per(rd, num, den)
            # A reduction copies back one partial per block of 256 iterations of
            # each chunk, so its bytes per iteration move a little with the split.
            close = num == "d2h_bytes" and shown_r > 0 and run_r > 0 and abs(shown_r - run_r) <= 0.02 * run_r
            if shown_r != run_r and not close:
                fail(f"{where}: device {td['id']}: {num} per {den} {per(td, num, den)} shown, "
                     f"{per(rd, num, den)} in the run")

task = [t for t in shown if t.get("mode") == "task"]
m = re.search(r"The (\d+) planes went (\d+), (\d+) and (\d+) to the three devices", text)
if not m or not task:
    fail("no sentence 'The N planes went a, b and c to the three devices' next to a task-mode line")
else:
    said = [int(x) for x in m.groups()]
    t = task[0]
    if said != [t["iterations"]] + [d["iterations"] for d in t["devices"]]:
        fail(f"the prose says {said}, the task-mode line shown {t['iterations']} / "
             f"{[d['iterations'] for d in t['devices']]}")

tool_blocks = [b for b in blocks if '"decision"' in b]
if not tool_blocks:
    fail("no tool report entry in the tutorial")
for b in tool_blocks:
    line = int(re.search(r'"line":\s*(\d+)', b).group(1))
    entry = next((l for l in real_loops if l["location"]["line"] == line), None)
    if entry is None:
        fail(f"the tool reported no loop at line {line}")
        continue

    def keys(o):
        if isinstance(o, dict):
            return set(o) | {k for v in o.values() for k in keys(v)}
        if isinstance(o, list):
            return {k for v in o for k in keys(v)}
        return set()

    for k in set(re.findall(r'"(\w+)":', b)) - keys(entry):
        fail(f"line {line}: the tutorial shows a field '{k}' the tool does not write")
    mode = re.search(r'"mode":\s*"(\w+)"', b).group(1)
    if mode != entry["mode"]:
        fail(f"line {line}: mode {mode} shown, {entry['mode']} reported")
    real_messages = [r["message"] for r in entry["reasons"]]
    for msg in re.findall(r'"message":\s*"(.*?)"', b):
        prefix = msg[:-3].rstrip() if msg.endswith("...") else msg
        if not any(r == msg or (prefix != msg and r.startswith(prefix)) for r in real_messages):
            fail(f"line {line}: the tutorial quotes '{msg}', not a message the tool wrote: {real_messages}")

for f in failures:
    print("FAIL: docs/tutorial.md:", f)
sys.exit(1 if failures else 0)
