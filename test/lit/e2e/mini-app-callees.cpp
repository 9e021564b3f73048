// The hot loops of three mini-applications, written the way XSBench, RSBench
// and miniBUDE write them (the project's own code, not theirs): each body
// calls ordinary functions of the program (a binary search and an
// interpolation of cross sections, a complex multipole evaluation through a
// user type's operators, a pose transform and a pair energy). Those callees
// are marked GPU_AUTOPAR_HD, so every loop is a kernel on the CUDA build and
// prints what the serial program prints. A local lambda and a class with a
// user constructor and operators ride along; a template loop instantiated for
// double and for that class is a kernel for both; a loop in a generic lambda
// runs on CPU threads (nvcc cannot define a kernel there) and builds with nvcc.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cmath>
#include <cstdio>
#include <vector>

// ---- XSBench: macroscopic cross sections by nuclide grid search ----------
struct NuclideGridPoint {
  double energy, total_xs, elastic_xs, absorption_xs, fission_xs, nu_fission_xs;
};

// Index of the grid point at or below `quarry` in the sorted energies of one
// nuclide's grid (points [0, n) from `grid`).
long grid_search(long n, double quarry, const NuclideGridPoint *grid) {
  long lower = 0, upper = n - 1;
  while (upper - lower > 1) {
    long mid = lower + (upper - lower) / 2;
    if (grid[mid].energy > quarry)
      upper = mid;
    else
      lower = mid;
  }
  return lower;
}

double interpolate(double f, double low, double high) { return high - f * (high - low); }

void calculate_micro_xs(double p_energy, int nuc, long n_gridpoints, const NuclideGridPoint *grids, double *xs) {
  const NuclideGridPoint *grid = grids + nuc * n_gridpoints;
  long idx = grid_search(n_gridpoints, p_energy, grid);
  if (idx == n_gridpoints - 1)
    --idx;
  const NuclideGridPoint &low = grid[idx], &high = grid[idx + 1];
  const double f = (high.energy - p_energy) / (high.energy - low.energy);
  xs[0] = interpolate(f, low.total_xs, high.total_xs);
  xs[1] = interpolate(f, low.elastic_xs, high.elastic_xs);
  xs[2] = interpolate(f, low.absorption_xs, high.absorption_xs);
  xs[3] = interpolate(f, low.fission_xs, high.fission_xs);
  xs[4] = interpolate(f, low.nu_fission_xs, high.nu_fission_xs);
}

void calculate_macro_xs(double p_energy, int mat, long n_gridpoints, const int *num_nucs, const int *mats,
                        const double *concs, int max_num_nucs, const NuclideGridPoint *grids, double *macro_xs) {
  for (int k = 0; k < 5; ++k)
    macro_xs[k] = 0;
  for (int j = 0; j < num_nucs[mat]; ++j) {
    double xs[5];
    const int nuc = mats[mat * max_num_nucs + j];
    calculate_micro_xs(p_energy, nuc, n_gridpoints, grids, xs);
    for (int k = 0; k < 5; ++k)
      macro_xs[k] += xs[k] * concs[mat * max_num_nucs + j];
  }
}

// ---- RSBench: multipole cross sections with a user complex type ---------
struct Cplx {
  double r, i;
  Cplx(double re, double im) : r(re), i(im) {}
};
Cplx operator*(Cplx a, Cplx b) { return Cplx(a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r); }
Cplx operator+(Cplx a, Cplx b) { return Cplx(a.r + b.r, a.i + b.i); }
Cplx fast_cexp(Cplx z) {
  const double t = std::exp(z.r);
  return Cplx(t * std::cos(z.i), t * std::sin(z.i));
}

struct Pole {
  double ea_r, ea_i, rt_r, rt_i, ra_r, ra_i;
};
struct Window {
  double T, A;
  int start, end;
};

void calculate_sig_factors(double E, int l_max, const double *pseudo_k0rs, double *factors) {
  const double sqrtE = std::sqrt(E);
  for (int l = 0; l < l_max; ++l) {
    const double phi = pseudo_k0rs[l] * sqrtE;
    factors[2 * l] = std::cos(-2.0 * phi);
    factors[2 * l + 1] = -std::sin(-2.0 * phi);
  }
}

void calculate_micro_xs_multipole(double E, int nuc, int n_windows, int n_poles, const Pole *poles,
                                  const Window *windows, const double *pseudo_k0rs, double *sig) {
  double factors[8];
  calculate_sig_factors(E, 4, pseudo_k0rs + 4 * nuc, factors);
  const double spacing = 1.0 / n_windows;
  int w = int(E / spacing);
  if (w >= n_windows)
    w = n_windows - 1;
  const Window &win = windows[nuc * n_windows + w];
  double sig_t = E * win.T, sig_a = E * win.A;
  const Cplx e_root(0.0, std::sqrt(E));
  for (int p = win.start; p < win.end; ++p) {
    const Pole &pole = poles[nuc * n_poles + p];
    const Cplx psi = fast_cexp(e_root * Cplx(pole.ea_r, pole.ea_i));
    const Cplx fac(factors[2 * (p % 4)], factors[2 * (p % 4) + 1]);
    sig_t += (psi * Cplx(pole.rt_r, pole.rt_i) * fac).r;
    sig_a += (psi * Cplx(pole.ra_r, pole.ra_i) + fac).r;
  }
  sig[0] = sig_t;
  sig[1] = sig_a;
}

// A template loop, instantiated for double and for the complex type above:
// its `v[i] * f` has a callee only in each instantiation, where the rewrite
// marks Cplx's operator*.
template <class T> void scale_all(std::vector<T> &v, T f) {
#pragma gpu_autopar for
  for (int i = 0; i < int(v.size()); ++i)
    v[i] = v[i] * f;
}

// ---- miniBUDE: pose energies of a ligand against a protein ---------------
struct Atom {
  float x, y, z;
  int type;
};
struct FFParams {
  float radius, hphb, elsc;
};

// The rotation and translation of one pose, as a 3x4 matrix.
void pose_transform(float rx, float ry, float rz, float tx, float ty, float tz, float m[3][4]) {
  const float sx = std::sin(rx), cx = std::cos(rx), sy = std::sin(ry), cy = std::cos(ry);
  const float sz = std::sin(rz), cz = std::cos(rz);
  m[0][0] = cy * cz;
  m[0][1] = sx * sy * cz - cx * sz;
  m[0][2] = cx * sy * cz + sx * sz;
  m[0][3] = tx;
  m[1][0] = cy * sz;
  m[1][1] = sx * sy * sz + cx * cz;
  m[1][2] = cx * sy * sz - sx * cz;
  m[1][3] = ty;
  m[2][0] = -sy;
  m[2][1] = sx * cy;
  m[2][2] = cx * cy;
  m[2][3] = tz;
}

float pair_energy(const FFParams &l, const FFParams &p, float distance) {
  const float radij = l.radius + p.radius;
  const float overlap = radij - distance;
  float e = 0;
  if (overlap > 0)
    e += overlap * 0.5f;
  e += (l.hphb * p.hphb) / (1.0f + distance);
  e += (l.elsc * p.elsc) / (1.0f + distance * distance);
  return e;
}

int main() {
  // XSBench: 12 nuclides of 200 grid points, 4 materials, 3001 lookups.
  const int n_nuclides = 12, n_mats = 4, max_num_nucs = 6;
  const long n_gridpoints = 200;
  std::vector<NuclideGridPoint> grids(n_nuclides * n_gridpoints);
  for (int n = 0; n < n_nuclides; ++n)
    for (long g = 0; g < n_gridpoints; ++g) {
      NuclideGridPoint &p = grids[n * n_gridpoints + g];
      p.energy = (g + 0.5 * ((n * 7 + g) % 3) / 3.0) / n_gridpoints;
      p.total_xs = 1.0 + ((n * 31 + g * 17) % 97) / 97.0;
      p.elastic_xs = 0.5 + ((n * 13 + g * 7) % 89) / 89.0;
      p.absorption_xs = ((n * 5 + g * 11) % 83) / 83.0;
      p.fission_xs = ((n * 3 + g * 19) % 79) / 79.0;
      p.nu_fission_xs = 2.4 * p.fission_xs;
    }
  std::vector<int> num_nucs(n_mats), mats(n_mats * max_num_nucs);
  std::vector<double> concs(n_mats * max_num_nucs);
  for (int m = 0; m < n_mats; ++m) {
    num_nucs[m] = 3 + m % 4;
    for (int j = 0; j < max_num_nucs; ++j) {
      mats[m * max_num_nucs + j] = (m * 5 + j * 3) % n_nuclides;
      concs[m * max_num_nucs + j] = 0.1 + 0.05 * ((m + j) % 7);
    }
  }
  const int lookups = 3001;
  std::vector<double> energies(lookups), macro(lookups * 5);
  std::vector<int> materials(lookups);
  for (int i = 0; i < lookups; ++i) {
    energies[i] = ((i * 7919) % lookups + 0.25) / lookups;
    materials[i] = (i * 13) % n_mats;
  }
#pragma gpu_autopar for
  for (int i = 0; i < lookups; ++i) {
    double macro_xs[5];
    calculate_macro_xs(energies[i], materials[i], n_gridpoints, num_nucs.data(), mats.data(), concs.data(),
                       max_num_nucs, grids.data(), macro_xs);
    for (int k = 0; k < 5; ++k)
      macro[i * 5 + k] = macro_xs[k];
  }
  double xs_sum = 0;
  for (int i = 0; i < lookups * 5; ++i)
    xs_sum += macro[i] * ((i % 11) + 1);
  std::printf("xsbench: %.10e %.10e\n", xs_sum, macro[5 * 1234 + 2]);

  // RSBench: 8 nuclides, 10 windows of 6 poles each, 2503 lookups.
  const int rs_nuclides = 8, n_windows = 10, n_poles = 60;
  std::vector<Pole> poles(rs_nuclides * n_poles);
  std::vector<Window> windows(rs_nuclides * n_windows);
  std::vector<double> pseudo_k0rs(rs_nuclides * 4);
  for (int n = 0; n < rs_nuclides; ++n) {
    for (int p = 0; p < n_poles; ++p) {
      Pole &q = poles[n * n_poles + p];
      q.ea_r = 0.01 * ((n + p) % 5);
      q.ea_i = 0.1 + 0.02 * ((n * 3 + p) % 7);
      q.rt_r = 0.3 * ((p % 4) + 1);
      q.rt_i = -0.1 * (n % 3);
      q.ra_r = 0.2 * ((n + 2 * p) % 3);
      q.ra_i = 0.05 * (p % 6);
    }
    for (int w = 0; w < n_windows; ++w) {
      Window &win = windows[n * n_windows + w];
      win.T = 0.5 + 0.1 * ((n + w) % 4);
      win.A = 0.25 + 0.05 * ((n * w) % 5);
      win.start = w * 6;
      win.end = w * 6 + 6;
    }
    for (int l = 0; l < 4; ++l)
      pseudo_k0rs[n * 4 + l] = 0.003 * (l + 1) * (n + 1);
  }
  const int rs_lookups = 2503;
  std::vector<double> sigs(rs_lookups * 2);
#pragma gpu_autopar for
  for (int i = 0; i < rs_lookups; ++i) {
    const double E = ((i * 613) % rs_lookups + 0.5) / rs_lookups;
    double sig[2];
    calculate_micro_xs_multipole(E, i % rs_nuclides, n_windows, n_poles, poles.data(), windows.data(),
                                 pseudo_k0rs.data(), sig);
    sigs[2 * i] = sig[0];
    sigs[2 * i + 1] = sig[1];
  }
  std::vector<Cplx> phases;
  for (int i = 0; i < rs_lookups; ++i)
    phases.push_back(Cplx(sigs[2 * i], sigs[2 * i + 1]));
  scale_all(phases, Cplx(0.5, 0.25));
  scale_all(sigs, 0.5);
  for (int i = 0; i < rs_lookups; ++i)
    sigs[2 * i] += phases[i].r - phases[i].i;
  double rs_sum = 0;
  for (int i = 0; i < rs_lookups * 2; ++i)
    rs_sum += sigs[i] * ((i % 7) + 1);
  std::printf("rsbench: %.10e %.10e\n", rs_sum, sigs[2 * 777 + 1]);

  // miniBUDE: 24 ligand atoms, 160 protein atoms, 4 atom types, 517 poses.
  const int n_ligand = 24, n_protein = 160, n_types = 4, n_poses = 517;
  std::vector<Atom> ligand(n_ligand), protein(n_protein);
  std::vector<FFParams> forcefield(n_types);
  for (int t = 0; t < n_types; ++t)
    forcefield[t] = {1.0f + 0.25f * t, (t % 2 ? 0.5f : -0.5f) * (t + 1), 0.1f * (t - 1.5f)};
  for (int a = 0; a < n_ligand; ++a)
    ligand[a] = {0.3f * (a % 5), 0.2f * (a % 7), 0.1f * (a % 3), a % n_types};
  for (int a = 0; a < n_protein; ++a)
    protein[a] = {4.0f + 0.5f * (a % 11), -3.0f + 0.4f * (a % 13), 1.5f * (a % 5), (a * 3) % n_types};
  std::vector<float> pose_params(6 * n_poses), pose_energy(n_poses);
  for (int p = 0; p < n_poses; ++p)
    for (int k = 0; k < 6; ++k)
      pose_params[6 * p + k] = (k < 3 ? 0.01f : 0.05f) * ((p * (k + 3)) % 61);
  // Energies are scaled by a lambda defined here and called in the body.
  const float half = 0.5f;
  auto scaled = [=](float e) { return e * half; };
#pragma gpu_autopar for
  for (int p = 0; p < n_poses; ++p) {
    float m[3][4];
    pose_transform(pose_params[6 * p], pose_params[6 * p + 1], pose_params[6 * p + 2], pose_params[6 * p + 3],
                   pose_params[6 * p + 4], pose_params[6 * p + 5], m);
    float etot = 0;
    for (int l = 0; l < n_ligand; ++l) {
      const Atom &la = ligand[l];
      const float lx = m[0][0] * la.x + m[0][1] * la.y + m[0][2] * la.z + m[0][3];
      const float ly = m[1][0] * la.x + m[1][1] * la.y + m[1][2] * la.z + m[1][3];
      const float lz = m[2][0] * la.x + m[2][1] * la.y + m[2][2] * la.z + m[2][3];
      for (int q = 0; q < n_protein; ++q) {
        const Atom &pa = protein[q];
        const float dx = lx - pa.x, dy = ly - pa.y, dz = lz - pa.z;
        etot += pair_energy(forcefield[la.type], forcefield[pa.type], std::sqrt(dx * dx + dy * dy + dz * dz));
      }
    }
    pose_energy[p] = scaled(etot);
  }
  // A loop in a generic lambda: nvcc cannot define a kernel there, so it runs
  // on CPU threads (a remark says so) and still builds with nvcc.
  auto normalise = [&](auto &values, auto scale) {
#pragma gpu_autopar for
    for (int p = 0; p < int(values.size()); ++p)
      values[p] = values[p] * scale;
  };
  normalise(pose_energy, 0.25f);
  double bude_sum = 0;
  for (int p = 0; p < n_poses; ++p)
    bude_sum += double(pose_energy[p]) * ((p % 5) + 1);
  std::printf("minibude: %.6e %.6e\n", bude_sum, double(pose_energy[333]));
}
// CHECK: sim:3: mini-app-callees.cpp:193 mode=kernel backend=sim iterations=3001 devices=3{{$}}
// CHECK: sim:3: mini-app-callees.cpp:233 mode=kernel backend=sim iterations=2503 devices=3{{$}}
// CHECK: sim:3: mini-app-callees.cpp:119 mode=kernel backend=sim iterations=2503 devices=3{{$}}
// CHECK: sim:3: mini-app-callees.cpp:119 mode=kernel backend=sim iterations=5006 devices=3{{$}}
// CHECK: sim:3: mini-app-callees.cpp:271 mode=kernel backend=sim iterations=517 devices=3{{$}}
// CHECK: sim:3: mini-app-callees.cpp:293 mode=host backend=cpu iterations=517 devices=1{{$}}
// CHECK: nvcc: compiled
// CHECK: standin devices=1: mini-app-callees.cpp:193 mode=kernel backend=cuda iterations=3001 devices=1{{$}}
// CHECK: standin devices=1: mini-app-callees.cpp:233 mode=kernel backend=cuda iterations=2503 devices=1{{$}}
// CHECK: standin devices=1: mini-app-callees.cpp:119 mode=kernel backend=cuda iterations=2503 devices=1{{$}}
// CHECK: standin devices=1: mini-app-callees.cpp:119 mode=kernel backend=cuda iterations=5006 devices=1{{$}}
// CHECK: standin devices=1: mini-app-callees.cpp:271 mode=kernel backend=cuda iterations=517 devices=1{{$}}
// CHECK: standin devices=1: mini-app-callees.cpp:293 mode=host backend=cpu iterations=517 devices=1{{$}}
// CHECK: standin devices=4: mini-app-callees.cpp:193 mode=kernel backend=cuda iterations=3001 devices=4{{$}}
// CHECK: standin devices=4: mini-app-callees.cpp:233 mode=kernel backend=cuda iterations=2503 devices=4{{$}}
// CHECK: standin devices=4: mini-app-callees.cpp:119 mode=kernel backend=cuda iterations=2503 devices=4{{$}}
// CHECK: standin devices=4: mini-app-callees.cpp:119 mode=kernel backend=cuda iterations=5006 devices=4{{$}}
// CHECK: standin devices=4: mini-app-callees.cpp:271 mode=kernel backend=cuda iterations=517 devices=4{{$}}
// CHECK: standin devices=4: mini-app-callees.cpp:293 mode=host backend=cpu iterations=517 devices=1{{$}}
