"""Generates annotated loops that reach their data the way real C++ does, for
the randomized test of reach (reach_random.py): members of the enclosing
object (`this->u[i]`, `u[i]`), structs of pointers (`s.p[i]`), arrays of
structs (`pts[i].x`), members of nested structs (`o.f.data[i]`), LULESH-style
accessors (`d.x(i)`, private vectors behind inline methods returning
references), the program's own functions (a chain, a function template, a
functor, a local lambda, a static member), and loops in templates: a
function template and a class template, each instantiated for two element
types, and a template on a number (a halo width) instantiated for two widths.

One seed gives one unit: its own namespace `rSEED` holding its types, data and
loop functions, and `void run()`, which initialises the data, calls the loops
in order and prints `R<seed> L<k> <array> <hash>` for every array a loop
writes (and every reduction result), so that the serial build and the
rewritten one compare byte for byte and a difference names the seed and the
loop. Several seeds' units go into one translation unit (`program`), so that
one nvcc build serves them all.

Legal by construction: iteration i writes only element i of the arrays it
writes, and reads an array it writes only at element i; other arrays are
read at i - h .. i + h with the range shrunk to stay inside. The one
exception is a struct of pointers whose two pointers point into one buffer
(`overlap`): then the loop is NOT race-free, and the rewritten loop must find
the overlap at run time and run serially (the output still equals serial).

Usage: python3 reachgen.py SEED [SEED...] [-o FILE]
"""
import argparse
import random
import sys

TYPES = ["double", "float", "int", "long"]

# The shapes of loop; each must be kernel mode (reach_random.py checks the report).
SHAPES = {"member", "struct_ptrs", "aos", "nested", "accessor", "callees", "template_fn", "template_class",
                 "template_halo"}


class Unit:
    """One seed's namespace: types, data, loop functions and run()."""

    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed * 104729 + 11)
        self.ns = "r%d" % seed
        self.decls = []      # namespace-scope code: types, functions, loops
        self.run = []        # statements of run()
        self.loops = []      # (k, shape, pragma line offset in decls: filled by program())
        self.k = 0
        r = self.r
        self.n = r.randint(40, 2500)
        for _ in range(r.randint(4, 7)):
            shape = r.choice(sorted(SHAPES))
            getattr(self, "shape_" + shape)()

    # ---- helpers ----------------------------------------------------------
    def is_int(self, t):
        return t in ("int", "long")

    def expr(self, t, terms):
        """A value of type t from terms, bounded for ints, exact enough for floats."""
        r = self.r
        if self.is_int(t):
            body = " + ".join("%d * %s" % (r.randint(1, 5), x) for x in terms)
            return "(%s + %d) %% %d" % (body, r.randint(0, 40), r.choice([1009, 10007]))
        f = "f" if t == "float" else ""
        body = " + ".join("%s%s * %s" % (r.choice(["0.5", "0.25", "1.5", "-0.75"]), f, x) for x in terms)
        return "%s + %s%s" % (body, r.choice(["1.0", "0.125", "-3.0"]), f)

    def halo(self):
        return self.r.choice([0, 0, 1, 2])

    def init_vector(self, name, t, n, salt):
        val = "(%s)((k * %d + %d) %% %d)" % (t, 2 * salt + 3, salt, (97, 251, 1000)[salt % 3])
        if not self.is_int(t):
            val += " * 0.25"
        return "for (int k = 0; k < %s; ++k) %s[k] = %s;" % (n, name, val)

    def dump(self, k, name, data, t, n):
        """A run() line printing the hash of n elements of type t at data, after loop k."""
        self.run.append('std::printf("R%d L%d %s %%016llx\\n", ::reach_hash(%s, sizeof(%s) * (%s)));' % (
            self.seed, k, name, data, t, n))

    def pragma(self, extra=""):
        r = self.r
        parts = ["#pragma gpu_autopar for"]
        if extra:
            parts.append(extra)
        if r.random() < 0.4:
            parts.append("slots(%d)" % r.randint(1, 3))
        if r.random() < 0.3:
            parts.append(r.choice(["schedule(static)", "schedule(dynamic, 3)", "schedule(guided)"]))
        return " ".join(parts)

    def reduction(self, t, x):
        """(declaration, clause, update, print) of a sum over an int-valued read, or Nones."""
        if not self.is_int(t) or self.r.random() < 0.5:
            return None
        name = "sum%d" % self.k
        return ("long %s = 0;" % name, "reduction(+: %s)" % name, "%s += %s;" % (name, x),
                'std::printf("R%d L%d %s=%%ld\\n", %s);' % (self.seed, self.k, name, name))

    def add_loop(self, shape, lines):
        self.loops.append((self.k, shape))
        self.decls += ["// loop %d: %s" % (self.k, shape)] + lines + [""]
        self.k += 1

    # ---- shapes -----------------------------------------------------------
    def shape_member(self):
        """A method's loop over members of the enclosing object, `this->u[i]` or `u[i]`."""
        r, k, t = self.r, self.k, self.r.choice(TYPES)
        h = self.halo()
        cls = "Field%d" % k
        this = lambda m: ("this->" if r.random() < 0.5 else "") + m
        red = self.reduction(t, this("u") + "[i]")
        terms = [this("v") + "[i - %d]" % h if h else this("v") + "[i]", this("w") + "[i + %d]" % h,
                 this("u") + "[i]"]
        scale = "%s * " % this("scale") if not self.is_int(t) else ""
        lines = ["struct %s {" % cls, "  std::vector<%s> u, v, w;" % t, "  %s scale;" % t, "  int n;",
                 "  %s step() {" % ("long" if red else "void")]
        if red:
            lines.append("    " + red[0])
        lines += ["    " + self.pragma(red[1] if red else ""),
                  "    for (int i = %d; i < %s - %d; ++i) {" % (h, this("n"), h),
                  "      %s[i] = %s%s;" % (this("u"), scale, self.expr(t, terms))]
        if red:
            lines.append("      " + red[2])
        lines += ["    }"] + (["    return %s;" % red[0].split()[1]] if red else []) + ["  }", "};"]
        self.add_loop("member", lines)
        n = self.n
        o = "f%d" % k
        self.run += ["%s %s;" % (cls, o), "%s.n = %d; %s.scale = (%s)0.5;" % (o, n, o, t)]
        for salt, m in enumerate("uvw"):
            self.run += ["%s.%s.resize(%d);" % (o, m, n), self.init_vector("%s.%s" % (o, m), t, n, salt + k)]
        self.run.append(('std::printf("R%d L%d sum=%%ld\\n", %s.step());' % (self.seed, k, o)) if red
                        else "%s.step();" % o)
        self.dump(k, o + ".u", o + ".u.data()", t, n)

    def shape_struct_ptrs(self):
        """`s.p[i] = f(s.q[i +- h])` through a struct of pointers; now and then
        the two point into one buffer, so the run-time check must send the
        loop to serial execution."""
        r, k, t = self.r, self.k, self.r.choice(TYPES)
        h = self.halo()
        by_value = r.random() < 0.3
        cls = "Ptrs%d" % k
        terms = ["s.q[i - %d]" % h if h else "s.q[i]", "s.q[i + %d]" % h, "s.p[i]"]
        lines = ["struct %s {" % cls, "  %s *p;" % t, "  const %s *q;" % t, "  int n;", "};",
                 "void ptrs%d(%s) {" % (k, ("%s s" if by_value else "%s &s") % cls),
                 "  " + self.pragma(),
                 "  for (int i = %d; i < s.n - %d; ++i)" % (h, h),
                 "    s.p[i] = %s;" % self.expr(t, terms), "}"]
        self.add_loop("struct_ptrs", lines)
        n = self.n
        overlap = r.random() < 0.25
        b = "buf%d" % k
        self.run += ["std::vector<%s> %s(%d);" % (t, b, 2 * n + 8), self.init_vector(b, t, 2 * n + 8, k)]
        q = "%s.data() + %d" % (b, r.randint(0, 3)) if overlap else "%s.data() + %d" % (b, n + 4)
        self.run += ["{ %s s{%s.data(), %s, %d}; ptrs%d(s); }" % (cls, b, q, n, k)]
        self.dump(k, b, b + ".data()", t, 2 * n + 8)

    def shape_aos(self):
        """An array of structs: `pts[i].a = f(pts[i].b, other[i +- h])`."""
        r, k, t = self.r, self.k, self.r.choice(TYPES)
        h = self.halo()
        cls = "Pt%d" % k
        terms = ["pts[i].b", "pts[i].a", "other[i + %d]" % h, "other[i - %d]" % h if h else "other[i]"]
        lines = ["struct %s {" % cls, "  %s a, b, tag;" % t, "};",
                 "void aos%d(std::vector<%s> &pts, const std::vector<%s> &other) {" % (k, cls, t),
                 "  " + self.pragma(),
                 "  for (int i = %d; i < (int)pts.size() - %d; ++i)" % (h, h),
                 "    pts[i].a = %s;" % self.expr(t, terms), "}"]
        self.add_loop("aos", lines)
        n = self.n
        self.run += ["std::vector<%s> pts%d(%d);" % (cls, k, n), "std::vector<%s> oth%d(%d);" % (t, k, n),
                     self.init_vector("oth%d" % k, t, n, k),
                     "for (int k = 0; k < %d; ++k) { pts%d[k].a = (%s)(k %% 7); pts%d[k].b = (%s)(k %% 5); "
                     "pts%d[k].tag = (%s)k; }" % (n, k, t, k, t, k, t),
                     "aos%d(pts%d, oth%d);" % (k, k, k)]
        self.dump(k, "pts%d" % k, "pts%d.data()" % k, cls, n)

    def shape_nested(self):
        """A vector member of a member: `o.f.data[i]`."""
        r, k, t = self.r, self.k, self.r.choice(TYPES)
        h = self.halo()
        terms = ["o.f.data[i]", "o.g.data[i + %d]" % h, "w[i - %d]" % h if h else "w[i]"]
        red = self.reduction(t, "o.f.data[i]")
        lines = ["struct In%d {" % k, "  std::vector<%s> data;" % t, "};",
                 "struct Out%d {" % k, "  In%d f, g;" % k, "  int n;", "};",
                 "%s nested%d(Out%d &o, const std::vector<%s> &w) {" % ("long" if red else "void", k, k, t)]
        if red:
            lines.append("  " + red[0])
        lines += ["  " + self.pragma(red[1] if red else ""),
                  "  for (int i = %d; i < o.n - %d; ++i) {" % (h, h),
                  "    o.f.data[i] = %s;" % self.expr(t, terms)]
        if red:
            lines.append("    " + red[2])
        lines += ["  }"] + (["  return %s;" % red[0].split()[1]] if red else []) + ["}"]
        self.add_loop("nested", lines)
        n = self.n
        o = "o%d" % k
        self.run += ["Out%d %s;" % (k, o), "%s.n = %d;" % (o, n), "%s.f.data.resize(%d);" % (o, n),
                     "%s.g.data.resize(%d);" % (o, n), "std::vector<%s> w%d(%d);" % (t, k, n),
                     self.init_vector(o + ".f.data", t, n, k), self.init_vector(o + ".g.data", t, n, k + 1),
                     self.init_vector("w%d" % k, t, n, k + 2)]
        call = "nested%d(%s, w%d)" % (k, o, k)
        self.run.append(('std::printf("R%d L%d sum=%%ld\\n", %s);' % (self.seed, k, call)) if red else call + ";")
        self.dump(k, o + ".f.data", o + ".f.data.data()", t, n)

    def shape_accessor(self):
        """LULESH-style: private vectors behind inline accessors returning
        references, a size accessor in the bound."""
        r, k, t = self.r, self.k, self.r.choice(TYPES)
        h = self.halo()
        cls = "Domain%d" % k
        terms = ["d.x(i)", "d.xd(i + %d)" % h, "d.fx(i - %d)" % h if h else "d.fx(i)"]
        lines = ["class %s {" % cls, "  std::vector<%s> m_x, m_xd, m_fx;" % t, "public:",
                 "  explicit %s(int n) : m_x(n), m_xd(n), m_fx(n) {" % cls,
                 "    " + self.init_vector("m_x", t, "n", k), "    " + self.init_vector("m_xd", t, "n", k + 1),
                 "    " + self.init_vector("m_fx", t, "n", k + 2), "  }",
                 "  %s &x(int i) { return m_x[i]; }" % t,
                 "  %s &xd(int i) { return m_xd[i]; }" % t,
                 "  %s &fx(int i) { return m_fx[i]; }" % t,
                 "  int numNode() const { return (int)m_x.size(); }",
                 "  const %s *xs() const { return m_x.data(); }" % t,
                 "};",
                 "void advance%d(%s &d) {" % (k, cls),
                 "  " + self.pragma(),
                 "  for (int i = %d; i < d.numNode() - %d; ++i)" % (h, h),
                 "    d.x(i) = %s;" % self.expr(t, terms), "}"]
        self.add_loop("accessor", lines)
        n = self.n
        self.run += ["%s d%d(%d);" % (cls, k, n), "advance%d(d%d);" % (k, k)]
        self.dump(k, "d%d.x" % k, "d%d.xs()" % k, t, n)

    def shape_callees(self):
        """The program's own functions in the body: a chain, a function
        template, a functor, a local lambda, a static member."""
        r, k, t = self.r, self.k, self.r.choice(TYPES)
        h = self.halo()
        helpers = ["template <class T> T twice%d(T v) { return v + v; }" % k,
                   "static %s inc%d(%s v) { return v + 1; }" % (t, k, t),
                   "static %s bump%d(%s v) { return inc%d(v) - 1; }" % (t, k, t, k),
                   "struct Lin%d {" % k, "  %s a;" % t,
                   "  %s operator()(%s v) const { return a * v + 1; }" % (t, t), "};",
                   "struct Ops%d {" % k, "  static %s neg(%s v) { return -v; }" % (t, t), "};"]
        x = ["x[i - %d]" % h if h else "x[i]", "x[i + %d]" % h, "y[i]"]
        forms = ["twice%d(%s)" % (k, x[0]), "bump%d(%s)" % (k, x[1]), "f(%s)" % x[2],
                 "sq(%s)" % x[0], "Ops%d::neg(%s)" % (k, x[1])]
        terms = r.sample(forms, r.randint(2, 4))
        if self.is_int(t):
            terms = ["(%s %% 101)" % f for f in terms]
        lines = helpers + ["void callees%d(std::vector<%s> &y, const std::vector<%s> &x, Lin%d f) {" % (k, t, t, k),
                           "  auto sq = [](%s v) { return v * v; };" % t,
                           "  " + self.pragma(),
                           "  for (int i = %d; i < (int)y.size() - %d; ++i)" % (h, h),
                           "    y[i] = %s;" % self.expr(t, terms), "}"]
        self.add_loop("callees", lines)
        n = self.n
        self.run += ["std::vector<%s> cy%d(%d), cx%d(%d);" % (t, k, n, k, n), self.init_vector("cy%d" % k, t, n, k),
                     self.init_vector("cx%d" % k, t, n, k + 1),
                     "callees%d(cy%d, cx%d, Lin%d{(%s)%s});" % (k, k, k, k, t, "2" if self.is_int(t) else "0.5")]
        self.dump(k, "cy%d" % k, "cy%d.data()" % k, t, n)

    def two_types(self):
        return self.r.sample(TYPES, 2)

    def shape_template_fn(self):
        """A function template holding the loop, instantiated for two element types."""
        r, k = self.r, self.k
        h = self.halo()
        terms = ["x[i - %d]" % h if h else "x[i]", "x[i + %d]" % h, "y[i]"]
        lines = ["template <class T> void tfn%d(T a, std::vector<T> &y, const std::vector<T> &x) {" % k,
                 "  " + self.pragma(),
                 "  for (int i = %d; i < (int)y.size() - %d; ++i)" % (h, h),
                 "    y[i] = (T)(a * (%s) + %s + (T)1);" % (" + ".join(terms[:2]), terms[2]), "}"]
        self.add_loop("template_fn", lines)
        for j, t in enumerate(self.two_types()):
            n = self.n - 7 * j
            y, x = "ty%d_%d" % (k, j), "tx%d_%d" % (k, j)
            a = "(%s)%s" % (t, "1" if self.is_int(t) else "0.5")
            self.run += ["std::vector<%s> %s(%d), %s(%d);" % (t, y, n, x, n), self.init_vector(y, t, n, k + j),
                         self.init_vector(x, t, n, k + j + 1),
                         # ints stay small: the loop runs once per seed
                         "tfn%d(%s, %s, %s);" % (k, a, y, x)]
            self.dump(k, y, y + ".data()", t, n)

    def shape_template_class(self):
        """A member of a class template, instantiated for two element types."""
        r, k = self.r, self.k
        h = self.halo()
        this = "this->" if r.random() < 0.5 else ""
        lines = ["template <class T> struct Grid%d {" % k, "  std::vector<T> v, w;",
                 "  void relax() {",
                 "    " + self.pragma(),
                 "    for (int i = %d; i < (int)%sv.size() - %d; ++i)" % (h, this, h),
                 "      %sv[i] = (T)((%sw[i - %d] + %sw[i + %d]) / 2 + %sv[i]);" % (this, this, h, this, h, this),
                 "  }", "};"]
        self.add_loop("template_class", lines)
        for j, t in enumerate(self.two_types()):
            n = self.n - 5 * j
            g = "g%d_%d" % (k, j)
            self.run += ["Grid%d<%s> %s;" % (k, t, g), "%s.v.resize(%d); %s.w.resize(%d);" % (g, n, g, n),
                         self.init_vector(g + ".v", t, n, k + j), self.init_vector(g + ".w", t, n, k + j + 2),
                         "%s.relax();" % g]
            self.dump(k, g + ".v", g + ".v.data()", t, n)

    def shape_template_halo(self):
        """A template on a number: the halo width, instantiated for two widths
        (each instantiation's subscripts are affine; as written they are not)."""
        r, k, t = self.r, self.k, self.r.choice(TYPES)
        lines = ["template <int H> void halo%d(std::vector<%s> &y, const std::vector<%s> &x) {" % (k, t, t),
                 "  " + self.pragma(),
                 "  for (int i = H; i < (int)y.size() - H; ++i)",
                 "    y[i] = %s;" % self.expr(t, ["x[i - H]", "x[i + H]", "y[i]"]), "}"]
        self.add_loop("template_halo", lines)
        for j, hw in enumerate(sorted(r.sample([0, 1, 2, 3], 2))):
            n = self.n - 3 * j
            y, x = "hy%d_%d" % (k, j), "hx%d_%d" % (k, j)
            self.run += ["std::vector<%s> %s(%d), %s(%d);" % (t, y, n, x, n), self.init_vector(y, t, n, k + j),
                         self.init_vector(x, t, n, k + j + 1), "halo%d<%d>(%s, %s);" % (k, hw, y, x)]
            self.dump(k, y, y + ".data()", t, n)

    def text(self):
        """The unit's code: its namespace and run()."""
        return (["namespace %s {" % self.ns, "using std::size_t;"] + self.decls +
                ["void run() {"] + ["  " + s for s in self.run] + ["}", "} // namespace %s" % self.ns, ""])


PRELUDE = ["// Generated by test/random/reachgen.py. Legal by construction (but for overlapping struct pointers,",
           "// which the rewritten loop must find at run time).",
           "#include <cstdio>", "#include <cstddef>", "#include <vector>", "",
           "static unsigned long long reach_hash(const void *p, std::size_t n) {",
           "  const unsigned char *b = static_cast<const unsigned char *>(p);",
           "  unsigned long long h = 1469598103934665603ULL;",
           "  for (std::size_t k = 0; k < n; k++)",
           "    h = (h ^ b[k]) * 1099511628211ULL;",
           "  return h;",
           "}", ""]


def program(seeds):
    """One translation unit holding the units of `seeds`; returns (text,
    units, {line of each pragma: (seed, loop, shape)})."""
    units = [Unit(s) for s in seeds]
    lines = list(PRELUDE)
    where = {}
    for u in units:
        current = None
        for line in u.text():
            if line.startswith("// loop "):
                k = int(line.split()[2].rstrip(":"))
                current = (u.seed, k, dict(u.loops)[k])
            lines.append(line)
            if line.lstrip().startswith("#pragma gpu_autopar for") and current:
                where[len(lines)] = current
    lines += ["int main() {"] + ["  %s::run();" % u.ns for u in units] + ["}", ""]
    return "\n".join(lines), units, where


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seeds", type=int, nargs="+")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    text, _, _ = program(a.seeds)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
