"""Generates C++ programs full of annotated kernel-mode loops that are legal by
construction, for the randomized differential test (random_check.py).

One seed gives one program: a set of arrays (1-D, 2-D and 3-D built-in arrays,
flat std::vectors, raw pointers, 2-D arrays passed as `T A[][C]`), a
deterministic initialisation, and a sequence of loop functions. Each loop
function holds one `#pragma gpu_autopar for` loop; main calls them in order and
prints a hash of every array (and every reduction variable) after each one, so
the serial build and the rewritten build can be compared byte for byte and a
difference names the first loop that went wrong.

Legal by construction: iteration v of an annotated loop writes only elements
whose coordinate along the annotated dimension is a one-to-one function of v
(v itself, reversed, 2*v + b, v + c), inner loops visit each remaining
coordinate at most once, and arrays written in a loop are read in it only at
the element the same iteration writes. Reads of other arrays may use halos
(neighbours) and broadcasts. Reductions (+, *, min, max over int, long,
unsigned long long and double) use values whose results do not depend on the
order of combination (small integers and powers of two in doubles, wrap-around
in unsigned products).

Usage: python3 loopgen.py SEED [--only 3,5] [-o FILE]
"""
import argparse
import random
import re
import sys

TYPES = ["double", "float", "int", "long"]
INT_TYPES = ("int", "long")


# Functions the loops may call: a template instantiated per element type, a
# chain of two, a class with a user constructor and operator. Kernel-mode
# bodies reach them, so the rewrite must mark each GPU_AUTOPAR_HD and the
# loops stay kernels (random_check.py checks the mode).
CALLEES = [
    "template <class T> T twice(T v) { return v + v; }",
    "static double half(double v);",
    "static double half(double v) { return v * 0.5; }",
    "static inline long plus_one(long v) { return v + 1; }",
    "static long bump(long v) { return plus_one(v) - 1; }",
    "struct Scale {",
    "  double f;",
    "  explicit Scale(double g) : f(g) {}",
    "};",
    "static double operator*(Scale s, double v) { return s.f * v; }",
    "",
]


def offset(o):
    """` + 2`, ` - 1` or nothing."""
    return "" if o == 0 else (" + %d" % o if o > 0 else " - %d" % -o)


class Array:
    """One array object: how it is declared, passed and indexed."""

    def __init__(self, name, ctype, dims, kind):
        self.name, self.ctype, self.dims, self.kind = name, ctype, dims, kind
        # kind: builtin (global T a[..][..]), vector (flat std::vector), pointer
        # (flat T*), rowptr (2-D global passed to the loop function as T A[][C])

    def size(self):
        n = 1
        for d in self.dims:
            n *= d
        return n

    def flat_index(self, idx, names):
        """idx: list of C++ expressions, one per dimension (row-major); names:
        the named constants to write extents with (else numbers)."""
        expr = idx[0]
        for d, e in zip(self.dims[1:], idx[1:]):
            expr = "(%s) * %s + %s" % (expr, names.get(d, str(d)), e)
        return expr

    def access(self, idx, names):
        if self.kind in ("builtin", "rowptr"):
            return self.name + "".join("[%s]" % e for e in idx)
        return "%s[%s]" % (self.name, self.flat_index(idx, names))

    def is_int(self):
        return self.ctype in INT_TYPES


class Loop:
    def __init__(self, index):
        self.index = index
        self.lines = []          # C++ lines of the loop function
        self.params = []         # (declaration, argument) of the loop function
        self.pragma_line = 0     # line of the pragma within self.lines (0-based)
        self.shape = ""
        self.used, self.written = [], []  # the arrays the loop touches, and those it writes


class Generator:
    def __init__(self, seed, data_env=False):
        self.seed = seed
        self.data_env = data_env  # main calls the loops inside data directives (DataEnvironment)
        self.r = random.Random(seed)
        r = self.r
        self.L = r.randint(40, 300)
        # big enough that chunks on several devices are in flight at once
        self.R, self.C = r.randint(8, 160), r.randint(8, 160)
        if r.random() < 0.4:
            self.C = self.R  # square: triangles and transposes
        self.L = max(self.L, self.R, self.C)
        self.P, self.Q, self.S = r.randint(3, 24), r.randint(3, 24), r.randint(3, 24)
        self.extent_names = {}
        for name, v in (("NS", self.S), ("NQ", self.Q), ("NP", self.P), ("NC", self.C), ("NR", self.R),
                        ("NL", self.L)):
            self.extent_names[v] = name   # equal extents share a name
        self.names = {}
        self.row_base = False
        self.arrays = []
        for dims, count in (([self.L], 5), ([self.R, self.C], 5), ([self.P, self.Q, self.S], 3),
                            ([2 * self.L + 2], 1)):
            for _ in range(count):
                kinds = ["builtin", "vector", "pointer"] + (["rowptr"] if len(dims) == 2 else [])
                self.new_array(dims, r.choice(TYPES), r.choice(kinds))
        # enough int arrays for reductions and int expressions
        self.new_array([self.L], "int", "builtin")
        self.new_array([self.R, self.C], "int", r.choice(["vector", "pointer"]))
        self.callees = r.random() < 0.6  # loops may call CALLEES
        self.loops = [self.make_loop(k) for k in range(r.randint(8, 12))]

    def new_array(self, dims, ctype, kind):
        a = Array("%s%d" % ("abcdefghijklmnopqrstuvwxyz"[len(self.arrays) % 26], len(self.arrays)), ctype, dims,
                  kind)
        self.arrays.append(a)
        return a

    # ---- ranges -----------------------------------------------------------
    def header(self, var, lo, hi, c89):
        """A for header visiting a subset of [lo, hi) (each value at most once)."""
        r = self.r
        decl = "" if c89 else "int "
        hi_text = self.number(hi)
        v = r.random()
        if hi - lo < 2 or v < 0.45:
            if not c89 and r.random() < 0.25:   # other induction types, counting up only
                decl = r.choice(["long ", "unsigned ", "std::size_t ", "long long "])
            cond = r.choice(["%s < %s" % (var, hi_text), "%s <= %s - 1" % (var, hi_text), "%s != %s" % (var, hi_text)])
            inc = r.choice([var + "++", "++" + var, var + " += 1"])
            # what the tool's section inference folds into an inner range
            self.plain = not c89 and "!=" not in cond and "+=" not in inc
            return "for (%s%s = %d; %s; %s)" % (decl, var, lo, cond, inc)
        self.plain = False
        if v < 0.7:
            start = "%s - 1" % hi_text
            cond = r.choice(["%s >= %d" % (var, lo), "%s > %d" % (var, lo - 1)])
            inc = r.choice([var + "--", "--" + var, var + " -= 1"])
            return "for (%s%s = %s; %s; %s)" % (decl, var, start, cond, inc)
        s = r.randint(2, 4)
        if r.random() < 0.5:
            if not c89 and r.random() < 0.25:
                decl = r.choice(["long ", "unsigned ", "std::size_t "])
            return "for (%s%s = %d; %s < %s; %s += %d)" % (decl, var, lo, var, hi_text, var, s)
        return "for (%s%s = %s - 1; %s >= %d; %s -= %d)" % (decl, var, hi_text, var, lo, var, s)

    def number(self, v):
        """v as a named extent (`NC - 2`) in a loop that spells extents by name, else as a number."""
        for d, name in sorted(self.names.items(), key=lambda x: x[0]):   # the nearest extent above
            if 0 <= d - v <= 2:
                return name + offset(v - d)
        return str(v)

    def acc(self, a, idx):
        if self.row_base and a.kind in ("vector", "pointer") and len(a.dims) == 2 and idx[0] == "i":
            return "%s[row + %s]" % (a.name, idx[1])   # through `const int row = i * C;`
        return a.access(idx, self.names)

    # ---- expressions ------------------------------------------------------
    def value(self, dst, terms):
        r = self.r
        # Sometimes through the program's own functions (a template, a chain,
        # an operator of a class), which the rewrite makes device-callable.
        if self.callees and r.random() < 0.3:
            self.calls = True
            k = r.randrange(len(terms))
            terms = list(terms)
            if dst.is_int():
                terms[k] = "bump(%s)" % terms[k]
            else:
                terms[k] = r.choice(["half(twice(%s))", "(Scale(0.5) * %s)"]) % terms[k]
        if dst.is_int():
            coefs = [str(r.randint(1, 5)) for _ in terms]
            body = " + ".join("%s * %s" % (c, t) for c, t in zip(coefs, terms))
            return "(%s + %d) %% %d" % (body, r.randint(0, 50), r.choice([1009, 10007, 65521]))
        f = "f" if dst.ctype == "float" else ""
        coefs = [r.choice(["0.5", "0.25", "1.5", "2.0", "-0.75"]) + f for _ in terms]
        body = " + ".join("%s * %s" % (c, t) for c, t in zip(coefs, terms))
        return "%s + %s%s" % (body, r.choice(["1.0", "0.125", "-3.0"]), f)

    def pick(self, dims, exclude=(), want_int=None):
        cands = [a for a in self.arrays if a.dims == dims and a not in exclude and
                 (want_int is None or a.is_int() == want_int)]
        return self.r.choice(cands) if cands else None

    # ---- reductions -------------------------------------------------------
    def reductions(self, loop, int_reads):
        """Reduction variables and the statements that update them from int reads."""
        r = self.r
        reds, stmts = [], []
        if not int_reads or r.random() < 0.45:
            return reds, stmts
        for n in range(r.randint(1, 3)):
            op = r.choice(["+", "*", "min", "max"])
            ctype = r.choice(["int", "long", "double"] if op != "*" else ["unsigned long long", "long", "double"])
            name = "red%d_%d" % (loop.index, n)
            x = r.choice(int_reads)
            if op == "+":
                init = {"double": "0.5", "int": "3", "long": "-7"}[ctype]
                rhs = "%s * 0.5" % x if ctype == "double" else x
                stmt = "%s += %s;" % (name, rhs)
            elif op == "*":
                init = "1"
                if ctype == "double":
                    # powers of two, rare enough that even 25600 iterations stay far from overflow
                    stmt = "%s *= (%s %% 61 == 7 ? 2.0 : (%s %% 61 == 8 ? 0.5 : (%s %% 2 ? -1.0 : 1.0)));" % (
                        name, x, x, x)
                elif ctype == "long":
                    stmt = "%s *= (%s %% 2 == 0 ? 1L : -1L);" % (name, x)
                else:
                    stmt = "%s *= (unsigned long long)(%s) * 2ULL + 1ULL;" % (name, x)
            else:
                init = {"min": "1000000", "max": "-1000000"}[op]
                rel = "<" if op == "min" else ">"
                form = r.randint(0, 2)
                if form == 0:
                    stmt = "%s = std::%s(%s, (%s)(%s));" % (name, op, name, ctype, x)
                elif form == 1:
                    stmt = "%s = %s %s %s ? %s : %s;" % (name, x, rel, name, x, name)
                else:
                    stmt = "if (%s %s %s) %s = %s;" % (x, rel, name, name, x)
            reds.append((op, ctype, name, init))
            stmts.append(stmt)
        return reds, stmts

    # ---- clauses ----------------------------------------------------------
    def pragma(self, reds, privates, maps):
        r = self.r
        parts = ["#pragma gpu_autopar for"]
        by_op = {}
        for op, _, name, _ in reds:
            by_op.setdefault(op, []).append(name)
        for op, names in by_op.items():
            parts.append("reduction(%s: %s)" % (op, ", ".join(names)))
        if privates:
            parts.append("private(%s)" % ", ".join(privates))
        for kind, a in maps:
            lo = 0
            parts.append("map(%s: %s[%d:%d])" % (kind, a.name, lo, a.dims[0] if a.kind == "rowptr" else a.size()))
        if r.random() < 0.6:
            parts.append("slots(%d)" % r.randint(1, 3))
        if r.random() < 0.4:
            parts.append(r.choice(["schedule(static)", "schedule(dynamic)", "schedule(guided)",
                                   "schedule(dynamic, %d)" % r.randint(1, 7), "schedule(static, %d)" % r.randint(1, 5),
                                   "schedule(adaptive)"]))
        return " ".join(parts)

    def maps_for(self, written, read, force):
        """map clauses for raw pointers: always where `force`, else sometimes."""
        maps = []
        for a in written + read:
            if a.kind in ("pointer", "rowptr") and (force or self.r.random() < 0.3):
                maps.append(("tofrom" if a in written else "to", a))
        return maps

    # ---- loop shapes ------------------------------------------------------
    def make_loop(self, k):
        loop = Loop(k)
        # extents spelled with numbers, with named constants, or with the loop
        # function's own parameters (`int nq`): run-time values the tool sees
        # only as symbols, so strides like `(i * nq + j) * ns + k` are symbolic
        spelling = self.r.random()
        if spelling < 0.35:
            self.names = {}
        elif spelling < 0.7:
            self.names = dict(self.extent_names)
        else:
            self.names = {v: n.lower() for v, n in self.extent_names.items()}
            self.extent_type = self.r.choice(["int", "const int", "long"])
        shape = self.r.choice(["nest1", "nest2", "nest2", "nest3", "matvec", "strided", "offset", "reduce",
                               "rangefor"])
        self.calls = False
        getattr(self, "shape_" + shape)(loop)
        loop.shape = shape
        loop.calls = self.calls
        return loop

    def emit(self, loop, written, read, headers, body, reds, c89, force_maps):
        """Assembles a loop function: declarations, pragma, the nest (headers
        open blocks; body lines starting with `for ` open one, `}` closes one),
        and a line printing each reduction variable."""
        used = []
        for a in written + read:
            if a not in used:
                used.append(a)
        maps = self.maps_for([a for a in used if a in written], [a for a in used if a not in written], force_maps)
        loop.used, loop.written = used, [a for a in used if a in written]
        loop.params = [(self.param_decl(a, a in written), a.name) for a in used if a.kind != "builtin"]
        loop_vars = [v for _, v in headers] + [re.match(r"for \((?:[\w:]+ )*(\w+) =", l).group(1) for l in body
                                                if l.startswith("for ")]
        privates = loop_vars[1:] if c89 else []
        lines = []
        for op, ctype, name, init in reds:
            lines.append("  %s %s = %s;" % (ctype, name, init))
        if c89:
            lines.append("  int %s;" % ", ".join(loop_vars))
        loop.pragma_line = len(lines)
        lines.append(self.pragma(reds, privates, maps))
        depth = 1
        for text, _ in headers:
            lines.append("  " * depth + text + " {")
            depth += 1
        for stmt in body:
            if stmt == "}":
                depth -= 1
                lines.append("  " * depth + "}")
            elif stmt.startswith("for "):
                lines.append("  " * depth + stmt + " {")
                depth += 1
            else:
                lines.append("  " * depth + stmt)
        while depth > 1:
            depth -= 1
            lines.append("  " * depth + "}")
        for op, ctype, name, init in reds:
            fmt = {"double": "%a", "int": "%d", "long": "%ld", "unsigned long long": "%llu"}[ctype]
            lines.append('  std::printf("L%d %s=%s\\n", %s);' % (loop.index, name, fmt, name))
        loop.lines = lines
        text = "\n".join(lines)
        for v, n in sorted(self.extent_names.items()):
            if n.lower() in self.names.values() and re.search(r"\b%s\b" % n.lower(), text):
                loop.params.append(("%s %s" % (self.extent_type, n.lower()), n))

    def param_decl(self, a, written):
        const = "" if written or self.r.random() < 0.5 else "const "
        if a.kind == "vector":
            return "%sstd::vector<%s> &%s" % (const, a.ctype, a.name)
        if a.kind == "rowptr":
            return "%s%s %s[][%d]" % (const, a.ctype, a.name, a.dims[1])
        return "%s%s *%s" % (const, a.ctype, a.name)

    def nest(self, loop, dims):
        """A perfect nest over a space of `dims`: elementwise writes with halo reads."""
        r = self.r
        nd = len(dims)
        order = list(range(nd))
        r.shuffle(order)                  # order[0]: the annotated dimension
        var_of = {d: "ijk"[pos] for pos, d in enumerate(order)}
        halo = [r.choice([0, 0, 1, 1, 2]) if dims[d] > 6 else 0 for d in range(nd)]
        c89 = r.random() < 0.25
        # written arrays: 1-2, each coordinate maps one-to-one from the loop variables
        written = []
        for _ in range(r.choice([1, 1, 2])):
            a = self.pick(dims, exclude=written)
            if a:
                written.append(a)
        flip = [r.random() < 0.2 for _ in range(nd)]   # write coordinate reversed: D-1-v
        wcoord = ["%s - %s" % (self.number(dims[d] - 1), var_of[d]) if flip[d] else var_of[d] for d in range(nd)]
        read = [a for a in (self.pick(dims, exclude=written) for _ in range(r.randint(1, 3))) if a]
        # ranges: [halo, dim - halo); a triangle over two equal dimensions
        ranges = [(halo[d], dims[d] - halo[d]) for d in range(nd)]
        headers = []
        tri = nd >= 2 and dims[order[0]] == dims[order[1]] and r.random() < 0.4
        if tri:
            h = max(halo[order[0]], halo[order[1]])
            ranges[order[0]] = ranges[order[1]] = (h, dims[order[0]] - h)
        plain = True
        for pos, d in enumerate(order):
            v = var_of[d]
            lo, hi = ranges[d]
            if pos == 1 and tri:
                outer = var_of[order[0]]
                decl = "" if c89 else "int "
                headers.append((r.choice([
                    "for (%s%s = %d; %s <= %s; %s++)" % (decl, v, lo, v, outer, v),
                    "for (%s%s = %s; %s < %d; ++%s)" % (decl, v, outer, v, hi, v),
                    "for (%s%s = %s; %s >= %d; %s--)" % (decl, v, outer, v, lo, v)]), v))
                plain = False
            else:
                headers.append((self.header(v, lo, hi, c89), v))
                plain = plain and (pos == 0 or self.plain)
        # a flat 2-D row sweep may index through `const int row = i * C;`
        self.row_base = nd == 2 and order[0] == 0 and r.random() < 0.3
        int_reads, terms = [], []
        for a in read:
            idx = [var_of[d] + offset(r.randint(-halo[d], halo[d])) for d in range(nd)]
            acc = self.acc(a, idx)
            terms.append(acc)
            if a.is_int():
                int_reads.append(acc)
        body = []
        for w in written:
            t = [x for x, a in zip(terms, read) if a.is_int() or not w.is_int()]
            if r.random() < 0.5:
                t.append(self.acc(w, wcoord))           # in place: reads what it writes
            if r.random() < 0.3:
                t.append(var_of[order[-1]])
            if not t:
                t = [var_of[order[0]]]
            body.append("%s = %s;" % (self.acc(w, wcoord), self.value(w, t)))
        reds, stmts = self.reductions(loop, int_reads)
        pre = ["const int row = i * (%s);" % self.number(dims[1])] if self.row_base else []
        self.row_base = False
        self.emit(loop, written, read, headers[:1], pre + [h for h, _ in headers[1:]] + body + stmts, reds, c89,
                  force_maps=order[0] != 0 or not plain)

    def shape_nest1(self, loop):
        self.nest(loop, [self.L])

    def shape_nest2(self, loop):
        self.nest(loop, [self.R, self.C])

    def shape_nest3(self, loop):
        self.nest(loop, [self.P, self.Q, self.S])

    def shape_matvec(self, loop):
        """y[i] = sum_j A[i][j] * x[j] (row), or y[j] = sum_i A[i][j] * x[i] (column),
        sometimes adding the outer loop's own x[i] (x[j] in a column sweep)."""
        r = self.r
        row = r.random() < 0.5
        A = self.pick([self.R, self.C])
        y = self.pick([self.L], want_int=A.is_int()) or self.pick([self.L])
        x = self.pick([self.L], exclude=[y])
        o, inner = ("i", "j") if row else ("j", "i")
        n_outer, n_inner = (self.R, self.C) if row else (self.C, self.R)
        c89 = r.random() < 0.25
        acc_t = "long" if (y.is_int() and A.is_int() and x.is_int()) else "double"
        elem = "%s%s * %s" % ("(long)" if acc_t == "long" else "", self.acc(A, ["i", "j"]), self.acc(x, [inner]))
        if acc_t == "long":
            elem = "(%s) %% 101" % elem
        if r.random() < 0.4:   # pairwise: x[j] with x[i], two coefficients of the loop variable
            elem = "%s + %s" % (elem, self.acc(x, [o]))
        headers = [(self.header(o, 0, n_outer, c89), o)]
        body = ["%s acc = 0;" % acc_t, self.header(inner, 0, n_inner, c89)]
        plain = self.plain
        body += ["acc += %s;" % elem, "}",
                 "%s = (%s)(%s);" % (self.acc(y, [o]), y.ctype,
                                     # an int from a double only through fmod: the conversion stays in range
                                     "acc % 100003" if acc_t == "long" else
                                     "std::fmod(acc, 65521.0)" if y.is_int() else "acc * 0.5")]
        reds, stmts = self.reductions(loop, [self.acc(x, [o])] if x.is_int() else [])
        self.emit(loop, [y], [A, x], headers, body + stmts, reds, c89, force_maps=not (row and plain))

    def shape_strided(self, loop):
        """y[2*i + b] = f(x[i], y[2*i + 1 - b]) over the doubled array (the other half only read)."""
        r = self.r
        y = self.pick([2 * self.L + 2])
        x = self.pick([self.L])
        b = r.randint(0, 1)
        headers = [(self.header("i", 0, self.L, False), "i")]
        terms = [self.acc(x, ["i"])] if (x.is_int() or not y.is_int()) else []
        terms.append(self.acc(y, ["2 * i + %d" % (1 - b)]))
        body = ["%s = %s;" % (self.acc(y, ["2 * i + %d" % b]), self.value(y, terms))]
        reds, stmts = self.reductions(loop, [self.acc(x, ["i"])] if x.is_int() else [])
        self.emit(loop, [y], [x], headers, body + stmts, reds, False, force_maps=False)

    def shape_offset(self, loop):
        """y[i + c] = f(x[i]) over i in [0, L - c)."""
        r = self.r
        c = r.randint(1, 5)
        y = self.pick([self.L])
        x = self.pick([self.L], exclude=[y])
        c89 = r.random() < 0.25
        headers = [(self.header("i", 0, self.L - c, c89), "i")]
        terms = [self.acc(x, ["i"])] if (x.is_int() or not y.is_int()) else ["i"]
        body = ["%s = %s;" % (self.acc(y, ["i + %d" % c]), self.value(y, terms))]
        reds, stmts = self.reductions(loop, [self.acc(x, ["i"])] if x.is_int() else [])
        self.emit(loop, [y], [x], headers, body + stmts, reds, c89, force_maps=False)

    def shape_reduce(self, loop):
        """Reductions only, over a 1-D or 2-D int array."""
        r = self.r
        two = r.random() < 0.5
        dims = [self.R, self.C] if two else [self.L]
        a = self.pick(dims, want_int=True)
        c89 = r.random() < 0.25
        headers = [(self.header("i", 0, dims[0], c89), "i")]
        body = [self.header("j", 0, dims[1], c89)] if two else []
        plain = not two or self.plain
        acc = self.acc(a, ["i", "j"] if two else ["i"])
        reds, stmts = [], []
        while not reds:
            reds, stmts = self.reductions(loop, [acc])
        self.emit(loop, [], [a], headers, body + stmts, reds, c89, force_maps=not plain)

    def shape_rangefor(self, loop):
        """for (T &x : a) x = f(x), or for (T x : a) with reductions, over a
        1-D built-in array or vector."""
        r = self.r
        a = r.choice([b for b in self.arrays if b.dims == [self.L] and b.kind in ("builtin", "vector")])
        if a.is_int() and r.random() < 0.5:
            headers = [("for (%s x : %s)" % (r.choice([a.ctype, "auto", "const %s &" % a.ctype]), a.name), "x")]
            reds, stmts = [], []
            while not reds:
                reds, stmts = self.reductions(loop, ["x"])
            self.emit(loop, [], [a], headers, stmts, reds, False, force_maps=False)
            return
        headers = [("for (%s &x : %s)" % (r.choice([a.ctype, "auto"]), a.name), "x")]
        self.emit(loop, [a], [], headers, ["x = %s;" % self.value(a, ["x"])], [], False, force_maps=False)

    # ---- the program ------------------------------------------------------
    def region_maps(self, kind):
        """`map(kind: ...)` of every array, for a data region around the loops."""
        items = [a.name if a.kind in ("builtin", "rowptr") else "%s[0:%d]" % (a.name, a.size()) for a in self.arrays]
        return "map(%s: %s)" % (kind, ", ".join(items))

    def program(self, only=None, region=None, synced=()):
        """The program's text and, for each loop included, the line of its pragma (1-based).
        region: None, "data" (the calls in main in one `#pragma gpu_autopar data`
        block) or "enter" (between `enter data` and `exit data`); inside it the
        arrays are printed only after the loops in `synced`, after an `update
        host` of every array, and once more after the region; the loops run
        twice there, as the sweeps of a solver, so that a loop reads what
        loops split differently wrote before it."""
        out = ["// Generated by test/random/loopgen.py, seed %d. Legal by construction." % self.seed,
               "#include <algorithm>", "#include <cmath>", "#include <cstdio>", "#include <cstring>", "#include <vector>", ""]
        out += ["static const int %s = %d;" % (n, v) for v, n in sorted(self.extent_names.items())] + [""]
        if self.callees:
            out += CALLEES
        for a in self.arrays:
            if a.kind in ("builtin", "rowptr"):
                out.append("static %s %s%s;" % (a.ctype, a.name, "".join("[%d]" % d for d in a.dims)))
            elif a.kind == "vector":
                out.append("static std::vector<%s> %s(%d);" % (a.ctype, a.name, a.size()))
            else:
                out.append("static %s *%s = new %s[%d];" % (a.ctype, a.name, a.ctype, a.size()))
        out += ["",
                "static unsigned long long hash(const void *p, std::size_t n) {",
                "  const unsigned char *b = static_cast<const unsigned char *>(p);",
                "  unsigned long long h = 1469598103934665603ULL;",
                "  for (std::size_t k = 0; k < n; k++)",
                "    h = (h ^ b[k]) * 1099511628211ULL;",
                "  return h;",
                "}", "",
                "static void dump(int loop) {"]
        for a in self.arrays:
            data = {"builtin": a.name, "rowptr": a.name, "vector": a.name + ".data()", "pointer": a.name}[a.kind]
            out.append('  std::printf("L%%d %s %%016llx\\n", loop, hash(%s, sizeof(%s) * %d));' % (
                a.name, data, a.ctype, a.size()))
        out += ["}", "", "static void init() {"]
        for n, a in enumerate(self.arrays):
            m = (97, 1000, 251)[n % 3]
            val = "(%s)((k * %d + %d) %% %d)" % (a.ctype, 2 * n + 3, n, m)
            if not a.is_int():
                val += " * 0.25"
            target = {"builtin": "(&%s%s)[k]" % (a.name, "[0]" * len(a.dims)),
                      "rowptr": "(&%s[0][0])[k]" % a.name, "vector": "%s[k]" % a.name, "pointer": "%s[k]" % a.name}
            out.append("  for (int k = 0; k < %d; k++)" % a.size())
            out.append("    %s = %s;" % (target[a.kind], val))
        out += ["}", ""]
        pragma_lines = {}
        for loop in self.loops:
            if only is not None and loop.index not in only:
                continue
            out.append("static void loop%d(%s) {" % (loop.index, ", ".join(p for p, _ in loop.params)))
            pragma_lines[loop.index] = len(out) + loop.pragma_line + 1
            out += loop.lines
            out += ["}", ""]
        out += ["int main() {", "  init();", "  dump(-1);"]
        kept = [loop for loop in self.loops if only is None or loop.index in only]
        if region == "data":
            out += ["#pragma gpu_autopar data " + self.region_maps("tofrom"), "  {"]
        elif region == "enter":
            out += ["#pragma gpu_autopar enter data " + self.region_maps("to")]
        if self.data_env and not region:
            out += DataEnvironment(self).main_lines(kept)
        else:
            if region:
                out += ["  for (int sweep = 0; sweep < 2; ++sweep) {"]
            for loop in kept:
                out.append("  loop%d(%s);" % (loop.index, ", ".join(a for _, a in loop.params)))
                if region and loop.index not in synced:
                    continue
                if region:
                    out.append("#pragma gpu_autopar update host(%s)" % self.region_maps("tofrom")[len("map(tofrom: "):-1])
                out.append("  dump(%d);" % loop.index)
            if region:
                out += ["  }"]
        if region == "data":
            out += ["  }", "  dump(1000);"]
        elif region == "enter":
            out += ["#pragma gpu_autopar exit data " + self.region_maps("from"), "  dump(1000);"]
        out += ["}", ""]
        return "\n".join(out), pragma_lines


class DataEnvironment:
    """With --data-env, main calls the loops inside data directives drawn
    from the seed: data regions (nested ones too, of the same arrays or of
    their first rows), enter/exit data (twice entered and exited with
    `finalize`, or released after an update), regions opened over entered
    data (released inside, or exited after), and sections of the first part
    of an array, which loops reach beyond (their chunks then copy through the
    host). The loops' own map clauses meet present data. Before a dump inside
    a construct, `update host` brings every mapped array back, so that the
    output is the serial program's wherever a device keeps the newest values;
    inside `tofrom` regions some dumps wait for the region's end."""

    def __init__(self, gen):
        self.gen = gen
        self.r = random.Random(gen.seed * 7001 + 3)
        self.present = {}  # array name -> the section an open construct maps

    def sections(self, arrays):
        """Sections for a construct, and the names it makes present (to
        forget when it ends). An array already present is named as it was:
        a part of it would be fine, more of it is an error (partly present)."""
        texts, added = [], []
        for a in arrays:
            if a.name not in self.present:
                self.present[a.name] = self.section(a)
                added.append(a.name)
            texts.append(self.present[a.name])
        return ", ".join(texts), added

    def forget(self, added):
        for name in added:
            del self.present[name]

    def whole(self, a):
        if a.kind == "pointer":
            return "%s[0:%d]" % (a.name, a.size())
        return a.name

    def section(self, a):
        """The array whole, or its first part (not for arrays that loops map
        with clauses of their own extent: pointers, `T A[][C]` parameters)."""
        if a.kind in ("builtin", "vector") and self.r.random() < 0.3:
            n = a.dims[0] if a.kind == "builtin" else a.size()
            if n > 2:
                return "%s[0:%d]" % (a.name, self.r.randint(1, n - 1))
        return self.whole(a)

    def pick(self, loops):
        """What a construct around `loops` maps: mostly arrays they write
        (whose results must come back), now and then others they read or none
        of them touch."""
        written = [a for l in loops for a in l.written]
        used = [a for l in loops for a in l.used]
        out = []
        for a in self.r.sample(written, min(len(written), self.r.randint(1, 2))):
            if a not in out:
                out.append(a)
        extra = self.r.choice([used, self.gen.arrays])
        for a in self.r.sample(extra, min(len(extra), self.r.randint(0, 2))):
            if a not in out:
                out.append(a)
        return out or [self.r.choice(self.gen.arrays)]

    def call(self, loop, indent, out):
        out.append(indent + "loop%d(%s);" % (loop.index, ", ".join(a for _, a in loop.params)))

    def update_dump(self, loop, indent, out):
        out.append(indent + "#pragma gpu_autopar update host(%s)" % ", ".join(self.whole(a) for a in self.gen.arrays))
        out.append(indent + "dump(%d);" % loop.index)

    def main_lines(self, loops):
        out, k = [], 0
        while k < len(loops):
            take = loops[k:k + self.r.randint(1, 3)]
            k += len(take)
            getattr(self, self.r.choice(["plain", "region", "region", "enter_exit", "enter_exit", "region_over_entered"]))(take, out)
        return out

    def plain(self, loops, out):
        for loop in loops:
            self.call(loop, "  ", out)
            out.append("  dump(%d);" % loop.index)

    def region(self, loops, out, indent="  ", nested=True):
        """`nested`: the last loop may go into a region of its own; a nested
        region (nested=False) ends with an update, being inside another."""
        kind = self.r.choice(["tofrom", "tofrom", "to"])
        secs, added = self.sections(self.pick(loops))
        out.append(indent + "#pragma gpu_autopar data map(%s: %s)" % (kind, secs))
        out.append(indent + "{")
        inner = indent + "  "
        for n, loop in enumerate(loops):
            if nested and n == len(loops) - 1 and self.r.random() < 0.4:
                # a nested region of some of the same arrays (present: one
                # reference more) or of others
                self.region([loop], out, inner, nested=False)
                continue
            self.call(loop, inner, out)
            if kind != "tofrom" or self.r.random() < 0.6:
                self.update_dump(loop, inner, out)
        out.append(indent + "}")
        self.forget(added)
        if nested:
            out.append(indent + "dump(%d);" % loops[-1].index)
        else:
            self.update_dump(loops[-1], indent, out)

    def enter_exit(self, loops, out):
        secs, added = self.sections(self.pick(loops))
        how = self.r.choice(["from", "finalize", "release"])
        out.append("  #pragma gpu_autopar enter data map(%s: %s)" % (self.r.choice(["to", "to", "alloc"]) if how != "release" else "to", secs))
        if how == "finalize":
            out.append("  #pragma gpu_autopar enter data map(to: %s)" % secs)
        for n, loop in enumerate(loops):
            self.call(loop, "  ", out)
            if how == "release" or n + 1 < len(loops):
                self.update_dump(loop, "  ", out)
        if how == "from":
            out.append("  #pragma gpu_autopar exit data map(from: %s)" % secs)
        elif how == "finalize":
            out.append("  #pragma gpu_autopar exit data map(from: %s) finalize" % secs)
        else:
            out.append("  #pragma gpu_autopar exit data map(release: %s)" % secs)
        self.forget(added)
        out.append("  dump(%d);" % loops[-1].index)

    def region_over_entered(self, loops, out):
        secs, added = self.sections(self.pick(loops))
        inside = self.r.random() < 0.5
        out.append("  #pragma gpu_autopar enter data map(to: %s)" % secs)
        out.append("  #pragma gpu_autopar data map(tofrom: %s)" % secs)
        out.append("  {")
        for loop in loops:
            self.call(loop, "    ", out)
            if self.r.random() < 0.5:
                self.update_dump(loop, "    ", out)
        if inside:  # the region's end is then the last reference
            out.append("    #pragma gpu_autopar exit data map(release: %s)" % secs)
        out.append("  }")
        if not inside:
            out.append("  #pragma gpu_autopar exit data map(from: %s)" % secs)
        self.forget(added)
        out.append("  dump(%d);" % loops[-1].index)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("--only", default=None, help="comma-separated loop indices to keep")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--data-env", action="store_true", help="call the loops inside data directives")
    a = ap.parse_args()
    only = None if a.only is None else {int(x) for x in a.only.split(",") if x}
    text, _ = Generator(a.seed, a.data_env).program(only)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
