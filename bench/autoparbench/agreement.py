#!/usr/bin/env python3
"""How often gpu-autopar agrees with AutoParBench's per-loop ground truth.

AutoParBench (github.com/LLNL/AutoParBench, obtained separately: this script reads a checkout, it never
ships its files) publishes, next to each source of benchmarks/reference_cpu_threading/<suite>/, a JSON
file naming every loop of that source (line and column in the *reference* source, which carries the
OpenMP directives) and whether the reference parallelises it ("pragma type" other than "NULL").
benchmarks/sequential/<suite>/ holds the same sources without the directives.

For every loop of the ground truth this script puts `#pragma gpu_autopar for` on that loop of a temporary
copy of the sequential source, runs `gpu-autopar --check --report=...` on it (and again with --strict),
and compares the tool's answer with the truth. See bench/README.md ("AutoParBench agreement") for the
method and its limits. Standard library only.

  python3 bench/autoparbench/agreement.py --tool build/tool/gpu-autopar --apb ~/src/AutoParBench
"""

import argparse
import collections
import concurrent.futures
import difflib
import glob
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SUITES = {"drb": ("dataracebench", "DataRaceBench"), "npb": ("NPB3.0-omp-c", "NPB 3.0 (C, OpenMP)")}
MAX_CLAUSE_ROUNDS = 4
MAX_SHIFT = 8
# gpu-autopar parses a C source as C++, which has no implicit function declarations; 31 of the
# DataRaceBench sources call printf or malloc without their header (C89 style) and the PolyBench ones
# call the timer functions polybench.h declares only under POLYBENCH_TIME. Without these the files do
# not parse at all (--as-is shows it). Without -ferror-limit=0 clang stops after 20 errors and
# the loops after them have none in the report.
PRELUDE = ["-include", "stdio.h", "-include", "stdlib.h", "-DPOLYBENCH_TIME", "-ferror-limit=0"]

# The advice of gpu-autopar's "'x' is declared outside the loop and written in it; ..." error, which a
# user follows by adding the clause it names (lib/analysis/ScalarUses.cpp, sharedWriteAdvice).
ADVICE_REDUCTION = re.compile(r"^'(\w+)' is declared outside the loop and written in it; every use updates it "
                              r"with '[^']+': add it to a 'reduction\(([^:]+): \w+\)' clause")
# A flag (`set = TRUE`): "every write stores 1, which a 'reduction(||: set)' clause gives when ...".
ADVICE_FLAG = re.compile(r"^'(\w+)' is declared outside the loop and written in it; every write stores [01], which a "
                         r"'reduction\(([^:]+): \w+\)' clause gives")
ADVICE_PRIVATE = re.compile(r"^'(\w+)' is declared outside the loop and written in it; every iteration writes "
                            r"it before reading it: add it to a private\(\.\.\.\) clause")


class Loop:
    """One loop of the ground truth, where it is in the sequential source, and what the tool said."""

    def __init__(self, source, ref_line, column, truth_type, function):
        self.source = source          # path of the sequential source
        self.ref_line = ref_line      # line in the reference source (the JSON's "loop line")
        self.column = column          # 1-based column of 'for'
        self.truth_type = truth_type  # "parallel for", "for", "simd" or "NULL"
        self.function = function
        self.line = None              # line in the sequential source, None when not found
        self.unmatched = None         # why it could not be placed
        self.shift = 0                # lines between the JSON's line and the loop's, where they differ
        self.renamed = 0              # names of its source that are C++ keywords, renamed in the copy
        self.clauses = []             # clauses added on the tool's advice ("private(j)", "reduction(+: s)")
        self.result = None            # "clean", "checked", "warned", "rejected", "unannotated"
        self.messages = []            # errors (rejected) or warnings (warned) of the report entry
        self.inside = None            # the tool's "ignored" entry when it was inside another annotated loop
        self.parent = None            # the innermost loop of the ground truth around this one

    def ancestors(self):
        loop = self.parent
        while loop is not None:
            yield loop
            loop = loop.parent

    @property
    def under_parallel(self):
        """A loop the truth does not parallelise inside one it does: the reference only says that it
        parallelised an outer loop, not that this one carries a dependence (AutoParBench marks inner
        loops in some files and not in others)."""
        return not self.parallel and any(a.parallel for a in self.ancestors())

    @property
    def parallel(self):
        return self.truth_type != "NULL"

    @property
    def accepted(self):
        return self.result in ("clean", "checked", "warned")

    def where(self, root):
        return "%s:%d" % (os.path.relpath(self.source, root), self.line or self.ref_line)


def read_truth(json_path):
    with open(json_path, encoding="utf-8", errors="replace") as f:
        data = json.load(f)
    loops = []
    for key, entry in data.items():
        if not isinstance(entry, dict) or "loop line" not in entry:
            continue
        loops.append((int(entry["loop line"]), int(entry["loop column"]), entry.get("pragma type", "NULL"),
                      entry.get("function", "")))
    return sorted(loops)


def read_lines(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read().split("\n")


def place_loops(ref_src, seq_src, loops):
    """Find each loop's line in the sequential source.

    The sequential source is the reference one without its OpenMP directive lines (and, in two
    DataRaceBench files, with a whitespace change), so the two are aligned line by line with difflib
    and a loop keeps its column. A loop is placed where its line's text is identical in both and 'for'
    starts at the JSON's column. In a few files the JSON's lines are off by a constant (they name the
    directive's line, or lines of an older version of the file): where the JSON's line has no 'for'
    at that column, the smallest shift (up to MAX_SHIFT lines, the same for every such loop of the
    file) that puts all of them on a 'for' at their columns is used, and counted. A 'while' or 'do'
    loop (the truth lists a few) cannot carry the annotation. Anything else stays unmatched."""
    ref = read_lines(ref_src)
    seq = read_lines(seq_src)
    matcher = difflib.SequenceMatcher(None, [l.rstrip() for l in ref], [l.rstrip() for l in seq], autojunk=False)
    ref_to_seq = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            ref_to_seq[block.a + k + 1] = block.b + k + 1

    def keyword_at(ref_line, column):
        if not 1 <= ref_line <= len(ref):
            return None
        m = re.match(r"(for|while|do)\b", ref[ref_line - 1][column - 1:])
        return m.group(1) if m else None

    def fits(loop, shift, taken):
        line = loop.ref_line + shift
        return keyword_at(line, loop.column) == "for" and line in ref_to_seq and (ref_to_seq[line], loop.column) not in taken

    taken = set()
    astray = []
    for loop in loops:
        word = keyword_at(loop.ref_line, loop.column)
        if word in ("while", "do"):
            loop.unmatched = "a '%s' loop: gpu-autopar annotates 'for' loops" % word
        elif fits(loop, 0, taken):
            loop.line = ref_to_seq[loop.ref_line]
            taken.add((loop.line, loop.column))
        else:
            astray.append(loop)
    if astray:
        for shift in sorted(range(-MAX_SHIFT, MAX_SHIFT + 1), key=lambda d: (abs(d), d)):
            if shift and all(fits(l, shift, taken) for l in astray) and \
                    len({l.ref_line + shift for l in astray}) == len(astray):
                for loop in astray:
                    loop.line = ref_to_seq[loop.ref_line + shift]
                    loop.shift = shift
                    taken.add((loop.line, loop.column))
                break
        for loop in astray:
            if loop.line is None:
                if loop.ref_line not in ref_to_seq:
                    loop.unmatched = "line %d of the reference source has no identical line in the sequential one" % loop.ref_line
                else:
                    loop.unmatched = "no 'for' at line %d, column %d of the reference source" % (loop.ref_line, loop.column)


def blank_non_code(text):
    """The text with comments, string and character literals and preprocessor lines turned into spaces
    (newlines kept), so that offsets stay and only code is left to scan."""
    out = list(text)
    i, n, line_start = 0, len(text), True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out[i] = " "
                    i += 2
                    continue
                out[i] = " "
                i += 1
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            for k in range(i, end):
                if text[k] != "\n":
                    out[k] = " "
            i = end
        elif c in "\"'":
            k = i + 1
            while k < n and text[k] != c and text[k] != "\n":
                k += 2 if text[k] == "\\" else 1
            for m in range(i, min(k + 1, n)):
                out[m] = " "
            i = k + 1
        else:
            i += 1
    return "".join(out)


class Extents:
    """Where a statement starting at an offset ends, for C's statement forms: enough to tell which of
    the ground truth's loops lie inside which (the ground truth does not say)."""

    def __init__(self, code):
        self.code = code

    def skip(self, i):
        while i < len(self.code) and self.code[i].isspace():
            i += 1
        return i

    def word(self, i):
        m = re.compile(r"[A-Za-z_]\w*").match(self.code, i)
        return m.group(0) if m else ""

    def scan(self, i, to_semicolon):
        """The offset after the bracket that closes the one at i, or (to_semicolon) after the first ';'
        outside brackets."""
        depth = 0
        while i < len(self.code):
            c = self.code[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0 and not to_semicolon:
                    return i + 1
            elif c == ";" and to_semicolon and depth <= 0:
                return i + 1
            i += 1
        return i

    def close(self, i):
        return self.scan(i, False)

    def after_parens(self, i):
        i = self.code.find("(", i)
        return len(self.code) if i < 0 else self.close(i)

    def statement(self, i):
        i = self.skip(i)
        if i >= len(self.code):
            return i
        if self.code[i] == "{":
            return self.close(i)
        w = self.word(i)
        if w in ("for", "while", "switch"):
            return self.statement(self.after_parens(i + len(w)))
        if w == "if":
            end = self.statement(self.after_parens(i + 2))
            k = self.skip(end)
            if self.word(k) == "else":
                return self.statement(k + 4)
            return end
        if w == "do":
            end = self.statement(i + 2)
            return self.statement_end(self.after_parens(end))
        return self.statement_end(i)

    def statement_end(self, i):
        return self.scan(i, True)


def nest_loops(seq_src, loops):
    """Set each placed loop's `parent`: the innermost other loop of the ground truth around it."""
    code = blank_non_code("\n".join(read_lines(seq_src)))
    starts = [0]
    for line in code.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    ext = Extents(code)
    spans = []
    for loop in loops:
        if loop.line is None:
            continue
        begin = starts[loop.line - 1] + loop.column - 1
        spans.append((begin, ext.statement(begin), loop))
    for begin, end, loop in spans:
        around = [(b, l) for b, e, l in spans if b < begin and end <= e]
        loop.parent = max(around, key=lambda t: t[0])[1] if around else None


CXX_ONLY_KEYWORDS = re.compile(r"\b(class|new|delete|this|template|typename|namespace|operator|private|protected|"
                               r"public|virtual|friend|explicit|mutable|using|catch|throw|try|bool|true|false)\b")


def rename_cxx_keywords(seq_lines, loops):
    """A C source's names that are C++ keywords (NPB's `char class`) renamed `class_` in the copy, since
    gpu-autopar parses C as C++; loop columns after a renamed name on the same line move with it.
    Returns the new lines and how many names were renamed. (`bool`, `true`, `false` are C23 keywords and
    names in older C; stdbool.h's macros are not in the code this scans.)"""
    code = blank_non_code("\n".join(seq_lines)).split("\n")
    by_line = collections.defaultdict(list)
    for loop in loops:
        if loop.line is not None:
            by_line[loop.line].append(loop)
    out, renamed = [], 0
    for number, (text, mask) in enumerate(zip(seq_lines, code), 1):
        hits = [m.end() for m in CXX_ONLY_KEYWORDS.finditer(mask)]
        if not hits:
            out.append(text)
            continue
        for end in reversed(hits):
            text = text[:end] + "_" + text[end:]
        renamed += len(hits)
        for loop in by_line.get(number, []):
            loop.column += sum(1 for end in hits if end < loop.column)
        out.append(text)
    return out, renamed


def annotate(seq_lines, loops):
    """The sequential source with a pragma before each loop; returns (text, {pragma line: loop}).

    A pragma goes on a line of its own before the loop's line; where something precedes the 'for' on
    that line (`else for`, `{ for`), the line is split at the 'for' first."""
    by_line = collections.defaultdict(list)
    for loop in loops:
        by_line[loop.line].append(loop)
    out, at = [], {}
    for number, text in enumerate(seq_lines, 1):
        pending = sorted(by_line.get(number, []), key=lambda l: l.column)
        cut = 0
        for loop in pending:
            head = text[cut:loop.column - 1]
            if head.strip():
                out.append(head)
            pragma = "#pragma gpu_autopar for" + "".join(" " + c for c in loop.clauses)
            out.append(pragma)
            at[len(out)] = loop
            cut = loop.column - 1
            text_rest = " " * cut + text[cut:]
            text = text_rest
        out.append(text)
    return "\n".join(out), at


def run_tool(args, copy, seq_lines, loops, strict):
    """Run the tool once on `copy` with the given loops annotated; returns {loop: report entry or None}."""
    text, at = annotate(seq_lines, loops)
    name = os.path.basename(copy)
    with open(copy, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    report = copy + ".report.json"
    if os.path.exists(report):
        os.remove(report)
    cmd = [args.tool, "--check", "--no-remarks", "--report=" + report] + (["--strict"] if strict else [])
    cmd += [copy, "--"] + args.prelude + args.flag
    started = time.monotonic()

    def limit_cpu():
        # CPU seconds, not wall-clock: the verdict must not depend on how busy the machine is.
        resource.setrlimit(resource.RLIMIT_CPU, (args.timeout, args.timeout + 1))

    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limit_cpu,
                              timeout=args.timeout * 20)
    except subprocess.TimeoutExpired:
        return None, at
    if proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return None, at
    if args.verbose:
        print("  %5.1f s  %s: %d loops%s" % (time.monotonic() - started, copy, len(loops), " --strict" if strict else ""),
              file=sys.stderr)
    entries = {}
    if os.path.exists(report):
        with open(report, encoding="utf-8") as f:
            for entry in json.load(f).get("loops", []):
                loc = entry.get("location", {})
                if os.path.basename(loc.get("file", "")) == name:
                    entries[loc.get("line")] = entry
    out = {loop: entries.get(line) for line, loop in at.items()}
    if not entries and proc.returncode != 0:
        stderr = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        for loop in out:
            out[loop] = {"decision": "rejected", "reasons": [
                {"kind": "error", "message": "no report (exit %d): %s" % (proc.returncode, stderr[0] if stderr else "")}]}
    return out, at


def advice(entry):
    clauses = []
    for reason in entry.get("reasons", []):
        if reason.get("kind") != "error":
            continue
        m = ADVICE_REDUCTION.match(reason.get("message", "")) or ADVICE_FLAG.match(reason.get("message", ""))
        if m:
            clauses.append("reduction(%s: %s)" % (m.group(2), m.group(1)))
            continue
        m = ADVICE_PRIVATE.match(reason.get("message", ""))
        if m:
            clauses.append("private(%s)" % m.group(1))
    return clauses


def classify(loop, entry):
    if entry is None:
        loop.result = "unannotated"
        loop.messages = ["the tool's report has no entry for the pragma (not attached to a loop)"]
        return
    decision = entry.get("decision")
    kinds = collections.defaultdict(list)
    for reason in entry.get("reasons", []):
        kinds[reason.get("kind")].append(reason.get("message", ""))
    if decision == "rejected":
        loop.result = "rejected"
        loop.messages = kinds["error"] or ["rejected without an error"]
    elif decision in ("accepted", "rewritten"):
        loop.messages = kinds["warning"]
        if kinds["warning"]:
            loop.result = "warned"
        elif entry.get("alias_checks") or entry.get("bounds_checks"):
            loop.result = "checked"
        else:
            loop.result = "clean"
    else:
        loop.result = "rejected"
        loop.messages = ["decision '%s'" % decision]


def evaluate_file(args, seq_src, copy, loops, strict):
    """All placed loops of one source, annotated together where they are not nested, with clauses
    added on the tool's advice; every loop ends with a result. `copy` is where the source's copy is
    written, among copies of the files it includes."""
    seq_lines = read_lines(seq_src)
    if seq_src.endswith(".c") and not args.as_is:
        seq_lines, renamed = rename_cxx_keywords(seq_lines, loops)
        for loop in loops:
            loop.renamed = renamed
    pending = [l for l in loops if l.line is not None]
    tries = collections.Counter()
    slow = False
    while pending:
        groups = [[l] for l in pending] if args.isolate or slow else [pending]
        next_pending = []
        while groups:
            group = groups.pop(0)
            entries, at = run_tool(args, copy, seq_lines, group, strict)
            if entries is None:
                if len(group) > 1:
                    # Some loop of the batch takes the tool longer than --timeout: find it, one a run
                    # (from now on for this file: a loop can become slow once its clauses are added).
                    slow = True
                    groups = [[l] for l in group] + groups
                    continue
                entries = {group[0]: {"decision": "rejected", "reasons": [
                    {"kind": "error", "message": "the tool took more than %d s of CPU time" % args.timeout}]}}
            line_of = {loop: line for line, loop in at.items()}
            for loop in group:
                entry = entries.get(loop)
                if entry is not None and entry.get("decision") == "ignored":
                    # Inside another annotated loop of this run: annotated alone in a later run, once
                    # the loops around it are decided.
                    loop.inside = entry
                    next_pending.append(loop)
                    continue
                new = [c for c in advice(entry) if c not in loop.clauses] if entry and args.clauses == "advice" else []
                if new and tries[loop] < MAX_CLAUSE_ROUNDS:
                    tries[loop] += 1
                    loop.clauses += new
                    next_pending.append(loop)
                    continue
                classify(loop, entry)
        if len(next_pending) == len(pending) and all(l.inside is not None for l in next_pending) \
                and not any(tries[l] for l in next_pending):
            # Nothing moved (cannot happen unless the tool ignores every loop): give up on them.
            for loop in next_pending:
                classify(loop, None)
            break
        pending = next_pending
    return loops


def collect(args, key):
    suite = SUITES[key][0]
    ref_root = os.path.join(args.apb, "benchmarks", "reference_cpu_threading", suite)
    seq_root = os.path.join(args.apb, "benchmarks", "sequential", suite)
    files = []
    for dirpath, _, names in os.walk(ref_root):
        for name in sorted(names):
            if not name.endswith(".json"):
                continue
            ref_src = os.path.join(dirpath, name[:-5])
            if args.only and args.only not in ref_src:
                continue
            seq_src = os.path.join(seq_root, os.path.relpath(ref_src, ref_root))
            truth = read_truth(os.path.join(dirpath, name))
            if not truth:
                continue
            loops = [Loop(seq_src, *t[:3], function=t[3]) for t in truth]
            if not os.path.exists(seq_src) or not os.path.exists(ref_src):
                for loop in loops:
                    loop.unmatched = "no sequential source %s" % seq_src
            else:
                place_loops(ref_src, seq_src, loops)
                nest_loops(seq_src, loops)
            files.append((seq_src, loops))
    return sorted(files, key=lambda f: f[0]), seq_root


def mirror_suite(args, seq_root):
    """A copy of the suite's sequential folder, so that each annotated source sits among the headers it
    includes (`"../common/npb-C.h"`); in C headers, names that are C++ keywords are renamed as in the
    sources (NPB's npb-C.h declares `char class`)."""
    mirror = tempfile.mkdtemp(prefix="apb-", dir=args.workdir)
    copy_root = os.path.join(mirror, os.path.basename(seq_root))
    shutil.copytree(seq_root, copy_root, symlinks=True)
    if not args.as_is:
        for dirpath, _, names in os.walk(copy_root):
            for name in names:
                if name.endswith(".h"):
                    path = os.path.join(dirpath, name)
                    lines, renamed = rename_cxx_keywords(read_lines(path), [])
                    if renamed:
                        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                            f.write("\n".join(lines))
    return mirror, copy_root


def run_suite(args, key, strict):
    files, seq_root = collect(args, key)
    mirror, copy_root = mirror_suite(args, seq_root)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(evaluate_file, args, src, os.path.join(copy_root, os.path.relpath(src, seq_root)),
                                   loops, strict) for src, loops in files]
            done = []
            for fut in futures:
                done.extend(fut.result())
    finally:
        if args.keep:
            print("annotated copies kept in %s" % mirror)
        else:
            shutil.rmtree(mirror, ignore_errors=True)
    for loop in done:
        if loop.line is None:
            loop.result = "unannotated"
            loop.messages = ["not placed in the sequential source: " + loop.unmatched]
    return done, seq_root


def published_scores(apb, key):
    """What AutoParBench's newest report (reports/<date>/Summary-Report.md in the checkout) says of the
    tools it evaluated on this suite: per tool, the sources it was scored on, with DP, TP, TN, FP, FN and
    N/A loop counts per source. A tool's figure is only comparable on the same loops: the report leaves out
    the sources a tool failed on (for autoPar, four of the PolyBench-derived DataRaceBench files)."""
    reports = sorted(glob.glob(os.path.join(apb, "reports", "*", "Summary-Report.md")))
    if not reports:
        return None, {}
    with open(reports[-1], encoding="utf-8", errors="replace") as f:
        text = f.read()
    suite = SUITES[key][0]
    scores = {}
    for table in text.split("<table>")[1:]:
        title = re.search(r"colspan=\W*8\W*>\s*(.*?)\s*</th>", table)
        if not title:
            continue
        files = {}
        for row in re.finditer(r"<tr><td>\d+</td><td>([^<]*)</td>((?:<td>\s*\d+\s*</td>){6})</tr>", table):
            parts = row.group(1).strip().split("/")
            if suite in parts:
                rel = "/".join(parts[parts.index(suite) + 1:])
                files[rel] = [int(x) for x in re.findall(r"\d+", row.group(2))]
        if files:
            scores[title.group(1)] = files
    return os.path.relpath(reports[-1], apb), scores


def accuracy(counts):
    """AutoParBench's accuracy (its Metrics-Report): (TP + TN) / (TP + TN + FP + FN) over the loops a
    tool was scored on; loops it parallelised differently (DP) and loops missing from its output (N/A)
    are outside the count."""
    _, tp, tn, fp, fn, _ = counts
    judged = tp + tn + fp + fn
    return (tp + tn) / judged if judged else 0.0, judged


def normalise(message):
    """A diagnostic with its names and numbers taken out, so that causes group."""
    message = re.sub(r"'[^']*'", "'_'", message)
    message = re.sub(r"\b\d+\b", "N", message)
    return message


def summarise(key, loops, root, strict, out, published=(None, {})):
    title = "%s subset%s" % (SUITES[key][1], ", --strict" if strict else "")
    total = len(loops)
    par = [l for l in loops if l.parallel]
    seq = [l for l in loops if not l.parallel]
    table = collections.Counter((l.result, l.parallel) for l in loops)
    agree = sum(1 for l in loops if l.accepted == l.parallel)
    clean_only = sum(1 for l in loops if (l.result in ("clean", "checked")) == l.parallel)
    w = out.write
    w("\n== %s: %d loops (%d parallel, %d not parallel in the ground truth), %d files\n"
      % (title, total, len(par), len(seq), len({l.source for l in loops})))
    w("  %-36s %9s %13s\n" % ("tool's answer", "parallel", "not parallel"))
    for result, label in (("clean", "accepted, clean"), ("checked", "accepted with a run-time check"),
                          ("warned", "accepted with warnings"), ("rejected", "rejected"),
                          ("unannotated", "could not be annotated")):
        w("  %-36s %9d %13d\n" % (label, table[(result, True)], table[(result, False)]))
    w("  agreement: %.1f%% (%d of %d)\n" % (100.0 * agree / total if total else 0, agree, total))
    report, scores = published
    if scores:
        w("  the tools AutoParBench's report (%s) scored, on the same sources:\n" % report)
    peers = {}
    for tool, files in scores.items():
        mine = [l for l in loops if os.path.relpath(l.source, root) in files]
        if not mine:
            continue
        theirs, judged = accuracy([sum(c[i] for c in files.values()) for i in range(6)])
        a = sum(1 for l in mine if l.accepted == l.parallel)
        w("  on the %d source(s) %s was scored on (%d of its loops judged, accuracy %.1f%%): %.1f%% (%d of %d)\n"
          % (len({l.source for l in mine}), tool, judged, 100.0 * theirs, 100.0 * a / len(mine), a, len(mine)))
        peers[tool] = {"sources": len({l.source for l in mine}), "report_loops": judged,
                       "report_accuracy": theirs, "agreement": [a, len(mine)]}
    w("  agreement counting warned loops as rejected: %.1f%%\n" % (100.0 * clean_only / total if total else 0))
    known = [l for l in loops if not l.under_parallel]
    agree_known = sum(1 for l in known if l.accepted == l.parallel)
    w("  agreement without the %d not-parallel loops nested in a parallel one: %.1f%% (%d of %d)\n"
      % (total - len(known), 100.0 * agree_known / len(known) if known else 0, agree_known, len(known)))
    shifted = [l for l in loops if l.shift]
    if shifted:
        w("  placed a few lines away from the JSON's line (same shift for the file): %d loops in %d files\n"
          % (len(shifted), len({l.source for l in shifted})))
    renamed = {l.source: l.renamed for l in loops if l.renamed}
    if renamed:
        w("  names that are C++ keywords renamed in the copies: %d in %d files\n" % (sum(renamed.values()), len(renamed)))
    with_clauses = [l for l in loops if l.clauses]
    w("  loops annotated with clauses the tool advised: %d\n" % len(with_clauses))
    false_accepts = [l for l in loops if l.accepted and not l.parallel]
    by_kind = collections.Counter(l.result for l in false_accepts)
    w("  false accepts (accepted, ground truth not parallel): %d (%d clean, %d with a run-time check, %d warned; "
      "%d of them nested in a parallel loop)\n" % (len(false_accepts), by_kind["clean"], by_kind["checked"],
                                                    by_kind["warned"], sum(1 for l in false_accepts if l.under_parallel)))
    for l in sorted(false_accepts, key=lambda l: (l.source, l.ref_line)):
        inside = ""
        outer = next((a for a in l.ancestors() if a.parallel), None)
        if outer is not None:
            inside = " (inside the parallel loop at line %d)" % outer.line
        w("    %s [%s]%s%s%s\n" % (l.where(root), l.result, inside,
                                   (" " + " ".join(l.clauses)) if l.clauses else "",
                                   (" — " + l.messages[0]) if l.messages else ""))
    false_rejects = [l for l in loops if not l.accepted and l.parallel]
    causes = collections.Counter(normalise(l.messages[0]) if l.messages else "?" for l in false_rejects)
    w("  false rejects (rejected or not annotated, ground truth parallel): %d; causes (first error):\n" % len(false_rejects))
    for cause, count in causes.most_common(args_top):
        w("    %4d  %s\n" % (count, cause))
    warned = [l for l in loops if l.result == "warned"]
    if warned:
        wcauses = collections.Counter(normalise(l.messages[0]) for l in warned)
        w("  accepted with warnings: %d; first warning:\n" % len(warned))
        for cause, count in wcauses.most_common(args_top):
            w("    %4d  %s\n" % (count, cause))
    return {"suite": key, "strict": strict, "loops": total, "parallel": len(par), "agreement": agree,
            "agreement_without_nested": [agree_known, len(known)], "peers": peers,
            "false_accepts": [l.where(root) for l in false_accepts],
            "table": {"%s/%s" % (r, "parallel" if p else "not-parallel"): n for (r, p), n in table.items()}}


args_top = 10


def main():
    global args_top
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tool", required=True, help="path of the gpu-autopar executable")
    p.add_argument("--apb", required=True, help="a checkout of AutoParBench (the folder holding benchmarks/)")
    p.add_argument("--suite", action="append", choices=sorted(SUITES), help="drb, npb (default: both)")
    p.add_argument("--mode", choices=["default", "strict", "both"], default="both")
    p.add_argument("--clauses", choices=["advice", "none"], default="advice",
                   help="advice: add the private(...)/reduction(...) clause the tool's error names and run again "
                        "(as a user would); none: the bare pragma only")
    p.add_argument("--isolate", action="store_true", help="one annotated loop per tool run (slow; checks batching)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=20,
                   help="CPU seconds per tool run; a batch that takes longer is run again one loop a run, and a "
                        "loop that takes longer alone counts as rejected")
    p.add_argument("--only", help="only the sources whose path contains this")
    p.add_argument("-v", "--verbose", action="store_true", help="print how long each tool run took")
    p.add_argument("--top", type=int, default=10, help="how many causes to list")
    p.add_argument("--json", help="write the per-loop results here")
    p.add_argument("--expect", help="a file of 'file:line result' lines the results must equal (self-test)")
    p.add_argument("--keep", action="store_true", help="keep the annotated copies (printed work folder)")
    p.add_argument("--workdir", help="where to put the annotated copies (default: the system's temporary folder)")
    p.add_argument("--as-is", action="store_true",
                   help="pass the C sources as they are: no " + " ".join(PRELUDE) + ", no renaming of names that "
                        "are C++ keywords")
    p.add_argument("--flag", action="append", default=[], help="an extra compiler argument after '--' (repeatable)")
    args = p.parse_args()
    args_top = args.top
    args.prelude = [] if args.as_is else PRELUDE
    args.tool = os.path.abspath(args.tool)
    if not os.access(args.tool, os.X_OK):
        p.error("no executable gpu-autopar at %s" % args.tool)
    suites = args.suite or ["drb", "npb"]
    modes = {"default": [False], "strict": [True], "both": [False, True]}[args.mode]
    summaries, per_loop, results = [], [], {}
    for key in suites:
        published = published_scores(args.apb, key)
        if not os.path.isdir(os.path.join(args.apb, "benchmarks", "reference_cpu_threading", SUITES[key][0])):
            p.error("%s has no benchmarks/reference_cpu_threading/%s" % (args.apb, SUITES[key][0]))
        for strict in modes:
            loops, root = run_suite(args, key, strict)
            summary = summarise(key, loops, root, strict, sys.stdout, published)
            summaries.append(summary)
            results[("agreement:loops", strict)] = "%d/%d" % (summary["agreement"], summary["loops"])
            for tool, peer in summary["peers"].items():
                results[("agreement:%s" % tool, strict)] = "%d/%d" % tuple(peer["agreement"])
            for l in loops:
                where = l.where(root)
                results[(where, strict)] = l.result
                per_loop.append({"suite": key, "strict": strict, "where": where, "reference_line": l.ref_line,
                                 "column": l.column, "truth": l.truth_type, "result": l.result,
                                 "clauses": l.clauses, "messages": l.messages,
                                 "parent": l.parent.line if l.parent else None,
                                 "nested_in_parallel": l.under_parallel})
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"summaries": summaries, "loops": per_loop}, f, indent=1)
    if args.expect:
        # Every result of the run must be listed, and equal.
        wanted = {}
        with open(args.expect, encoding="utf-8") as f:
            for line in f:
                line = line.split("#")[0].strip()
                if line:
                    where, mode, result = line.split()
                    wanted[(where, mode == "strict")] = result
        wrong = 0
        for key in sorted(set(wanted) | set(results)):
            if wanted.get(key) != results.get(key):
                wrong += 1
                print("FAIL %s %s: expected %s, got %s" % (key[0], "strict" if key[1] else "default",
                                                           wanted.get(key), results.get(key)))
        print("self-test: %s" % ("PASS (%d results)" % len(results) if not wrong else "FAIL (%d)" % wrong))
        return 1 if wrong else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
