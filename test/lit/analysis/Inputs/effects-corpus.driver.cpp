// Driver of effects-corpus.cpp (corpus_driver.h): runs every function whose
// loops are race-free or rejected (a rejected loop stays serial), on data of
// its own; the functions holding warned races (`// expect: ... race`) are not
// run. The rewritten program must give the serial numbers.
#include "corpus_driver.h"
#include CORPUS_SOURCE

static int size() { return int(corpus::param("n", 400)); }

CORPUS_FUNCTION(references) {
  static D a;
  a.assign(size(), 0);
  corpus::fill("a", a);
  references(a, size());
}

CORPUS_FUNCTION(pointer_arithmetic) {
  static D p;
  p.assign(2 * size(), 0);
  corpus::fill("p", p);
  pointer_arithmetic(p.data(), size());
}

CORPUS_FUNCTION(local_pointers) {
  static D p;
  p.assign(size(), 0);
  corpus::fill("p", p);
  local_pointers(p.data(), size());
}

CORPUS_FUNCTION(calls) {
  static D a, b, sum;
  a.assign(size(), 0);
  b.assign(size(), 0);
  sum.assign(1, 0);
  corpus::fill("a", a);
  corpus::fill("b", b);
  corpus::fill("sum", sum);
  calls(a, b, size(), sum[0]);
}

CORPUS_FUNCTION(members) {
  static D a;
  a.assign(size(), 0);
  corpus::fill("a", a);
  members(a, Scale{0.5}, Square{}, size());
}

CORPUS_FUNCTION(lambdas) {
  static D a;
  a.assign(size(), 0);
  corpus::fill("a", a);
  lambdas(a, size());
}

CORPUS_FUNCTION(views) {
  static D a, b, c, e;
  for (D *v : {&a, &b, &c, &e})
    v->assign(size(), 0);
  corpus::fill("a", a);
  corpus::fill("b", b);
  corpus::fill("c", c);
  corpus::fill("e", e);
  views(a, b, Strided{c.data(), 1}, Reader{e.data()}, size());
}

CORPUS_FUNCTION(library) {
  static D a, b;
  a.assign(size(), 0);
  b.assign(size(), 0);
  corpus::fill("a", a);
  corpus::fill("b", b);
  library(a, b, size());
}

CORPUS_FUNCTION(rows) {
  static std::vector<D> vv;
  static D flat;
  vv.assign(size(), D(2, 0));
  flat.assign(2 * size(), 0);
  corpus::fill("M", &M[0][0], 64 * 64, 64);
  corpus::fill("flat", flat); // vv's rows, copied in and out
  for (int i = 0; i < size(); ++i)
    vv[i] = {flat[2 * i], flat[2 * i + 1]};
  rows(vv, size());
  for (int i = 0; i < size(); ++i)
    flat[2 * i] = vv[i][0], flat[2 * i + 1] = vv[i][1];
}

CORPUS_FUNCTION(containers) {
  static D a, flags_out;
  static std::vector<char> flags;
  std::map<int, double> m;
  a.assign(size(), 0);
  flags.assign(size(), 0);
  flags_out.assign(size(), 0);
  corpus::fill("a", a);
  corpus::fill("flags", flags_out);
  containers(a, flags, m, size());
  for (int i = 0; i < size(); ++i)
    flags_out[i] = flags[i];
}

CORPUS_FUNCTION(growing) {
  static D a, out_copy;
  D out;
  a.assign(size(), 0);
  out_copy.assign(size(), 0);
  corpus::fill("a", a);
  corpus::fill("out", out_copy);
  growing(a, out, size());
  for (int i = 0; i < size() && i < int(out.size()); ++i)
    out_copy[i] = out[i];
}

CORPUS_FUNCTION(control) {
  static D a;
  a.assign(size(), 0);
  corpus::fill("a", a); // positive: nothing exits or throws
  control(a, size());
}

CORPUS_FUNCTION(invariants) {
  static D a, s;
  a.assign(size(), 0);
  s.assign(1, 0);
  corpus::fill("a", a);
  corpus::fill("s", s);
  invariants(a, s[0], size());
}

CORPUS_FUNCTION(overlap) {
  static D x, y;
  x.assign(size(), 0);
  y.assign(size(), 0);
  corpus::fill("x", x);
  corpus::fill("y", y);
  overlap(x.data(), reinterpret_cast<const double (*)[4]>(y.data()), size());
}

CORPUS_FUNCTION(overlap_one_array) {
  static D x;
  x.assign(size(), 0);
  corpus::fill("x", x);
  // rows is x seen as rows of four: x[i] reads x[4 * i + 1], which iteration 4 * i + 1 writes: run serially
  overlap(x.data(), reinterpret_cast<const double (*)[4]>(x.data()), size());
}

CORPUS_FUNCTION(overlap_rows) {
  static D y;
  y.assign(size() + 8, 0);
  corpus::fill("y", y);
  // x is row 1 of rows: rows[0][i + 1] reads x[i - 3] from i = 3 on, which only a
  // section of all the elements it reads (not row 0 alone) sees: run serially
  overlap_rows(y.data() + 4, reinterpret_cast<const double (*)[4]>(y.data()), size() / 2);
}

CORPUS_FUNCTION(overlap_types) {
  static D x;
  static std::vector<int> k;
  x.assign(size(), 0);
  k.assign(size(), 0);
  corpus::fill("x", x);
  corpus::fill("k", k);
  overlap_types(x.data(), k.data(), size());
}
