// The polyhedral model of one annotated loop nest (internal): built once per
// nest, it owns the nest's only isl context and, for each loop of the nest
// that is asked about, the atoms, the linearizer, the iteration domains and
// the access relations. The queries (lib/analysis/query/) read it and hold
// nothing of their own.
//
// Iteration domains come from the loop, the counted inner loops and the
// affine guards around each access; access relations from the subscripts.
// The first dimension of every statement space is the loop's own variable.
#pragma once

#include "model/AffinePoly.h"
#include "model/BodyModel.h"
#include "model/IslHandles.h"

#include "gpuautopar/LoopAnalysis.h"

#include "clang/AST/OperationKinds.h"
#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
} // namespace clang

namespace gpuautopar {

// One access in its statement space: [i, inner loop variables around it].
struct StmtModel {
  const Access *X = nullptr;
  std::vector<const InnerLoop *> Dims;
  Space Sp;
  Set Domain;
  Map Rel;            // statement instance -> element(s)
  std::string Object; // the array space's name: object and depth
  bool Exact = true;  // Domain and Rel are exact, not over-approximations
  std::string Why;    // the first thing that made them inexact
  // Rel holds every element of a row a visible callee stays inside, where
  // the callee may touch only some: a superset, so a conflict found is not
  // certain (Access::RowInside).
  bool Over = false;
  std::vector<std::optional<Poly>> Subscripts;
  // The instances whose subscripts of a built-in array's inner dimensions
  // stay within their extents (null: no such dimension). Dimensions are
  // flattened (`b[i][j - 1]` with j = 0 is the previous row's last
  // element, and code relies on it), so these are asked only to tell a
  // conflict that needs a subscript to leave its dimension from one that
  // does not (query/Bounds.cpp).
  Set InBounds;
  bool BoundsKnown = false;
  // A dimension of variable length is a coordinate of its own, not
  // flattened with the ones before it: Rel then holds only while the
  // subscript stays inside it, and the dependence test must ask InBounds.
  bool SplitRows = false;
};

// An element `Q + C*x` where only x, the variable of one counted inner
// loop, moves: its least and greatest values by that loop's header
// (Linearizer::range), with the loop.
struct Sweep {
  Poly Least, Greatest;
  const InnerLoop *Loop = nullptr;
  int64_t C = 0;
};

// How a product of parameters (`n*m`) reads. The dependence test does not
// know its value: a proven dependence must be one the product allows. A
// section's proof reads it as one more parameter: its claims hold for every
// value of that parameter, so also for the product's.
enum class Products { Unknown, AsParams };

// One loop of the nest as isl sees it, in one reading of products.
class LevelModel {
public:
  LevelModel(isl_ctx *I, const CanonicalLoop &Loop, const BodyModel &Body, clang::ASTContext &Ctx,
             const AnalysisOptions &Opts, Products Reading);
  ~LevelModel();
  LevelModel(const LevelModel &) = delete;
  LevelModel &operator=(const LevelModel &) = delete;

  // The atoms and linearizer the model reads subscripts with: a caller's
  // polynomials mean the same as the model's.
  AtomTable Atoms;
  Linearizer Lin;
  isl_ctx *const I;
  const AnalysisOptions &Opts;
  const CanonicalLoop &Loop;
  clang::ASTContext &Ctx;
  const std::string IndexName; // the loop variable's name, for witnesses

  // Expressions and polynomials on a statement's space (model/LoopModel.cpp).
  PwAff constant(const Space &Sp, int64_t C);
  PwAff atom(unsigned Id, const StmtModel &S);
  bool isParam(unsigned Id) const;
  // `P` on S's space; nothing where it is not affine.
  PwAff pa(const Poly &P, const StmtModel &S);
  PwAff pa(const clang::Expr *E, const StmtModel &S, const std::vector<Enclosing> &Around);
  // `L Op R` as a set (Op one of <, <=, >, >=, ==).
  Set compare(PwAff L, PwAff R, clang::BinaryOperatorKind Op);

  // Domains (model/Domains.cpp).
  StmtModel &stmt(const Access *X);
  std::optional<Poly> subscript(const Access &X, size_t K);
  const StmtModel &outerRange();
  int64_t annotatedStep() const;
  Set twoIterations();
  std::optional<Sweep> sweep(const Access *X, const Poly &Element);

  // Access relations of one object's accesses, over one common layout
  // (model/Relations.cpp).
  void relations(llvm::ArrayRef<const Access *> Xs);

private:
  struct Flat;
  using NestKey = std::vector<std::tuple<int, const InnerLoop *, const clang::Expr *, bool>>;

  void inexact(StmtModel &S, std::string Why);
  isl_id *id(unsigned Atom);
  std::optional<unsigned> loopDim(unsigned Id, const StmtModel &S) const;
  bool productParam(const Monomial &Mono) const;
  isl_id *productId(const Monomial &Mono);
  isl_aff *addParam(isl_aff *Aff, unsigned Id, int64_t C);
  isl_aff *addParam(isl_aff *Aff, IslId Name, int64_t C);
  void counted(StmtModel &S, unsigned Dim, const clang::Expr *Lower, const clang::Expr *Bound, LoopCompare Cmp,
               int64_t Step, const std::vector<Enclosing> &Around, const char *What);
  Set condition(const clang::Expr *C, const StmtModel &S, const std::vector<Enclosing> &Around);
  void outer(StmtModel &S);
  const StmtModel &nest(const std::vector<Enclosing> &Around);
  Map dimension(const StmtModel &S, const PwAff &At, int64_t Count);
  std::vector<Flat> flatOffsets(llvm::ArrayRef<const Access *> Xs);
  Map relation(const Access &X, StmtModel &S, const Flat &F, const std::vector<std::vector<unsigned>> &Strides);
  bool rowAndColumns(const Access &X, StmtModel &S, const Poly &Off, const std::vector<unsigned> &Strides,
                     std::vector<PwAff> &Parts);
  std::vector<unsigned> strides(Poly P);
  bool columnInRow(const StmtModel &S, const PwAff &Col, unsigned StrideAtom);
  std::string nonAffineReason(const Access &X, const StmtModel &S);
  void assumeWithin(StmtModel &S, const Poly &Sub, PwAff Extent);
  PwAff rowLength(const Access &X, size_t Level, const StmtModel &S);

  const Products Reading;
  std::map<unsigned, IslId> Ids;
  std::map<Monomial, IslId> ProductIds;
  std::map<const Access *, std::unique_ptr<StmtModel>> Stmts;
  // The loop's own range, built once: [i] with its bounds and step.
  std::unique_ptr<StmtModel> Outer;
  // Statement spaces and domains, one per distinct nest of enclosing loops
  // and guards: the accesses of one statement share theirs. The domain is
  // what costs (a strided loop's `mod` above all), not the access.
  std::map<NestKey, std::unique_ptr<StmtModel>> Nests;
};

// The model of one annotated loop nest: its isl context, and the levels
// built in it. Built once per nest (LoopAnalyzer.cpp) and read by legality,
// the data maps and every section asked for, collapsed levels included.
class LoopModel {
public:
  LoopModel(const CanonicalLoop &Loop, const BodyModel &Body, clang::ASTContext &Ctx, const AnalysisOptions &Opts);
  ~LoopModel();
  LoopModel(const LoopModel &) = delete;
  LoopModel &operator=(const LoopModel &) = delete;

  // The annotated loop, read for the dependence test and for sections
  // (built on first use, then kept).
  LevelModel &forDependence();
  LevelModel &forSections();
  // A loop collapsed into the annotated one, checked as its own loop (with
  // its body): a level in this nest's context, which its caller drops
  // before the model.
  std::unique_ptr<LevelModel> collapsedLevel(const CanonicalLoop &Inner, const BodyModel &InnerBody);

  const AnalysisOptions &options() const { return Opts; }

private:
  struct ContextDeleter {
    void operator()(isl_ctx *I) const;
  };
  const CanonicalLoop &Loop;
  const BodyModel &Body;
  clang::ASTContext &Ctx;
  const AnalysisOptions Opts;
  std::unique_ptr<isl_ctx, ContextDeleter> I; // declared before the levels: freed after them
  std::unique_ptr<LevelModel> Dependence, Sections;
};

// `rows[i][j]` of a `double **` or a `std::vector<float *>`: an access with
// `Subscripts` subscripts reaches its element through a pointer the object
// holds, and two such pointers may point into one row (Relations.cpp).
bool rowsThroughPointers(clang::QualType T, size_t Subscripts, const clang::ASTContext &Ctx);

} // namespace gpuautopar
