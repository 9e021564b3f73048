// A LULESH-style time step on CPU threads: a few dozen short loops over the
// elements and nodes of a small mesh per step, with little serial work
// between them, and a `min` reduction for the next time step. The loops
// carry `#pragma omp parallel for`: built as it is with `g++ -fopenmp`, and
// rewritten with `gpu-autopar --accept=omp` and built without OpenMP
// (bench/CMakeLists.txt), the same source measures both runtimes
// (bench/lulesh_steps.sh). Prints the wall time per step, the CPU time per
// step of all the process's threads (what idle threads spinning cost the
// machine), and a checksum that both builds must agree on.
//
//   bench_lulesh_{omp,gpu_autopar} [ELEMENTS [STEPS]]
#include <chrono>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct mesh {
  int n;
  std::vector<double> x, y, z, xd, yd, zd, xdd, ydd, zdd, fx, fy, fz, nodal_mass;
  std::vector<double> e, p, q, ql, qq, v, vnew, delv, vdov, arealg, ss, elem_mass, work;
  explicit mesh(int elements)
      : n(elements), x(n), y(n), z(n), xd(n), yd(n), zd(n), xdd(n), ydd(n), zdd(n), fx(n), fy(n), fz(n),
        nodal_mass(n), e(n), p(n), q(n), ql(n), qq(n), v(n), vnew(n), delv(n), vdov(n), arealg(n), ss(n),
        elem_mass(n), work(n) {
    for (int i = 0; i < n; ++i) {
      x[i] = i * 1e-3;
      y[i] = (i % 97) * 1e-3;
      z[i] = (i % 31) * 1e-3;
      nodal_mass[i] = elem_mass[i] = 1.0 + (i % 7) * 0.01;
      e[i] = i == 0 ? 3.0e4 : 1e-6;
      v[i] = vnew[i] = 1.0;
      ss[i] = 1.0;
    }
  }
};

// Forces from stress and hourglass terms (element-wise, then per node).
void forces(mesh& m) {
  const int n = m.n;
  double *fx = m.fx.data(), *fy = m.fy.data(), *fz = m.fz.data(), *p = m.p.data(), *q = m.q.data();
  const double *x = m.x.data(), *y = m.y.data(), *z = m.z.data();
  double *w = m.work.data();
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    w[i] = -(p[i] + q[i]);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    fx[i] = w[i] * (x[i] + 0.5 * y[i]);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    fy[i] = w[i] * (y[i] - 0.25 * z[i]);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    fz[i] = w[i] * (z[i] + 0.125 * x[i]);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    fx[i] -= 0.01 * (x[i] - y[i]);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    fy[i] -= 0.01 * (y[i] - z[i]);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    fz[i] -= 0.01 * (z[i] - x[i]);
}

// Accelerations, boundary conditions, velocities and positions per node.
void nodes(mesh& m, double dt) {
  const int n = m.n;
  double *xdd = m.xdd.data(), *ydd = m.ydd.data(), *zdd = m.zdd.data();
  double *xd = m.xd.data(), *yd = m.yd.data(), *zd = m.zd.data();
  double *x = m.x.data(), *y = m.y.data(), *z = m.z.data();
  const double *fx = m.fx.data(), *fy = m.fy.data(), *fz = m.fz.data(), *mass = m.nodal_mass.data();
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    xdd[i] = fx[i] / mass[i];
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    ydd[i] = fy[i] / mass[i];
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    zdd[i] = fz[i] / mass[i];
#pragma omp parallel for
  for (int i = 0; i < n; i += 64) // symmetry planes
    xdd[i] = 0.0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    xd[i] = std::fabs(xd[i] + xdd[i] * dt) < 1e-7 ? 0.0 : xd[i] + xdd[i] * dt;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    yd[i] = std::fabs(yd[i] + ydd[i] * dt) < 1e-7 ? 0.0 : yd[i] + ydd[i] * dt;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    zd[i] = std::fabs(zd[i] + zdd[i] * dt) < 1e-7 ? 0.0 : zd[i] + zdd[i] * dt;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    x[i] += xd[i] * dt;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] += yd[i] * dt;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    z[i] += zd[i] * dt;
}

// Volumes, artificial viscosity, energy and pressure per element.
void elements(mesh& m, double dt) {
  const int n = m.n;
  double *vnew = m.vnew.data(), *delv = m.delv.data(), *vdov = m.vdov.data(), *arealg = m.arealg.data();
  double *q = m.q.data(), *ql = m.ql.data(), *qq = m.qq.data(), *e = m.e.data(), *p = m.p.data();
  double *v = m.v.data(), *ss = m.ss.data();
  const double *xd = m.xd.data(), *yd = m.yd.data(), *zd = m.zd.data();
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    vnew[i] = v[i] * (1.0 + dt * (xd[i] + yd[i] + zd[i]) * 1e-3);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    delv[i] = vnew[i] - v[i];
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    vdov[i] = delv[i] / (vnew[i] * dt);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    arealg[i] = std::cbrt(vnew[i]);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    ql[i] = vdov[i] < 0 ? -0.5 * arealg[i] * vdov[i] * ss[i] : 0.0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    qq[i] = vdov[i] < 0 ? 2.0 * arealg[i] * arealg[i] * vdov[i] * vdov[i] : 0.0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    q[i] = ql[i] + qq[i];
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    e[i] = std::fmax(e[i] - 0.5 * delv[i] * (p[i] + q[i]), 1e-7);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    p[i] = (2.0 / 3.0) * e[i] / vnew[i];
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    ss[i] = std::sqrt(std::fmax(1.6667 * p[i] * vnew[i], 1e-12));
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    v[i] = std::fabs(vnew[i] - 1.0) < 1e-10 ? 1.0 : vnew[i];
}

// The next time step: the Courant condition's minimum over the elements.
double time_step(mesh& m, double dt) {
  const int n = m.n;
  const double *ss = m.ss.data(), *arealg = m.arealg.data(), *vdov = m.vdov.data();
  double courant = 1e20;
#pragma omp parallel for reduction(min : courant)
  for (int i = 0; i < n; ++i)
    courant = std::fmin(courant, arealg[i] / (ss[i] + std::fabs(vdov[i]) * 1e-3 + 1e-20));
  double hydro = 1e20;
#pragma omp parallel for reduction(min : hydro)
  for (int i = 0; i < n; ++i)
    hydro = std::fmin(hydro, vdov[i] != 0 ? 0.5 / (std::fabs(vdov[i]) + 1e-20) : 1e20);
  const double next = std::fmin(0.5 * courant, 0.5 * hydro);
  return std::fmin(next, 1.2 * dt);
}

} // namespace

int main(int argc, char** argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 27000; // LULESH's default mesh: 30^3 elements
  const int steps = argc > 2 ? std::atoi(argv[2]) : 500;
  mesh m(size);
  double dt = 1e-7;
  forces(m); // warm up threads and caches
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock(); // the process's CPU time: every thread's, spinning included
  for (int s = 0; s < steps; ++s) {
    forces(m);
    nodes(m, dt);
    elements(m, dt);
    dt = time_step(m, dt);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  double checksum = 0;
  for (int i = 0; i < size; ++i)
    checksum += m.e[i] + m.x[i];
  std::printf("%.3f us/step, cpu %.3f us/step (%d steps, 30 loops each, %d elements) checksum %.10e dt %.6e\n",
              seconds / steps * 1e6, cpu / steps * 1e6, steps, size, checksum, dt);
  return 0;
}
