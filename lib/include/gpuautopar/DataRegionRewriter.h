// Turns data regions and update directives into the runtime's region object
// and update calls (docs/generated-code.md, "Data regions"). Line numbers of
// the file do not change: the region's declaration takes the pragma's line.
#pragma once

#include "gpuautopar/DataRegion.h"
#include "gpuautopar/LoopRewriter.h"

namespace clang {
class ASTContext;
class Rewriter;
} // namespace clang

namespace gpuautopar {

void rewriteDataRegion(const DataRegion &R, clang::ASTContext &Ctx, clang::Rewriter &Rw, const OutputNames &Names);
void rewriteUpdate(const UpdateDirective &U, clang::ASTContext &Ctx, clang::Rewriter &Rw);
// `enter_data(...)`, or `exit_data(...)` and `delete_data(...)`, on the line.
void rewriteUnstructuredData(const UnstructuredData &U, clang::ASTContext &Ctx, clang::Rewriter &Rw,
                             const OutputNames &Names);

} // namespace gpuautopar
