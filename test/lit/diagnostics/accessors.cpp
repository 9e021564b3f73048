// Inline accessors returning references, as LULESH writes them
// (`Real_t &x(Index_t i) { return m_x[i]; }`), are seen through: `d.x(i)` is
// the element `d.m_x[i]`, compared with the other accesses like one, not a
// write of the whole `d`; an accessor in the bound (`i < d.numNode()`) is not
// "changed in the loop body" by the accessors the body calls. In kernel mode
// the member is mapped and the body indexes the map's view where it called
// the accessor: by the member's path where the loop's scope may name it (a
// method, a friend, a public member), else through the pointer `&d.x(0)` the
// accessor returns (e2e/members.cpp runs them). What keeps such a loop on
// CPU threads is said here.
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
  Real_t e(Index_t i) const { return m_e[i]; }
  Index_t numNode() const { return m_numNode; }
  // In a method: the same elements, through `this`, mapped by their paths.
  void advance(Real_t dt) {
#pragma gpu_autopar for
    for (Index_t i = 0; i < numNode(); ++i)
      x(i) = y(i) + dt * xd(i);
  }
  friend void relax(Domain &d);

private:
  std::vector<Real_t> m_x, m_y, m_xd, m_e;
  Real_t *m_p, *m_q;
  Index_t m_numNode;
};

// A friend names the private members: mapped by their paths.
void relax(Domain &d) {
#pragma gpu_autopar for
  for (Index_t i = 0; i < d.numNode(); ++i)
    d.xd(i) = 0.5 * d.y(i);
}

void step(Domain &domain, Real_t dt, Index_t n, const Index_t *nodelist) {
  // Three members of one object: different objects, no check.
#pragma gpu_autopar for
  for (Index_t i = 0; i < domain.numNode(); ++i)
    domain.x(i) = domain.y(i) + dt * domain.xd(i);
  // An element another iteration writes: a dependence, found through the accessor.
#pragma gpu_autopar for
  for (Index_t i = 0; i < n - 1; ++i)
    domain.x(i) = domain.x(i + 1) * dt;
// CHECK: accessors.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'domain.m_x': an element written in one iteration is read in another
// CHECK: accessors.cpp:[[@LINE-2]]:12: note: write of 'domain.m_x' here
// CHECK: accessors.cpp:[[@LINE-3]]:26: note: read of 'domain.m_x' here
// CHECK: accessors.cpp:[[@LINE-5]]:3: note: for example, with n = 3, iteration i=1 writes domain.m_x[1] and iteration i=0 reads it
  // Two pointer members may point into one buffer: mapped through their
  // accessors, their sections are compared before the loop runs.
#pragma gpu_autopar for
  for (Index_t i = 0; i < domain.numNode(); ++i)
    domain.p(i) = domain.q(i) * 2;
// CHECK: accessors.cpp:[[@LINE-1]]:12: remark: 'domain.m_p' and 'domain.m_q' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: accessors.cpp:[[@LINE-2]]:26: note: read of 'domain.m_q' here
  // An accessor that returns a copy: no element address to map from.
#pragma gpu_autopar for
  for (Index_t i = 0; i < domain.numNode(); ++i)
    domain.x(i) = domain.e(i);
// CHECK: accessors.cpp:[[@LINE-1]]:19: remark: loop runs on CPU threads only: the body reaches 'domain.e(i)' through accessor 'e', which returns a copy of the element: the loop cannot name 'm_e' (private) to map it, nor take the element's address
  // A vector member reached only under a condition: it may be empty.
#pragma gpu_autopar for
  for (Index_t i = 0; i < domain.numNode(); ++i)
    if (domain.x(i) > 0)
      domain.xd(i) = 1;
// CHECK: accessors.cpp:[[@LINE-1]]:7: remark: loop runs on CPU threads only: the body reaches 'domain.m_xd' through accessor 'xd' only under conditions: a map of it would take the address of its first element before the loop runs, which an empty vector does not have
  // A gather: the elements are told by an array, and the pointer the
  // accessor gives has no length the loop can name.
#pragma gpu_autopar for
  for (Index_t i = 0; i < n; ++i)
    domain.xd(i) = domain.x(nodelist[i]);
// CHECK: accessors.cpp:[[@LINE-1]]:20: remark: loop runs on CPU threads only: the body indexes 'domain.m_x' through accessor 'x' where no section tells the elements, and the loop cannot name the member to map it whole; copy the accessor's element address to a local pointer and add 'map(to: p[0:n])' with its length to run it on a GPU
}
// MODES:         "mode": "kernel",
// MODES:         "mode": "kernel",
// MODES:         "mode": "kernel",
// MODES:         "mode": "kernel",
// MODES:         "mode": "kernel",
// MODES:         "mode": "host",
// MODES:         "mode": "host",
// MODES:         "mode": "host",
// MODES:         "mode": "host",
// MODES-NOT:     "mode":
// RUN: FileCheck %s --check-prefix=DECISIONS --input-file %t.json
// DECISIONS:      "decision": "accepted",
// DECISIONS:      "decision": "accepted",
// DECISIONS:      "decision": "accepted",
// DECISIONS:      "decision": "rejected",
// DECISIONS:      "decision": "accepted",
// DECISIONS:      "decision": "accepted",
// DECISIONS:      "decision": "accepted",
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
