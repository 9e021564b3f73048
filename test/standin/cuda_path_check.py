"""Runs cuda_path.cu's scenarios against the CUDA stand-in (README.md): task
bodies with their own CUDA calls, a kernel loop nested in a task body, kernel
loops on 1, 2 and 4 fake GPUs with equal and uneven memory, injected
out-of-memory at several k and a faulting launch. Each must print the serial
results, log no violation, give back every byte of device memory that is not
on a poisoned GPU, count in its report per device the very CUDA calls the
stand-in counted (kernel scenarios without a fault), and report what the runtime did (chunks split and devices
kept after out of memory, a GPU out of use after a fault). Every kernel
scenario runs two loops: a lease the first kept would stall the second (the
timeout fails it).

  cuda_path_check.py PROGRAM STANDIN_LIB_DIR WORK_DIR
"""
import json
import os
import re
import subprocess
import sys

KERNEL_OK = r"^round 0: wrong=0 sum=serial\nround 1: wrong=0 sum=serial\n$"
TASK_OK = r"^wrong=0\n$"
CHUNKS = 16  # a kernel loop's iterations over its dynamic chunk size (cuda_path.cu)
ITEMS = 8    # task loops' iterations (cuda_path.cu)


def no_fallback(lines):
    return [l["loop"] + ": fallback " + json.dumps(l["fallback"]) for l in loop_lines(lines) if l["fallback"] is not None]


def gpu_lost(lines):
    # The faulting launch is the first one: its GPU leaves for the process
    # (the sticky error), the second loop plans without it and says why.
    if len(lines) != 2:
        return ["%d report lines" % len(lines)]
    reason = (lines[1]["fallback"] or {}).get("reason", "")
    if "is out of use: CUDA error 700" not in reason:
        return ["second loop's fallback: %s" % json.dumps(lines[1]["fallback"])]
    return []


def any_report(lines):
    return []


MID_LANDING = (r"^gpu-autopar: cuda0: stream synchronize failed: CUDA error 700: an illegal memory access was "
               r"encountered, while the results of iterations \[(\d+), \d+\) were being copied into elements "
               r"\[\1, \d+\) of the loop's map 2: that copy may have landed in part, so they can neither be run "
               r"again nor kept\n$")


def stopped(lines):
    # The loop stopped with loop_error: it wrote no report line.
    return ["a loop reported: %s" % json.dumps(l) for l in loop_lines(lines)]


def landed_then_lost(lines):
    # GPU_AUTOPAR_STANDIN_LOSE_AT_WAIT=0@1: the GPU's context is lost just
    # after its first wait ran the work it waited for, the results of the
    # chunks queued by then included (y's section lands straight in y).
    # Those chunks are kept, not run again (which would add 2x twice:
    # KERNEL_OK compares with serial), counted as the GPU's, each with its
    # failure (a chunk not yet run when the context went fails too, and is
    # run again); the GPU leaves and the CPU does the rest.
    first = [d for d in lines[0]["devices"] if d["kind"] == "cuda"] if lines else []
    if len(first) != 1 or first[0]["chunks"] == 0 or first[0]["failures"] < first[0]["chunks"] or \
            first[0]["iterations"] != first[0]["chunks"] * 4096:
        return ["first loop's GPU: %s" % json.dumps(first)]
    return []


def no_code_for_one(lines):
    # The second GPU (7.5) has no code for an sm_80-only program: it leaves
    # each loop, saying why, and the first GPU runs everything.
    problems = []
    for l in lines:
        ran = {d["id"]: d["iterations"] for d in l["devices"]}
        reason = (l["fallback"] or {}).get("reason", "")
        if ran.get(1, 0) != 0 or ran.get(0, 0) != l["iterations"]:
            problems.append("%s: split %s" % (l["loop"], json.dumps(ran)))
        if "has no code for this loop's kernel" not in reason:
            problems.append("%s: fallback %s" % (l["loop"], json.dumps(l["fallback"])))
    return problems


def split_and_kept(lines):
    # Out of memory splits the chunk (more chunks than the schedule's) and
    # the device stays, in this loop and the next.
    problems = no_fallback(lines)
    chunks = sum(d["chunks"] for d in lines[0]["devices"]) if lines else 0
    if chunks <= CHUNKS:
        problems.append("first loop ran %d chunks: none was split" % chunks)
    for l in lines:
        problems += ["%s: device %d ran nothing" % (l["loop"], d["id"]) for d in l["devices"] if d["iterations"] == 0]
    return problems


def nested_on_lease(lines):
    # Each item's nested kernel loop ran on its task's GPU.
    problems = no_fallback(lines)
    nested = [l for l in lines if l.get("nested")]
    if len(nested) != ITEMS or any(l["backend"] != "cuda" for l in nested):
        problems.append("nested loops: %s" % json.dumps(nested))
    return problems


# The report's per-device counts (docs/runtime.md) against the stand-in's own
# count of the same CUDA calls: report field -> stand-in fields summed.
COUNTS = {
    "allocations": ("mallocs",),
    "h2d_copies": ("h2d",),
    "h2d_bytes": ("h2d_bytes",),
    "d2h_copies": ("d2h",),
    "d2h_bytes": ("d2h_bytes",),
    "p2p_copies": ("p2p",),
    "p2p_bytes": ("p2p_bytes",),
    "launches": ("launches",),
    "syncs": ("stream_syncs", "device_syncs", "event_syncs"),
}


def counts_disagree(text, lines, queued=False):
    """Every CUDA call of a kernel-mode program is the runtime's, so the report
    lines' counts per device, added up over the loops, must be the stand-in's.
    A data region's end copies its results back outside any loop: one copy and
    one wait each, the bytes its report line gives per device."""
    problems = []
    standin = {}
    for m in re.finditer(r"counts device=(\d+) (.*)", text):
        standin[int(m.group(1))] = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m.group(2))}
    # The runtime waits on events only where the host needs what loops left
    # queued (a region's end, an update, a host loop),
    # at most once per GPU slot each time: those waits are the region's, not a
    # loop's. Without queued loops there are none.
    for dev, counts in standin.items():
        if not queued and counts.get("event_syncs"):
            problems.append("device %d: %d event waits, and no loop was queued" % (dev, counts["event_syncs"]))
        counts["event_syncs"] = 0
    reported = {}
    for l in loop_lines(lines):
        for d in l["devices"]:
            if d["kind"] == "cuda":
                mine = reported.setdefault(d["id"], dict.fromkeys(COUNTS, 0))
                for field in COUNTS:
                    mine[field] += d.get(field, 0)  # p2p_*: only where there were such copies
    # Per device, what the program's regions (one or several) copied back at their ends.
    ends = {}
    for l in lines:
        for d in l.get("region") and l["devices"] or []:
            dev = int(d["device"][len("cuda"):])
            ends[dev] = ends.get(dev, 0) + d["bytes_to_host"]
    for dev, bytes_to_host in sorted(ends.items()):
        theirs = standin.get(dev)
        mine = reported.setdefault(dev, dict.fromkeys(COUNTS, 0))
        if not theirs:
            continue
        copies = theirs["d2h"] - mine["d2h_copies"]
        if theirs["d2h_bytes"] - mine["d2h_bytes"] != bytes_to_host or copies < 0:
            problems.append("device %d: the regions' ends copied %d bytes back, the stand-in %d more than the loops" %
                            (dev, bytes_to_host, theirs["d2h_bytes"] - mine["d2h_bytes"]))
        mine["d2h_copies"] += copies
        mine["d2h_bytes"] += bytes_to_host
        # Each round of copies to the host waits once per GPU, after
        # every GPU's copies were queued: at least one wait, at most one
        # per copy.
        waits = sum(theirs[f] for f in COUNTS["syncs"]) - mine["syncs"]
        mine["syncs"] += min(max(waits, 1 if copies else 0), copies)
    for dev, counts in sorted(standin.items()):
        mine = reported.get(dev, dict.fromkeys(COUNTS, 0))
        for field, theirs in COUNTS.items():
            want = sum(counts[f] for f in theirs)
            if mine[field] != want:
                problems.append("device %d: report %s=%d, stand-in %s=%d" % (dev, field, mine[field], "+".join(theirs), want))
    if not standin:
        problems.append("no counts in the stand-in's log")
    return problems


def loop_lines(lines):
    return [l for l in lines if "loop" in l]


def per_chunk(lines, first_in_region):
    """The data path per chunk on each GPU: no allocation once the region's
    sections are resident (after its first loop, whose copies into resident
    memory each wait, so that every slot may read them); outside a region no
    more allocations over all loops than buffers in flight at once (2 maps x
    2 slots: the pool's) and the GPU's landing word (where a chunk's section
    of y lands straight in y); at most one wait per chunk otherwise."""
    problems = no_fallback(lines)
    loops = loop_lines(lines)
    if len(loops) < 2:
        return problems + ["%d loops reported" % len(loops)]
    allocations = {}
    for k, l in enumerate(loops):
        for d in l["devices"]:
            where = "%s on cuda%d" % (l["loop"], d["id"])
            allocations[d["id"]] = allocations.get(d["id"], 0) + d["allocations"]
            if (k > 0 or not first_in_region) and d["syncs"] > d["chunks"]:
                problems.append("%s: %d waits for %d chunks" % (where, d["syncs"], d["chunks"]))
            if k > 0 and first_in_region and d["allocations"]:
                problems.append("%s: %d allocations in a loop after the first" % (where, d["allocations"]))
            if k > 0 and first_in_region and (d["h2d_copies"] or d["d2h_copies"]):
                problems.append("%s: copies of resident data" % where)
    problems += ["cuda%d: %d allocations in %d loops" % (d, n, len(loops)) for d, n in allocations.items() if n > 5]
    return problems


LOOKUP_TABLE = 8 << 16  # bytes of the lookup scenario's table (cuda_path.cu)


def table_once_per_device(lines):
    """The lookup loop's table (read only, the same for every iteration) goes
    to each GPU once per loop, however many chunks that GPU runs: what a GPU
    copies in is at most the table plus 4 bytes (a key) per iteration it ran."""
    problems = no_fallback(lines)
    for l in loop_lines(lines):
        for d in l["devices"]:
            if d["iterations"] and d["h2d_bytes"] > LOOKUP_TABLE + 4 * d["iterations"]:
                problems.append("%s: cuda%d copied %d bytes in %d chunks, more than the table (%d) once" %
                                (l["loop"], d["id"], d["h2d_bytes"], d["chunks"], LOOKUP_TABLE))
    if not any(d["chunks"] > 2 for l in loop_lines(lines) for d in l["devices"]):
        problems.append("no GPU ran more than two chunks: the test shows nothing")
    return problems


def one_wait_per_chunk(lines):
    """A chunk of the kernel loop, reduction and all, waits for its GPU once:
    the blocks' partials come back behind the kernel with the maps' results,
    not in a wait of their own."""
    problems = no_fallback(lines)
    for l in loop_lines(lines):
        for d in l["devices"]:
            if d["syncs"] > d["chunks"]:
                problems.append("%s: %d waits for %d chunks on cuda%d" % (l["loop"], d["syncs"], d["chunks"], d["id"]))
    return problems


def halos(direct):
    """The stencil's halo rows: from the neighbouring GPU directly (peer
    copies in the report and in the stand-in's counts, and nothing of the
    grids back to the host but at the region's end), or, where the GPUs
    cannot copy between them, through the host."""
    def check(lines):
        problems = no_fallback(lines)
        peer = sum(d.get("p2p_copies", 0) for l in loop_lines(lines) for d in l["devices"])
        regions = [l for l in lines if "region" in l]
        if len(regions) != 1:
            return problems + ["%d region lines" % len(regions)]
        r = regions[0]
        grids = 2 * 257 * 128 * 8
        if direct:
            if not peer or not r["bytes_between_devices"]:
                problems.append("no halo came from the neighbouring GPU (%d peer copies)" % peer)
            if r["bytes_to_host"] > grids:
                problems.append("%d bytes went to the host, more than the two grids (%d)" % (r["bytes_to_host"], grids))
        elif peer or r["bytes_between_devices"] or r["bytes_to_host"] <= grids:
            problems.append("without peer access: %d peer copies, %d bytes between GPUs, %d to the host" %
                            (peer, r["bytes_between_devices"], r["bytes_to_host"]))
        return problems
    return check


def can_overlap(loops):
    """Without a region, a GPU's chunks go to its slots, each queueing on a
    stream of its own, and the runtime orders no slot's work after another's
    on the device (no event, no legacy stream, no device-wide wait): on every
    GPU whose kernels went on two or more streams, some copy between host and
    GPU and some kernel of another stream are unordered on the device, so the
    timeline may run them at once. This is what the runtime issued, counted
    by the stand-in (`kernel_streams`, `unordered_copy_kernel`), not when the
    timeline ran it: that depends on when the slots' host threads got a core
    (with both cores busy, one slot's first cudaMalloc may wait for all of the
    other's work, and then nothing overlaps in time: measured in 14 runs of 15
    with two busy processes beside it, where every GPU still had unordered
    pairs).

    Whether a GPU's second slot ran any chunk also depends on the scheduler
    (a slot whose thread gets no core while the other takes every chunk): 2
    GPUs in 30 ran one stream's chunks in those runs. So that some GPU used
    two streams is asserted only over ten loops (`loops` >= 10: twenty
    GPU-loops in which a second slot had to run a chunk), where a runtime
    with one stream per GPU fails and a starved slot in all of them is not
    a realistic outcome.

    And a GPU's slots take turns to queue a chunk: no kernel's copies in were
    issued with another stream's copy in or kernel between them
    (`interleaved_issue`), whatever the host threads' timing; interleaved,
    both chunks' kernels wait for both chunks' inputs."""
    def check(text, lines):
        problems = []
        for d, n in re.findall(r"counts device=(\d+) .* interleaved_issue=(\d+)", text):
            if int(n):
                problems.append("cuda%s: %s chunks' copies in were issued interleaved with another slot's work"
                                % (d, n))
        shapes = {int(d): (int(k), int(u)) for d, k, u in
                  re.findall(r"counts device=(\d+) .* kernel_streams=(\d+) unordered_copy_kernel=(\d+)", text)}
        busy = sorted({d["id"] for l in loop_lines(lines) for d in l["devices"] if d["chunks"] >= 2})
        for d in busy:
            streams, unordered = shapes.get(d, (0, 0))
            if streams >= 2 and unordered == 0:
                problems.append("cuda%d: kernels on %d streams, but every copy is ordered before or after every "
                                "kernel of the other streams" % (d, streams))
        if loops >= 10 and busy and not any(shapes.get(d, (0, 0))[0] >= 2 for d in busy):
            problems.append("every GPU ran its chunks on one stream in %d loops (%s)" %
                            (loops, ", ".join("cuda%d: %d" % (d, shapes.get(d, (0, 0))[0]) for d in busy)))
        return problems
    return check


# The loops a scenario runs without a region (cuda_path.cu), for can_overlap().
UNORDERED = {"saxpy": can_overlap(3), "saxpy-10": can_overlap(10)}


def registered_once(arrays):
    """The loops' host memory was page-locked once per array (x and y), not
    per loop, and unregistered by the time the program exited."""
    def check(text):
        pinned = re.search(r"note: (\d+) cudaHostRegister, (\d+) cudaHostUnregister", text)
        if not pinned or not 0 < int(pinned.group(1)) <= arrays or pinned.group(1) != pinned.group(2):
            return ["host memory registered and unregistered: %s, expected at most %d registrations" %
                    (pinned.group(0) if pinned else "never", arrays)]
        return []
    return check


def registered_per_loop(text, loops):
    """GPU_AUTOPAR_PIN=loop: the loops' memory is unregistered when no loop
    holds it, so each loop registers it again."""
    pinned = re.search(r"note: (\d+) cudaHostRegister, (\d+) cudaHostUnregister", text)
    if not pinned or int(pinned.group(1)) < loops or pinned.group(1) != pinned.group(2):
        return ["GPU_AUTOPAR_PIN=loop: %s for %d loops" % (pinned.group(0) if pinned else "no registration", loops)]
    return []


def nothing_pageable(text):
    """Every copy of a kernel-mode loop between host and GPU is from or to
    page-locked memory: the maps' sections (registered once), a region's
    sections, and the staging of compare-and-copy-back sections and
    reduction partials."""
    problems = []
    for d, h2d, d2h in re.findall(r"counts device=(\d+) .* h2d_pageable_bytes=(\d+) d2h_pageable_bytes=(\d+)", text):
        if h2d != "0" or d2h != "0":
            problems.append("device %s: %s bytes host to device and %s device to host from pageable memory" % (d, h2d, d2h))
    return problems


def region_end_side_by_side(timeline):
    """The copies that bring a region's results back at its end were queued on
    every GPU before any was waited for: in simulated time, the last run of
    device-to-host copies of each GPU (one stream's, the region's end)
    overlaps another GPU's."""
    runs = {}
    for m in re.finditer(r"device=(\d+) stream=(\S+) engine=(\S+) start_us=(\S+) end_us=(\S+)", timeline):
        d, stream, eng, start, end = int(m.group(1)), m.group(2), m.group(3), float(m.group(4)), float(m.group(5))
        run = runs.get(d)
        if eng != "d2h" or run is None or run[0] != stream or run[3] != "d2h":
            runs[d] = [stream, start, end, eng]
        else:
            run[1], run[2] = min(run[1], start), max(run[2], end)
    ends = sorted((r[1], r[2]) for r in runs.values() if r[3] == "d2h")
    if len(ends) < 2:
        return ["%d GPUs ended with copies to the host" % len(ends)]
    if not any(a[1] > b[0] for a, b in zip(ends, ends[1:])):
        return ["the region's end copies ran one GPU after the other: %s" % ends]
    return []


def reduced_on_device(lines):
    """The kernel loop's sum comes back as one double per block of at most 256
    threads, not one per iteration or thread: what its GPUs copied back beyond
    y (8 bytes an iteration) and the landing marks around y's copy (two of 4
    bytes a chunk) is at most 8 bytes per 256 iterations and chunk."""
    problems = []
    for l in loop_lines(lines):
        cuda = [d for d in l["devices"] if d["kind"] == "cuda"]
        chunks = sum(d["chunks"] + d["failures"] for d in cuda)
        marks = 8 * sum(d["chunks"] for d in cuda)
        partials = sum(d["d2h_bytes"] for d in cuda) - 8 * l["iterations"] - marks
        if not 0 < partials <= 8 * (l["iterations"] // 256 + chunks):
            problems.append("%s: %d bytes of partials for %d iterations in %d chunks" %
                            (l["loop"], partials, l["iterations"], chunks))
    return problems


def log_problems(text, extra):
    # Beyond no violation: the injected failures happened, and every GPU that
    # is not poisoned got all its memory back.
    problems = ["violation: " + v for v in re.findall(r"\] violation (.*)", text)]
    counts = re.findall(r"counts device=(\d+) .* in_use_bytes=(\d+) poisoned=(\d)", text)
    if not counts:
        problems.append("no counts in the stand-in's log")
    problems += ["device %s still holds %s bytes" % (d, b) for d, b, poisoned in counts if poisoned == "0" and b != "0"]
    # Each allocation call the list names failed, of those the program made:
    # how many it makes depends on how often the GPUs' pools could hand a
    # buffer back, which depends on timing (9 calls in one run, 8 in another).
    fail_allocs = extra.get("GPU_AUTOPAR_STANDIN_FAIL_ALLOC")
    got = text.count("note: injected out of memory")
    calls = got + sum(int(n) for n in re.findall(r"counts device=\d+ mallocs=(\d+)", text))
    wanted = sum(1 for k in fail_allocs.split(",") if int(k) <= calls) if fail_allocs else 0
    if got != wanted or (fail_allocs and not got):
        problems.append("%d injected out-of-memory failures in %d allocation calls, expected %d" % (got, calls, wanted))
    if "GPU_AUTOPAR_STANDIN_FAULT_LAUNCH" in extra and "will fault" not in text:
        problems.append("the injected fault never happened")
    return problems


def devices(n, **more):
    return dict({"GPU_AUTOPAR_STANDIN_DEVICES": str(n)}, **{"GPU_AUTOPAR_STANDIN_" + k: v for k, v in more.items()})


# A GPU lost inside a data region (cuda_path.cu, region_fault): y's second
# half, written by GPU 1 in loop 1 and newest only there, is lost with it in
# loop 2; the error names it and says what bounds such a loss.
REGION_LOST = "^" + re.escape(
    "gpu-autopar: cuda_path.cu:70: data region: the newest values of y[32768:32768] were only on cuda1, which "
    "failed (CUDA error 700: an illegal memory access was encountered (the device's CUDA context is lost)): they are "
    "lost. A failed device loses what was written on it since a section's last `update host`: `#pragma gpu_autopar "
    "update host(...)` points bound that loss") + "\n$"


def region_fault_survived(lines):
    """Nothing was lost: the three loops ran, every iteration of those after
    the fault on GPU 0, and they say why GPU 1 is not in them."""
    loops = loop_lines(lines)
    if len(loops) != 3:
        return ["%d loops reported" % len(loops)]
    problems = []
    for l in loops[-1:]:
        ran = {d["id"]: d["iterations"] for d in l["devices"]}
        if ran.get(0) != l["iterations"] or "cuda1 is out of use: CUDA error 700" not in (l["fallback"] or {}).get("reason", ""):
            problems.append("%s: split %s, fallback %s" % (l["loop"], json.dumps(ran), json.dumps(l["fallback"])))
    return problems


def queued(check, fewer_waits=True):
    """Queued loops (docs/runtime.md, "Queued loops in a data
    region"): `check`, and the region's loops after its first return without
    the host waiting for their chunks: fewer waits than chunks over those
    loops. A chunk that copies from the host still waits for it
    (`fewer_waits` False: the stencil's round-robin pieces, whose parts grow
    and whose halos go through the host without peer copies). The stand-in
    finds any access the queued work leaves unordered (log_problems)."""
    def both(lines):
        problems = check(lines)
        later = loop_lines(lines)[1:]
        chunks = sum(d["chunks"] for l in later for d in l["devices"])
        waits = sum(d["syncs"] for l in later for d in l["devices"])
        if not later or (fewer_waits and waits >= chunks):
            problems.append("%d waits for %d chunks in the loops after the first" % (waits, chunks))
        return problems
    return both


WAIT = {"GPU_AUTOPAR_QUEUE": "off"}
COPY_BACK_LOST = "^" + re.escape(
    "gpu-autopar: cuda_path.cu:70: data region: the newest values of y[32768:32768] were only on cuda1, which "
    "failed (cuda1: copy of resident data to the host failed: CUDA error 700: an illegal memory access was "
    "encountered): they are lost. A failed device loses what was written on it since a section's last `update "
    "host`: `#pragma gpu_autopar update host(...)` points bound that loss") + "\n$"
QUEUED_LOST = "^" + re.escape(
    "gpu-autopar: cuda_path.cu:70: data region: the newest values of y[32768:32768] were only on cuda1, which "
    "failed (CUDA error 700: an illegal memory access was encountered (found waiting for work a loop left queued; "
    "the device's CUDA context is lost)): they are lost. A failed device loses what was written on it since a "
    "section's last `update host`: `#pragma gpu_autopar update host(...)` points bound that loss") + "\n$"


POINTER_N = 1 << 16  # elements of x and y in the device-pointer scenarios (cuda_path.cu)


def in_place(gpu):
    """y, memory the program allocated on a GPU, is used in place: per loop
    the GPUs copied x in (4 bytes an element) and nothing else, in or out;
    device memory ran on its own GPU only (`gpu`), managed memory anywhere."""
    def check(lines):
        problems = no_fallback(lines)
        loops = loop_lines(lines)
        if len(loops) != 2:
            return problems + ["%d loops reported" % len(loops)]
        for l in loops:
            h2d = sum(d["h2d_bytes"] for d in l["devices"])
            d2h = sum(d["d2h_bytes"] for d in l["devices"])
            if h2d != 4 * POINTER_N or d2h != 0:
                problems.append("%s: %d bytes host to device (x alone is %d), %d back" % (l["loop"], h2d, 4 * POINTER_N, d2h))
            ran = {d["id"]: d["iterations"] for d in l["devices"] if d["iterations"]}
            if gpu is not None and ran != {gpu: POINTER_N}:
                problems.append("%s: ran %s, not all on cuda%d" % (l["loop"], json.dumps(ran), gpu))
        return problems
    return check


JACOBI_N, JACOBI_SWEEPS = 256, 4  # the jacobi-collapse scenario's default grid and sweeps (cuda_path.cu)


def resident_grids(gpus):
    """A collapse(2) Jacobi in a data region (issue 23, item 3): the host
    link carries each of the two grids about once each way, and the GPUs
    exchange at most two halo rows per neighbouring pair and sweep (a row's
    inner elements: n - 2 doubles), all 10% of slack given."""
    def check(lines):
        problems = no_fallback(lines)
        regions = [l for l in lines if "region" in l]
        if len(regions) != 1:
            return problems + ["%d region lines" % len(regions)]
        r = regions[0]
        grids = 2 * JACOBI_N * JACOBI_N * 8
        halos = 2 * (gpus - 1) * JACOBI_SWEEPS * (JACOBI_N - 2) * 8
        for field, limit in (("bytes_to_devices", grids), ("bytes_to_host", grids), ("bytes_between_devices", halos)):
            if r[field] > 1.1 * limit:
                problems.append("%s=%d, more than 1.1 x %d" % (field, r[field], limit))
        if not r["bytes_between_devices"]:
            problems.append("no halo row went from GPU to GPU")
        return problems
    return check


def parts_reused(lines):
    """The same region entered a second time over the same grids: its GPUs'
    parts come from what the first one left them (the GPUs' memory pools),
    so the second region's loops allocate nothing, where the first one's
    did (each allocation a cudaMalloc and later a cudaFree: a wait for the
    whole GPU and ~150 us of the calling thread)."""
    loops = loop_lines(lines)
    half = len(loops) // 2
    first = sum(d.get("allocations", 0) for l in loops[:half] for d in l["devices"])
    second = sum(d.get("allocations", 0) for l in loops[half:] for d in l["devices"])
    if len(loops) != 2 * 2 * JACOBI_SWEEPS or not first or second:
        return ["%d loops; the first region's allocated %d times, the second's %d (want > 0, then 0)" %
                (len(loops), first, second)]
    return []


def partitioned(text, lines, gpus, sections, most):
    """Each GPU holds its part of the region's sections (`sections` bytes in
    all), not a whole copy (issue 23, item 4): what the stand-in saw it
    allocate, and the bytes_held of its region line, at most `most` x
    `sections`; and the GPUs hold every byte between them."""
    problems = []
    regions = [l for l in lines if "region" in l]
    held = {int(d["device"][len("cuda"):]): d.get("bytes_held", 0) for r in regions for d in r["devices"]}
    for dev, n in re.findall(r"counts device=(\d+) mallocs=\d+ malloc_bytes=(\d+)", text):
        if int(n) > most * sections:
            problems.append("cuda%s allocated %s bytes, more than %.2f x %d" % (dev, n, most, sections))
    for dev, n in sorted(held.items()):
        if n > most * sections:
            problems.append("cuda%d held %d bytes, more than %.2f x %d" % (dev, n, most, sections))
    if len(held) != gpus or sum(held.values()) < 0.95 * sections:
        problems.append("bytes held per GPU %s: not all %d GPUs, or less than the sections (%d)" %
                        (json.dumps(held), gpus, sections))
    return problems


def survived_without(gpu):
    """A GPU lost in a region whose host holds every value a retry needs
    (`update host` after each sweep): the loops went on without it, saying
    why, and the program printed the serial result."""
    def check(lines):
        loops = loop_lines(lines)
        last = loops[-1] if loops else None
        if not last:
            return ["no loop reported"]
        ran = {d["id"]: d["iterations"] for d in last["devices"]}
        reason = (last["fallback"] or {}).get("reason", "")
        if ran.get(gpu, 0) or "cuda%d is out of use: CUDA error 700" % gpu not in reason:
            return ["%s: split %s, fallback %s" % (last["loop"], json.dumps(ran), json.dumps(last["fallback"]))]
        return []
    return check


# A GPU lost in the Jacobi's third launch on it (sweep 2's first loop): the
# rows of the grids it wrote in sweep 1 were newest only there.
JACOBI_LOST = (r"^gpu-autopar: cuda_path\.cu:90: data region: the newest values of [ab]\[\d+:\d+\]"
               r"(,? (and )?[ab]\[\d+:\d+\])* were only on cuda1, which failed \(CUDA error 700: .*\): they are lost\. "
               r".*update host.*\n$")


def refused(lines):
    # The loop threw before any iteration: no report line.
    return ["a loop ran: %s" % json.dumps(l) for l in loop_lines(lines)]


# Device memory of a GPU the runtime was told not to use.
POINTER_ELSEWHERE = "^" + re.escape(
    "gpu-autopar: cuda_path.cu:80: the loop cannot run: 'y[0:n]' is device memory of CUDA GPU 1 (not one of the "
    "runtime's devices); device memory is used in place on its own GPU, never copied to or from the host") + "\n$"


# name: (scenario, stand-in environment, expected stdout (regex), check of the report lines)
RUNS = {
    "task-memcpy": ("task-memcpy", devices(2), TASK_OK, no_fallback),
    "task-callee": ("task-callee", devices(2), TASK_OK, no_fallback),
    "task-nested": ("task-nested", devices(2), r"^wrong=0 restored=8/8\n$", nested_on_lease),
    "kernel-1": ("kernel", devices(1), KERNEL_OK, one_wait_per_chunk),
    "kernel-2": ("kernel", devices(2), KERNEL_OK, one_wait_per_chunk),
    "kernel-4-uneven": ("kernel", devices(4, MEMORY="48K:16G:96K:1M"), KERNEL_OK, no_fallback),
    "kernel-oom-1": ("kernel", devices(2, FAIL_ALLOC="1"), KERNEL_OK, split_and_kept),
    "kernel-oom-3-5-9": ("kernel", devices(2, FAIL_ALLOC="3,5,9"), KERNEL_OK, split_and_kept),
    "kernel-oom-2-4-on-1": ("kernel", devices(1, FAIL_ALLOC="2,4"), KERNEL_OK, split_and_kept),
    "kernel-fault": ("kernel", devices(2, FAULT_LAUNCH="1"), KERNEL_OK, gpu_lost),
    "kernel-fault-only-gpu": ("kernel", devices(1, FAULT_LAUNCH="2"), KERNEL_OK, any_report),
    "kernel-lost-after-landing": ("kernel", devices(1, LOSE_AT_WAIT="0@1"), KERNEL_OK, landed_then_lost),
    # Lost right after the first chunk's mark before y's copy back ran (its
    # 2nd copy to the host: the partial sums, then the mark): y's copy may
    # have landed in part, so the loop stops with an error naming it.
    "kernel-lost-mid-landing": ("kernel", devices(1, LOSE_AFTER_D2H="0@2"), MID_LANDING, stopped),
    "kernel-no-code-for-one": ("kernel", devices(2, CC="8.0:7.5", IMAGE="80"), KERNEL_OK, no_code_for_one),
    "saxpy-2": ("saxpy", devices(2), TASK_OK, lambda lines: per_chunk(lines, False)),
    "saxpy-10-2": ("saxpy-10", devices(2), TASK_OK, lambda lines: per_chunk(lines, False)),
    "saxpy-10-pin-loop": ("saxpy-10", dict(devices(2), GPU_AUTOPAR_PIN="loop"), TASK_OK,
                          lambda lines: per_chunk(lines, False)),
    "two-threads-2": ("two-threads", devices(2), TASK_OK, no_fallback),
    "lookup-2": ("lookup", devices(2), TASK_OK, table_once_per_device),
    "lookup-4": ("lookup", devices(4), TASK_OK, table_once_per_device),
    "scatter-2": ("scatter", devices(2), TASK_OK, no_fallback),
    "saxpy-region-2": ("saxpy-region", devices(2), TASK_OK, lambda lines: per_chunk(lines, True)),
    # Loops in a region return with their kernels queued (the default) or
    # wait for them (GPU_AUTOPAR_QUEUE=off: the `-waiting` runs).
    "stencil-region-2": ("stencil-region", devices(2), TASK_OK, queued(halos(True), fewer_waits=False)),
    "stencil-region-2-waiting": ("stencil-region", dict(devices(2), **WAIT), TASK_OK, halos(True)),
    # Pieces dealt round-robin over 3 GPUs: a row two GPUs need is copied to one
    # of them in a loop that does not wait for it, and must not be copied on
    # from there to the third in that loop.
    "stencil-region-3": ("stencil-region", devices(3), TASK_OK, queued(halos(True), fewer_waits=False)),
    "stencil-region-3-no-peer": ("stencil-region", devices(3, PEER="0"), TASK_OK,
                                 queued(halos(False), fewer_waits=False)),
    "stencil-region-3-no-peer-waiting": ("stencil-region", dict(devices(3, PEER="0"), **WAIT), TASK_OK,
                                         halos(False)),
    # GPU 1 lost in loop 2, which reads y's half that only GPU 1 held: lost
    # either way, found when loop 3 or the region's end waits for loop 2
    # (queued) or by loop 2 itself (waiting).
    "region-fault-lost": ("region-fault", devices(2, FAULT_LAUNCH="1@2"), QUEUED_LOST, any_report),
    "region-fault-lost-waiting": ("region-fault", dict(devices(2, FAULT_LAUNCH="1@2"), **WAIT), REGION_LOST,
                                  any_report),
    # Entered, never exited: the GPUs' copies are freed at exit (no leak).
    "entered-never-exited-2": ("entered-never-exited", devices(2), TASK_OK, any_report),
    "region-fault-first-loop": ("region-fault", devices(2, FAULT_LAUNCH="1@1"), TASK_OK, region_fault_survived),
    # GPU 1's context lost while the first `update host` copied its half of y
    # back (its 4th wait): that copy may have landed in part, so the half is
    # lost and named, not taken for the host's, nor a raw CUDA error.
    "region-fault-lost-copying-back": ("region-fault-updated", devices(2, LOSE_AT_WAIT="1@4"), COPY_BACK_LOST,
                                       any_report),
    # After `update host` the host holds what loop 2 reads: loop 2 is not
    # queued, finds GPU 1's fault itself and runs its chunk again on GPU 0.
    "region-fault-updated": ("region-fault-updated", devices(2, FAULT_LAUNCH="1@2"), TASK_OK, region_fault_survived),
    "jacobi-collapse-3": ("jacobi-collapse", devices(3), TASK_OK, queued(resident_grids(3))),
    "jacobi-collapse-3-waiting": ("jacobi-collapse", dict(devices(3), **WAIT), TASK_OK, resident_grids(3)),
    "jacobi-collapse-4": ("jacobi-collapse", devices(4), TASK_OK, queued(resident_grids(4))),
    # Less memory per GPU than either grid: each holds its part, and the
    # grids still cross the host link about once each way.
    "jacobi-collapse-3-small": ("jacobi-collapse", devices(3, MEMORY="460K"), TASK_OK, resident_grids(3)),
    "jacobi-collapse-twice-3": ("jacobi-collapse-twice", devices(3), r"^wrong=0\nwrong=0\n$", parts_reused),
    "jacobi-collapse-3-fault-updated": ("jacobi-collapse-updated", devices(3, FAULT_LAUNCH="1@3"), TASK_OK,
                                        survived_without(1)),
    "jacobi-collapse-3-fault-lost": ("jacobi-collapse", devices(3, FAULT_LAUNCH="1@3"), JACOBI_LOST, any_report),
    "device-pointer-2": ("device-pointer", devices(2), TASK_OK, in_place(1)),
    "managed-pointer-2": ("managed-pointer", devices(2), TASK_OK, in_place(None)),
    "device-pointer-elsewhere": ("device-pointer", dict(devices(2), GPU_AUTOPAR_DEVICES="cuda:0"), POINTER_ELSEWHERE,
                                 refused),
}


# The bytes a region's sections hold, per scenario (cuda_path.cu): its GPUs
# hold parts of them (partitioned()).
# saxpy-region and stencil-region deal pieces round-robin (schedule(static,
# c)): each GPU's chunks come from all over the arrays, and it holds them
# whole; the Jacobi's default schedule gives each a part.
PARTS = {"jacobi-collapse": 2 * JACOBI_N * JACOBI_N * 8}


# Host memory page-locked once per array however many loops use it (x, y;
# two threads: x and one y each).
REGISTERED_ONCE = {"saxpy": registered_once(2), "saxpy-10": registered_once(2), "two-threads": registered_once(3)}


def run_once(program, lib_dir, work, name, scenario, extra, stdout_re, check_report):
    log = os.path.join(work, name + ".log")
    report = os.path.join(work, name + ".jsonl")
    for f in (log, report):
        if os.path.exists(f):
            os.remove(f)
    env = dict(os.environ, LD_LIBRARY_PATH=lib_dir, GPU_AUTOPAR_STANDIN_LOG=log, GPU_AUTOPAR_REPORT=report,
               GPU_AUTOPAR_STANDIN_TIMELINE=os.path.join(work, name + ".timeline"),
               GPU_AUTOPAR_DEVICES="cuda", GPU_AUTOPAR_LOG="warn")
    env.update(extra)
    p = subprocess.run([program, scenario], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=60)
    text = open(log).read() if os.path.exists(log) else ""
    lines = [json.loads(l) for l in open(report)] if os.path.exists(report) else []
    problems = []
    if p.returncode != 0:
        problems.append("exit status %d" % p.returncode)
    if not re.search(stdout_re, p.stdout):
        problems.append("stdout %r does not match %r" % (p.stdout, stdout_re))
    problems += log_problems(text, extra)
    if not lines and check_report not in (refused, stopped):
        problems.append("no report")
    # Injected faults lose GPUs (the stand-in's counts then include what
    # the failed chunks did on a poisoned device).
    faults = any(k in " ".join(extra) for k in ("FAULT_LAUNCH", "LOSE_AT_WAIT", "LOSE_AFTER_D2H"))
    if any(l.get("backend") == "cpu" for l in loop_lines(lines)) and "fault-only" not in name and \
            "LOSE_AT_WAIT" not in " ".join(extra):
        problems.append("a loop ran on the CPU only")
    problems += check_report(lines)
    if scenario in UNORDERED:
        problems += UNORDERED[scenario](text, lines)
    if scenario in ("kernel", "saxpy", "lookup", "saxpy-region", "stencil-region", "jacobi-collapse",
                    "jacobi-collapse-twice") and not faults:
        problems += counts_disagree(text, lines, extra.get("GPU_AUTOPAR_QUEUE") != "off")
    if scenario == "kernel" and not faults:
        problems += reduced_on_device(lines)
    if not scenario.startswith("task"):
        problems += nothing_pageable(text)
    if extra.get("GPU_AUTOPAR_PIN") == "loop":
        problems += registered_per_loop(text, len(loop_lines(lines)))
    elif scenario in REGISTERED_ONCE:
        problems += REGISTERED_ONCE[scenario](text)
    if scenario in PARTS and not faults:
        gpus = int(extra["GPU_AUTOPAR_STANDIN_DEVICES"])
        problems += partitioned(text, lines, gpus, PARTS[scenario], 0.6 if gpus >= 3 else 0.7)
    if scenario in ("saxpy-region", "stencil-region", "jacobi-collapse"):
        timeline = os.path.join(work, name + ".timeline")
        problems += region_end_side_by_side(open(timeline).read() if os.path.exists(timeline) else "")
    return problems, (text, lines, p.stderr)


def main():
    program, lib_dir, work = sys.argv[1:4]
    only = sys.argv[4:]  # by hand: the names of the runs to do (all when none)
    os.makedirs(work, exist_ok=True)
    failed = 0
    for name, (scenario, extra, stdout_re, check_report) in RUNS.items():
        if only and name not in only:
            continue
        problems, (text, lines, stderr) = run_once(program, lib_dir, work, name, scenario, extra, stdout_re,
                                                   check_report)
        if problems:
            failed += 1
            sys.stderr.write("FAIL %s: %s\n--- log\n%s--- report\n%s--- stderr\n%s\n" %
                             (name, "; ".join(problems), text, "".join(json.dumps(l) + "\n" for l in lines), stderr))
        else:
            print("ok %s" % name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
