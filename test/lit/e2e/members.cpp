// Loops over members run on the devices like loops over variables: a member
// the body indexes (`this->u[i]`, `u[i]` in a method, `g.v[i]`, `s.w[i]` of a
// built-in array, `dst.data[i]` of a struct holding a pointer, `o.f.data[i]`
// nested) is mapped and the body indexes the map's view; a number it reads
// (`scale`, `g.bias`) is copied once where the loop starts. Pointer members
// that may point into one buffer are compared before the loop runs: distinct
// fields, and two halves of one array that do not meet, run in parallel; one
// field passed twice, or a field shifted by one element, is a recurrence and
// runs serially on the calling thread, printing what the serial program prints.
// LULESH-style private members behind accessors run on the devices too, and
// map clauses may name members (the rewritten text is checked below, REWRITE).
// RUN: %e2e --out %t %s | FileCheck %s
// RUN: FileCheck %s --check-prefix=REWRITE --input-file %t/members.par.cpp
#include <cstdio>
#include <vector>

struct Field {
  double *data;
  int n;
};

void smooth(Field &dst, const Field &src) {
#pragma gpu_autopar for
  for (int i = 1; i < dst.n; ++i)
    dst.data[i] = src.data[i - 1] * 0.5 + i % 3;
}

struct Grid {
  std::vector<double> u, v;
  double scale = 1.5;
  int n = 0;
  // `this->u` and implicit `v`, `scale`: maps of u and v, a copy of scale.
  void step() {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      this->u[i] = scale * v[i] + i % 5;
  }
  // Read and written in place, with its size read through the view.
  void twice() {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      u[i] = 2 * u[i] - (double)u.size() / n;
  }
  // A const method: a sum over a member.
  double total() const {
    double s = 0;
#pragma gpu_autopar for reduction(+: s)
    for (int i = 0; i < n; ++i)
      s += u[i] * scale;
    return s;
  }
};

// A vector member of a reference, and a number read through it.
struct Offsets {
  double bias;
};
void shift(Grid &g, const Offsets &o) {
#pragma gpu_autopar for
  for (int i = 1; i < g.n; ++i)
    g.v[i] = g.u[i - 1] + o.bias;
}

// Built-in array members.
struct Small {
  double w[640], z[640];
};
void mix(Small &s) {
#pragma gpu_autopar for
  for (int i = 0; i < 639; ++i)
    s.w[i] = s.z[i + 1] * 3 - i;
}

// A struct inside a struct, holding a pointer with its length.
struct Outer {
  Field f;
  double k;
};
void grow(Outer &o) {
#pragma gpu_autopar for
  for (int i = 0; i < o.f.n; ++i)
    o.f.data[i] = o.f.data[i] * o.k + 1;
}

// Arrays of structs: fields of each iteration's own element.
struct Pt {
  double x, y;
};
void swap_xy(std::vector<Pt> &pts, Pt *raw, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    const double t = pts[i].x;
    pts[i].x = pts[i].y + raw[i].x;
    pts[i].y = t;
  }
}

// LULESH-style accessors: private members behind inline accessors that
// return references. The functions cannot name `m_x`, so each member is
// mapped through the pointer its accessor returns for element 0 (taken only
// when the loop runs at all), and the body indexes the map's view where it
// called the accessor; in a method the members are mapped by their paths.
typedef int Index_t;
typedef double Real_t;
class Domain {
public:
  Real_t &x(Index_t i) { return m_x[i]; }
  Real_t &xd(Index_t i) { return m_xd[i]; }
  Real_t &fx(Index_t i) { return m_fx[i]; }
  const Real_t &nodalMass(Index_t i) const { return m_nodalMass[i]; }
  Real_t &p(Index_t i) { return m_p[i]; }
  Real_t &q(Index_t i) { return m_q[i]; }
  Index_t numNode() const { return m_numNode; }
  Index_t numElem() const { return m_numElem; }
  void allocate(Index_t nodes, Index_t elems, Real_t *pressure, Real_t *viscosity) {
    m_numNode = nodes;
    m_numElem = elems;
    m_x.resize(nodes);
    m_xd.resize(nodes);
    m_fx.resize(nodes);
    m_nodalMass.resize(nodes);
    for (Index_t i = 0; i < nodes; ++i)
      m_x[i] = i % 6, m_xd[i] = i % 4 - 1.5, m_fx[i] = i % 9 - 4, m_nodalMass[i] = 1 + i % 3;
    m_p = pressure;
    m_q = viscosity;
  }
  void damp(Real_t f) {
#pragma gpu_autopar for
    for (Index_t i = 0; i < numNode(); ++i)
      xd(i) = xd(i) * f;
  }

private:
  std::vector<Real_t> m_x, m_xd, m_fx, m_nodalMass;
  Real_t *m_p, *m_q; // element fields in buffers the caller owns
  Index_t m_numNode = 0, m_numElem = 0;
};
void CalcVelocityForNodes(Domain &domain, const Real_t dt, const Real_t u_cut) {
#pragma gpu_autopar for
  for (Index_t i = 0; i < domain.numNode(); ++i) {
    Real_t xdtmp = domain.xd(i) + domain.fx(i) / domain.nodalMass(i) * dt;
    if (xdtmp < u_cut && xdtmp > -u_cut)
      xdtmp = 0;
    domain.xd(i) = xdtmp;
  }
}
void CalcPositionForNodes(Domain &domain, const Real_t dt) {
#pragma gpu_autopar for
  for (Index_t i = 0; i < domain.numNode(); ++i)
    domain.x(i) += domain.xd(i) * dt;
}
// Two pointer members may share a buffer: compared before the loop runs.
void CalcPressureForElems(Domain &domain, Real_t c) {
#pragma gpu_autopar for
  for (Index_t i = 1; i < domain.numElem(); ++i)
    domain.p(i) = domain.q(i - 1) * c + i % 3;
}

// Map clauses name members: a pointer member's length for a gather (without
// it the loop runs on CPU threads), and a pointer member of `this`.
struct Table {
  const double *vals;
  int len;
};
struct Lookup {
  double *u;
  int n;
  void gather(const Table &t, const int *idx) {
#pragma gpu_autopar for map(to: t.vals[0:t.len]) map(tofrom: this->u[0:n])
    for (int i = 0; i < n; ++i)
      u[i] += t.vals[idx[i]];
  }
};

double checksum(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * double(i % 13 + 1);
  return s;
}

int main() {
  const int n = 40000;
  std::vector<double> a(n + 1), b(n + 1);
  for (int i = 0; i <= n; ++i) {
    a[i] = i % 10;
    b[i] = i % 7;
  }
  Field fa{a.data(), n}, fb{b.data(), n}, shifted{a.data() + 1, n}, upper{a.data() + n / 2, n / 2},
      lower{a.data(), n / 2 - 1};
  smooth(fb, fa);       // distinct: parallel
  smooth(fa, fa);       // one field: serially
  smooth(shifted, fa);  // shifted by one element: serially
  smooth(upper, lower); // halves that do not meet: parallel
  std::printf("fields %.1f %.3f %.1f\n", checksum(a.data(), n + 1), a[n], checksum(b.data(), n + 1));

  Grid g;
  g.n = 30000;
  g.u.assign(g.n, 0.0);
  g.v.resize(g.n);
  for (int i = 0; i < g.n; ++i)
    g.v[i] = i % 9;
  g.step();
  g.twice();
  const double total = g.total();
  Offsets off{0.25};
  shift(g, off);
  std::printf("grid %.3f %.3f %.3f\n", checksum(g.u.data(), g.n), checksum(g.v.data(), g.n), total);

  static Small s;
  for (int i = 0; i < 640; ++i)
    s.w[i] = -1, s.z[i] = i % 11;
  mix(s);
  std::printf("small %.1f %.1f\n", checksum(s.w, 640), checksum(s.z, 640));

  std::vector<double> buf(20000);
  for (int i = 0; i < 20000; ++i)
    buf[i] = i % 4;
  Outer o{{buf.data(), 20000}, 0.5};
  grow(o);
  std::printf("outer %.2f\n", checksum(buf.data(), 20000));

  std::vector<Pt> pts(25000), raw(25000);
  for (int i = 0; i < 25000; ++i)
    pts[i] = {double(i % 3), double(i % 5)}, raw[i] = {double(i % 2), 0};
  swap_xy(pts, raw.data(), 25000);
  double sp = 0;
  for (int i = 0; i < 25000; ++i)
    sp += pts[i].x * (i % 7 + 1) + pts[i].y * (i % 3 + 1);
  std::printf("points %.1f\n", sp);

  std::vector<Real_t> pq(24002);
  for (int i = 0; i < 24002; ++i)
    pq[i] = i % 8;
  Domain domain, empty;
  domain.allocate(12000, 12000, pq.data() + 12001, pq.data());
  CalcVelocityForNodes(domain, 0.5, 0.3);
  CalcPositionForNodes(domain, 0.25);
  domain.damp(0.75);
  CalcPressureForElems(domain, 2); // distinct halves: parallel
  empty.allocate(0, 12000, pq.data() + 1, pq.data());
  CalcPositionForNodes(empty, 0.25); // no nodes: no element 0 to map from
  CalcPressureForElems(empty, 3);    // one buffer shifted by one: serially
  std::vector<double> tv(5000), lu(20000);
  std::vector<int> ix(20000);
  for (int i = 0; i < 20000; ++i)
    ix[i] = (i * 7) % 5000, lu[i] = i % 3;
  for (int i = 0; i < 5000; ++i)
    tv[i] = i % 13 * 0.5;
  Table t{tv.data(), 5000};
  Lookup lk{lu.data(), 20000};
  lk.gather(t, ix.data());
  std::printf("lookup %.1f\n", checksum(lu.data(), 20000));
  double sd = 0;
  for (Index_t i = 0; i < domain.numNode(); ++i)
    sd += domain.x(i) * (i % 5 + 1) + domain.xd(i) * (i % 7 + 1);
  std::printf("domain %.4f %.1f\n", sd, checksum(pq.data(), 24002));
}
// REWRITE-LABEL: void damp(Real_t f) {
// REWRITE:         ::gpu_autopar::data(::gpu_autopar::tofrom(this->m_xd, ::gpu_autopar::affine(1, 0, 1))),
// REWRITE:         gpu_autopar_this_m_xd[i] = gpu_autopar_this_m_xd[i] * f; });
// REWRITE-LABEL: void CalcVelocityForNodes(
// REWRITE-NEXT:  { const auto gpu_autopar_space = ::gpu_autopar::iterations<Index_t>((0), ::gpu_autopar::less, (domain.numNode()), 1); auto *const gpu_autopar_domain_m_xd = gpu_autopar_space.count() ? &domain.xd(0) : nullptr; auto *const gpu_autopar_domain_m_fx = gpu_autopar_space.count() ? &domain.fx(0) : nullptr; auto *const gpu_autopar_domain_m_nodalMass = gpu_autopar_space.count() ? &domain.nodalMass(0) : nullptr; ::gpu_autopar::kernel_loop(
// REWRITE-NEXT:      gpu_autopar_space, ::gpu_autopar::options(),
// REWRITE-NEXT:      ::gpu_autopar::data(::gpu_autopar::tofrom(gpu_autopar_domain_m_xd, ::gpu_autopar::affine(1, 0, 1)),
// REWRITE-NEXT:        ::gpu_autopar::to(gpu_autopar_domain_m_fx, ::gpu_autopar::affine(1, 0, 1)),
// REWRITE-NEXT:        ::gpu_autopar::to(gpu_autopar_domain_m_nodalMass, ::gpu_autopar::affine(1, 0, 1))),
// REWRITE:       Real_t xdtmp = gpu_autopar_domain_m_xd[i] + gpu_autopar_domain_m_fx[i] / gpu_autopar_domain_m_nodalMass[i] * dt;
// REWRITE:       gpu_autopar_domain_m_xd[i] = xdtmp;
// REWRITE-LABEL: void CalcPressureForElems(
// REWRITE:       gpu_autopar_space, ::gpu_autopar::options().check_disjoint(0, "domain.m_p", 1, "domain.m_q"),
// REWRITE-NEXT:  ::gpu_autopar::data(::gpu_autopar::from(gpu_autopar_domain_m_p, ::gpu_autopar::affine(1, 0, 1)),
// REWRITE-NEXT:    ::gpu_autopar::to(gpu_autopar_domain_m_q, ::gpu_autopar::affine(1, -1, 1))),
// REWRITE:       gpu_autopar_domain_m_p[i] = gpu_autopar_domain_m_q[i - 1] * c + i % 3; }); }
// REWRITE-LABEL: void gather(const Table &t, const int *idx) {
// REWRITE:         ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), ::gpu_autopar::options().check_disjoint(0, "u", 1, "t.vals"),
// REWRITE-NEXT:    ::gpu_autopar::data(::gpu_autopar::tofrom(this->u, (0), (n), ::gpu_autopar::affine(1, 0, 1), "this->u[0:n]"),
// REWRITE-NEXT:        ::gpu_autopar::to(t.vals, (0), (t.len), ::gpu_autopar::whole(), "t.vals[0:t.len]"),
// REWRITE:         gpu_autopar_this_u[i] += gpu_autopar_t_vals[idx[i]]; });
// CHECK: sim:3: members.cpp:23 mode=kernel backend=sim iterations=39999 devices=3{{$}}
// CHECK: sim:3: members.cpp:23 mode=kernel backend=cpu iterations=39999 devices=1 serial='dst.data' and 'src.data' overlap in memory
// CHECK: sim:3: members.cpp:23 mode=kernel backend=cpu iterations=39999 devices=1 serial='dst.data' and 'src.data' overlap in memory
// CHECK: sim:3: members.cpp:23 mode=kernel backend=sim iterations=19999 devices=3{{$}}
// CHECK: sim:3: members.cpp:34 mode=kernel backend=sim iterations=30000 devices=3{{$}}
// CHECK: sim:3: members.cpp:40 mode=kernel backend=sim iterations=30000 devices=3{{$}}
// CHECK: sim:3: members.cpp:47 mode=kernel backend=sim iterations=30000 devices=3{{$}}
// CHECK: sim:3: members.cpp:59 mode=kernel backend=sim iterations=29999 devices=3{{$}}
// CHECK: sim:3: members.cpp:69 mode=kernel backend=sim iterations=639 devices=3{{$}}
// CHECK: sim:3: members.cpp:80 mode=kernel backend=sim iterations=20000 devices=3{{$}}
// CHECK: sim:3: members.cpp:90 mode=kernel backend=sim iterations=25000 devices=3{{$}}
// CHECK: sim:3: members.cpp:139 mode=kernel backend=sim iterations=12000 devices=3{{$}}
// CHECK: sim:3: members.cpp:148 mode=kernel backend=sim iterations=12000 devices=3{{$}}
// CHECK: sim:3: members.cpp:128 mode=kernel backend=sim iterations=12000 devices=3{{$}}
// CHECK: sim:3: members.cpp:154 mode=kernel backend=sim iterations=11999 devices=3{{$}}
// CHECK: sim:3: members.cpp:148 mode=kernel backend=cpu iterations=0 devices=0{{$}}
// CHECK: sim:3: members.cpp:154 mode=kernel backend=cpu iterations=11999 devices=1 serial='domain.m_p' and 'domain.m_q' overlap in memory
// CHECK: sim:3: members.cpp:169 mode=kernel backend=sim iterations=20000 devices=3{{$}}
// CHECK: standin devices=1: members.cpp:139 mode=kernel backend=cuda iterations=12000 devices=1{{$}}
// CHECK: standin devices=1: members.cpp:148 mode=kernel backend=cuda iterations=12000 devices=1{{$}}
// CHECK: standin devices=1: members.cpp:128 mode=kernel backend=cuda iterations=12000 devices=1{{$}}
// CHECK: standin devices=1: members.cpp:154 mode=kernel backend=cuda iterations=11999 devices=1{{$}}
// CHECK: standin devices=1: members.cpp:148 mode=kernel backend=cpu iterations=0 devices=0{{$}}
// CHECK: standin devices=1: members.cpp:154 mode=kernel backend=cpu iterations=11999 devices=1 serial='domain.m_p' and 'domain.m_q' overlap in memory
// CHECK: standin devices=1: members.cpp:169 mode=kernel backend=cuda iterations=20000 devices=1{{$}}
// CHECK: standin devices=4: members.cpp:23 mode=kernel backend=cuda iterations=39999 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:23 mode=kernel backend=cpu iterations=39999 devices=1 serial='dst.data' and 'src.data' overlap in memory
// CHECK: standin devices=4: members.cpp:23 mode=kernel backend=cpu iterations=39999 devices=1 serial='dst.data' and 'src.data' overlap in memory
// CHECK: standin devices=4: members.cpp:23 mode=kernel backend=cuda iterations=19999 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:34 mode=kernel backend=cuda iterations=30000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:40 mode=kernel backend=cuda iterations=30000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:47 mode=kernel backend=cuda iterations=30000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:59 mode=kernel backend=cuda iterations=29999 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:69 mode=kernel backend=cuda iterations=639 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:80 mode=kernel backend=cuda iterations=20000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:90 mode=kernel backend=cuda iterations=25000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:139 mode=kernel backend=cuda iterations=12000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:148 mode=kernel backend=cuda iterations=12000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:128 mode=kernel backend=cuda iterations=12000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:154 mode=kernel backend=cuda iterations=11999 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:148 mode=kernel backend=cpu iterations=0 devices=0{{$}}
// CHECK: standin devices=4: members.cpp:154 mode=kernel backend=cpu iterations=11999 devices=1 serial='domain.m_p' and 'domain.m_q' overlap in memory
// CHECK: standin devices=4: members.cpp:169 mode=kernel backend=cuda iterations=20000 devices=4{{$}}
