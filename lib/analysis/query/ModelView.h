// What a query reads of a LevelModel, under the names the model gives it:
// each query is a short-lived object over one model, holding nothing of
// its own (internal).
#pragma once

#include "model/LoopModel.h"

namespace gpuautopar {

class ModelView {
protected:
  explicit ModelView(LevelModel &Model)
      : Model(Model), Atoms(Model.Atoms), Lin(Model.Lin), I(Model.I), Opts(Model.Opts),
        IndexName(Model.IndexName), Ctx(Model.Ctx) {}

  StmtModel &stmt(const Access *X) { return Model.stmt(X); }
  std::optional<Poly> subscript(const Access &X, size_t K) { return Model.subscript(X, K); }
  PwAff pa(const Poly &P, const StmtModel &S) { return Model.pa(P, S); }
  PwAff constant(const Space &Sp, int64_t C) { return Model.constant(Sp, C); }
  Set compare(PwAff L, PwAff R, clang::BinaryOperatorKind Op) { return Model.compare(L, R, Op); }
  bool isParam(unsigned Id) const { return Model.isParam(Id); }
  const StmtModel &outerRange() { return Model.outerRange(); }
  int64_t annotatedStep() const { return Model.annotatedStep(); }
  Set twoIterations() { return Model.twoIterations(); }
  std::optional<Sweep> sweep(const Access *X, const Poly &Element) { return Model.sweep(X, Element); }

  LevelModel &Model;
  AtomTable &Atoms;
  Linearizer &Lin;
  isl_ctx *const I;
  const AnalysisOptions &Opts;
  const std::string &IndexName;
  const clang::ASTContext &Ctx;
};

} // namespace gpuautopar
