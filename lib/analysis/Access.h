// What the body of an annotated loop does with variables declared outside it
// (internal to the analysis layer).
#pragma once

#include "clang/AST/Expr.h"

#include <string>
#include <vector>

namespace gpuautopar {

// One read and/or write of a variable declared outside the loop: the variable
// itself (`s = ...`) or one element of it (`a[i][j]`, `v[k]`, `*p`).
struct Access {
  // The variable declared outside the loop: `a` in `a[i]`, `s` in `s.data[i]`;
  // null for a member of the enclosing object (`data[i]` in a method).
  const clang::VarDecl *Var = nullptr;
  // What is indexed, as the user names it ("a", "s.data", "data") and the
  // declaration that identifies it with that name (the variable, or the field
  // for members of the enclosing object): accesses are compared per object.
  std::string Name;
  const clang::ValueDecl *Key = nullptr;
  const clang::Expr *E = nullptr; // the whole access, for locations and messages
  bool Element = false;           // an element, not the variable itself
  // Subscripts of an element access, outermost dimension first; a null entry
  // stands for the constant 0 (`*p` is `p[0]`).
  std::vector<const clang::Expr *> Subscripts;
  bool Read = false, Write = false;
};

} // namespace gpuautopar
