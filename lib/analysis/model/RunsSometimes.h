// Statements under which code may run on some calls of a function and not
// others (internal): a visitor that counts how deep it is in them declares
// GPU_AUTOPAR_RUNS_SOMETIMES(Counter) among its members. Loops are left to
// the visitor, which may know that a counted loop runs.
#pragma once

#include "clang/AST/DynamicRecursiveASTVisitor.h"

#define GPU_AUTOPAR_SOMETIMES_ONE(CLASS, COUNTER)                                                                  \
  bool Traverse##CLASS(clang::CLASS *S) override {                                                                \
    ++COUNTER;                                                                                                    \
    bool R = clang::DynamicRecursiveASTVisitor::Traverse##CLASS(S);                                               \
    --COUNTER;                                                                                                    \
    return R;                                                                                                     \
  }

#define GPU_AUTOPAR_RUNS_SOMETIMES(COUNTER)                                                                        \
  GPU_AUTOPAR_SOMETIMES_ONE(IfStmt, COUNTER)                                                                       \
  GPU_AUTOPAR_SOMETIMES_ONE(WhileStmt, COUNTER)                                                                    \
  GPU_AUTOPAR_SOMETIMES_ONE(DoStmt, COUNTER)                                                                       \
  GPU_AUTOPAR_SOMETIMES_ONE(SwitchStmt, COUNTER)                                                                   \
  GPU_AUTOPAR_SOMETIMES_ONE(CXXForRangeStmt, COUNTER)                                                              \
  GPU_AUTOPAR_SOMETIMES_ONE(ConditionalOperator, COUNTER)                                                          \
  GPU_AUTOPAR_SOMETIMES_ONE(BinaryConditionalOperator, COUNTER)                                                    \
  GPU_AUTOPAR_SOMETIMES_ONE(LambdaExpr, COUNTER)
