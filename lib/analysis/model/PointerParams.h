// What a visible function does through each of its pointer parameters
// (internal to the analysis layer). A caller that hands a function a row of
// its data (`binvcrhs(lhs[i][j][k][1], rhs[i][j][k])`) needs to know whether
// the function writes it and whether it stays inside it: only then is the
// row the whole of what the call touches there.
#pragma once

#include <cstdint>
#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace gpuautopar {

class CallEffectsCache;

// One pointer parameter of a function (`double *v`, `double r[5]`,
// `double m[5][5]`).
struct PointerParam {
  // Every use of the parameter is an element reached by subscripts of
  // constant range, read or written as a number, or the parameter handed on
  // whole to a function whose own parameter is followed. Otherwise the rest
  // says nothing.
  bool Followed = false;
  bool Reads = false, Writes = false;
  // The elements touched lie in the first `Rows` entries of what the pointer
  // points to (`p[0]` .. `p[Rows - 1]`), and every inner subscript inside its
  // declared extent: a caller passing at least that many is passed a whole
  // that holds every element the function touches.
  int64_t Rows = 0;
  // Every call writes the first element (`p[0]`, `p[0][0]`): a write not
  // under any condition, in counted loops that run, whose subscripts take
  // 0, in a function that never returns early, breaks or throws.
  bool WritesFirstAlways = false;
};

// Indexed by parameter; a parameter that is not a pointer is not followed.
std::vector<PointerParam> pointerParams(const clang::FunctionDecl *Def, CallEffectsCache &Cache);

} // namespace gpuautopar
