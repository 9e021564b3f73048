// How a body reaches data through members (`this->u[i]`, `g.u[i]`,
// `s.p[i]`, `this->scale`), and whether a kernel can do the same with maps
// and copies instead of the object itself, which stays in host memory
// (internal to the analysis layer; docs/analysis.md, "Modes").
#pragma once

#include "model/BodyModel.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace gpuautopar {

struct MemberReach {
  // What keeps the loop off a GPU, with where: completes "the body ...".
  std::vector<std::pair<std::string, clang::SourceLocation>> HostOnly;
  // Objects whose elements the body reaches through a member path that a
  // map can copy, by their names ("g.u", "u"), with every spelling of them.
  std::map<std::string, MemberPath> Mapped;
  // Numbers the body reads through members: copied once where the loop starts.
  std::vector<MemberPath> Values;

  // Accessor calls (`d.x(i)`) read as elements whose member cannot be
  // mapped: HostOnly says why, which is more than the call would.
  std::vector<const clang::Expr *> RefusedAccessorCalls;

  // An accessor call that a mapped member's view replaces in a kernel (no
  // call is left there to run on a GPU), or that HostOnly already explains.
  bool decidesCall(const clang::Expr *Call) const {
    for (const auto &[Name, P] : Mapped)
      for (const clang::CXXMemberCallExpr *C : P.AccessorCalls)
        if (C == Call)
          return true;
    for (const clang::Expr *C : RefusedAccessorCalls)
      if (C == Call)
        return true;
    return false;
  }
};

MemberReach reachMembers(const LoopAnalysis &A, const BodyModel &Body, clang::ASTContext &Ctx);

} // namespace gpuautopar
