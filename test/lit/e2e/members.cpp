// Loops over members run on the devices like loops over variables: a member
// the body indexes (`this->u[i]`, `u[i]` in a method, `g.v[i]`, `s.w[i]` of a
// built-in array, `dst.data[i]` of a struct holding a pointer, `o.f.data[i]`
// nested) is mapped and the body indexes the map's view; a number it reads
// (`scale`, `g.bias`) is copied once where the loop starts. Pointer members
// that may point into one buffer are compared before the loop runs: distinct
// fields, and two halves of one array that do not meet, run in parallel; one
// field passed twice, or a field shifted by one element, is a recurrence and
// runs serially on the calling thread, printing what the serial program prints.
// RUN: %e2e --out %t %s | FileCheck %s
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

// LULESH-style accessors: seen through (each call is its element), so the
// loop bound through an accessor is not "changed in the body"; the accessors
// reach std::vector members no map copies to a GPU: host mode, CPU threads.
class Domain {
public:
  double &x(int i) { return m_x[i]; }
  const double &xd(int i) const { return m_xd[i]; }
  int numNode() const { return m_n; }
  void resize(int n) {
    m_n = n;
    m_x.assign(n, 1.0);
    m_xd.resize(n);
    for (int i = 0; i < n; ++i)
      m_xd[i] = i % 6;
  }

private:
  std::vector<double> m_x, m_xd;
  int m_n = 0;
};
void advance(Domain &domain, double dt) {
#pragma gpu_autopar for
  for (int i = 0; i < domain.numNode(); ++i)
    domain.x(i) = domain.x(i) + dt * domain.xd(i);
}

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

  Domain domain;
  domain.resize(12000);
  advance(domain, 0.5);
  double sd = 0;
  for (int i = 0; i < domain.numNode(); ++i)
    sd += domain.x(i) * (i % 5 + 1);
  std::printf("domain %.2f\n", sd);
}
// CHECK: sim:3: members.cpp:20 mode=kernel backend=sim iterations=39999 devices=3{{$}}
// CHECK: sim:3: members.cpp:20 mode=kernel backend=cpu iterations=39999 devices=1 serial='dst.data' and 'src.data' overlap in memory
// CHECK: sim:3: members.cpp:20 mode=kernel backend=cpu iterations=39999 devices=1 serial='dst.data' and 'src.data' overlap in memory
// CHECK: sim:3: members.cpp:20 mode=kernel backend=sim iterations=19999 devices=3{{$}}
// CHECK: sim:3: members.cpp:31 mode=kernel backend=sim iterations=30000 devices=3{{$}}
// CHECK: sim:3: members.cpp:37 mode=kernel backend=sim iterations=30000 devices=3{{$}}
// CHECK: sim:3: members.cpp:44 mode=kernel backend=sim iterations=30000 devices=3{{$}}
// CHECK: sim:3: members.cpp:56 mode=kernel backend=sim iterations=29999 devices=3{{$}}
// CHECK: sim:3: members.cpp:66 mode=kernel backend=sim iterations=639 devices=3{{$}}
// CHECK: sim:3: members.cpp:77 mode=kernel backend=sim iterations=20000 devices=3{{$}}
// CHECK: sim:3: members.cpp:87 mode=kernel backend=sim iterations=25000 devices=3{{$}}
// CHECK: sim:3: members.cpp:116 mode=host backend=cpu iterations=12000 devices=1{{$}}
// CHECK: standin devices=4: members.cpp:20 mode=kernel backend=cuda iterations=39999 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:20 mode=kernel backend=cpu iterations=39999 devices=1 serial='dst.data' and 'src.data' overlap in memory
// CHECK: standin devices=4: members.cpp:20 mode=kernel backend=cpu iterations=39999 devices=1 serial='dst.data' and 'src.data' overlap in memory
// CHECK: standin devices=4: members.cpp:20 mode=kernel backend=cuda iterations=19999 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:31 mode=kernel backend=cuda iterations=30000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:37 mode=kernel backend=cuda iterations=30000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:44 mode=kernel backend=cuda iterations=30000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:56 mode=kernel backend=cuda iterations=29999 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:66 mode=kernel backend=cuda iterations=639 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:77 mode=kernel backend=cuda iterations=20000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:87 mode=kernel backend=cuda iterations=25000 devices=4{{$}}
// CHECK: standin devices=4: members.cpp:116 mode=host backend=cpu iterations=12000 devices=1{{$}}
