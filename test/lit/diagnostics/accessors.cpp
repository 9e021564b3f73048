// Inline accessors returning references, as LULESH writes them
// (`Real_t &x(Index_t i) { return m_x[i]; }`), are seen through: `d.x(i)` is
// the element `d.m_x[i]`, compared with the other accesses like one, not a
// write of the whole `d`; an accessor in the bound (`i < d.numNode()`) is not
// "changed in the loop body" by the accessors the body calls. The calls are
// calls of host functions: such loops are task mode, on CPU threads.
// RUN: %expect-exit 1 %gpu-autopar %s --check --report=%t.json -- -std=c++17 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=MODES --input-file %t.json
#include <vector>
typedef int Index_t;
typedef double Real_t;
class Domain {
public:
  Real_t &x(Index_t i) { return m_x[i]; }
  const Real_t &y(Index_t i) const { return m_y[i]; }
  Real_t &xd(Index_t i) { return m_xd[i]; }
  Real_t &p(Index_t i) { return m_p[i]; }
  Real_t &q(Index_t i) { return m_q[i]; }
  Index_t numNode() const { return m_numNode; }
  // In a method: the same elements, through `this`.
  void advance(Real_t dt) {
#pragma gpu_autopar for
    for (Index_t i = 0; i < numNode(); ++i)
      x(i) = y(i) + dt * xd(i);
// CHECK: accessors.cpp:[[@LINE-1]]:7: remark: loop runs on CPU threads only: the body calls 'x', which cannot run on a GPU
// CHECK: accessors.cpp:15:33: note: 'x' uses 'm_x', a 'std::vector<Real_t>' member, which no data map copies to a GPU
  }

private:
  std::vector<Real_t> m_x, m_y, m_xd;
  Real_t *m_p, *m_q;
  Index_t m_numNode;
};

void step(Domain &domain, Real_t dt, Index_t n) {
  // Three members of one object: different objects, no check.
#pragma gpu_autopar for
  for (Index_t i = 0; i < domain.numNode(); ++i)
    domain.x(i) = domain.y(i) + dt * domain.xd(i);
// CHECK: accessors.cpp:[[@LINE-1]]:5: remark: loop runs on CPU threads only: the body calls 'x', which cannot run on a GPU
// CHECK: accessors.cpp:15:33: note: 'x' uses 'm_x', a 'std::vector<Real_t>' member, which no data map copies to a GPU
  // An element another iteration writes: a dependence, found through the accessor.
#pragma gpu_autopar for
  for (Index_t i = 0; i < n - 1; ++i)
    domain.x(i) = domain.x(i + 1) * dt;
// CHECK: accessors.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'domain.m_x': an element written in one iteration is read in another
// CHECK: accessors.cpp:[[@LINE-2]]:12: note: write of 'domain.m_x' here
// CHECK: accessors.cpp:[[@LINE-3]]:26: note: read of 'domain.m_x' here
// CHECK: accessors.cpp:[[@LINE-5]]:3: note: for example, with n = 3, iteration i=1 writes domain.m_x[1] and iteration i=0 reads it
// CHECK: accessors.cpp:[[@LINE-5]]:5: remark: loop runs on CPU threads only: the body calls 'x', which cannot run on a GPU
// CHECK: accessors.cpp:15:33: note: 'x' uses 'm_x', a 'std::vector<Real_t>' member, which no data map copies to a GPU
  // Two pointer members may point into one buffer; the loop cannot name them
  // (they are private), so no check: a warning.
#pragma gpu_autopar for
  for (Index_t i = 0; i < domain.numNode(); ++i)
    domain.p(i) = domain.q(i) * 2;
// CHECK: accessors.cpp:[[@LINE-1]]:5: remark: loop runs on CPU threads only: the body calls 'p', which cannot run on a GPU
// CHECK: accessors.cpp:18:33: note: 'p' uses 'm_p', a pointer member, whose data no data map copies to a GPU
// CHECK: accessors.cpp:[[@LINE-3]]:12: warning: 'domain.m_p' and 'domain.m_q' may alias; declare them __restrict__ if they never overlap
// CHECK: accessors.cpp:[[@LINE-4]]:26: note: read of 'domain.m_q' here
}
// Every loop runs on CPU threads: the accessors are visible callees, but
// they reach their object's std::vector and pointer members, which no map
// copies to a GPU (the note at the member says so); the byte copy's loop
// too. Only the dependence is rejected.
// MODES-COUNT-5: "mode": "host",
// MODES-NOT:     "mode":
// RUN: FileCheck %s --check-prefix=DECISIONS --input-file %t.json
// DECISIONS:      "decision": "accepted",
// DECISIONS:      "decision": "accepted",
// DECISIONS:      "decision": "rejected",
// DECISIONS:      "decision": "accepted",
// DECISIONS:      "decision": "accepted",
// DECISIONS-NOT:  "decision":

// A member function the body calls on a variable runs on the kernel's byte
// copy of it: where the variable holds pointers, they point to host memory.
struct View {
  const double *p;
  constexpr double twice(int i) const { return 2 * p[i]; }
};
void scaled(double *out, View v, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = v.twice(i);
// CHECK: accessors.cpp:[[@LINE-1]]:14: warning: cannot prove that iterations access distinct elements of 'out': 'twice' reads through a pointer member of 'v', which may point into it; the analysis does not follow it
// CHECK: accessors.cpp:[[@LINE-2]]:14: remark: loop runs on CPU threads only: the body calls 'twice' on 'v', of which a kernel gets a byte copy, but its values hold member 'p', whose values are pointers to further data in host memory
}
