// Collecting what a function or statement does that decides where it can run
// (ConstructsFound.h).
#include "decide/ConstructsFound.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace gpuautopar {
namespace {

using namespace clang;

// Standard classes a callee may take or hold on a GPU: their members are
// constexpr (--expt-relaxed-constexpr) and hold no host pointers.
bool isDeviceStdClass(const CXXRecordDecl *RD) {
  StringRef N = RD->getName();
  return N == "array" || N == "pair" || N == "tuple" || N == "complex" || N == "span";
}

} // namespace

bool ownsHostMemory(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && !isDeviceStdClass(RD);
}

namespace {

// One walk, filling a ConstructsFound.
class Walk : public DynamicRecursiveASTVisitor {
public:
  std::vector<BodyModel::Construct> &Constructs;
  std::vector<Cause> &Members;
  explicit Walk(ConstructsFound &Out) : Constructs(Out.Constructs), Members(Out.Members) {}

  bool VisitCallExpr(CallExpr *E) override {
    Constructs.push_back({isa<CUDAKernelCallExpr>(E) ? BodyModel::Construct::KernelLaunch
                                                     : BodyModel::Construct::Call,
                          E});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) override {
    Constructs.push_back({BodyModel::Construct::Construction, E});
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *E) override {
    Constructs.push_back({BodyModel::Construct::New, E});
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) override {
    Constructs.push_back({BodyModel::Construct::Delete, E});
    return true;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *E) override {
    Constructs.push_back({BodyModel::Construct::Throw, E});
    return true;
  }
  bool VisitCXXTryStmt(CXXTryStmt *S) override {
    Constructs.push_back({BodyModel::Construct::Try, nullptr, S});
    return true;
  }
  bool VisitVarDecl(VarDecl *V) override {
    if (V->isStaticLocal())
      Constructs.push_back({BodyModel::Construct::StaticLocal, nullptr, nullptr, V});
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()); V && V->hasGlobalStorage() && !V->isStaticLocal())
      Constructs.push_back({BodyModel::Construct::Global, E, nullptr, V});
    return true;
  }
  // A pointer, reference or container member of an object from the host
  // points at host memory on a GPU: data maps copy only what the body names.
  bool VisitMemberExpr(MemberExpr *E) override {
    const auto *F = dyn_cast<FieldDecl>(E->getMemberDecl());
    if (!F)
      return true;
    const QualType T = F->getType();
    const std::string Name = "'" + F->getNameAsString() + "'";
    if (T->isPointerType() || T->isReferenceType())
      Members.push_back({"uses " + Name + ", a " + (T->isPointerType() ? "pointer" : "reference") +
                             " member, whose data no data map copies to a GPU",
                         E->getMemberLoc()});
    else if (ownsHostMemory(T))
      Members.push_back({"uses " + Name + ", a '" + T.getAsString() + "' member, which no data map copies to a GPU",
                         E->getMemberLoc()});
    return true;
  }
};

} // namespace

ConstructsFound constructsIn(const FunctionDecl *F) {
  ConstructsFound Out;
  Walk(Out).TraverseDecl(const_cast<FunctionDecl *>(F));
  return Out;
}

ConstructsFound constructsIn(const Stmt *S) {
  ConstructsFound Out;
  Walk(Out).TraverseStmt(const_cast<Stmt *>(S));
  return Out;
}

} // namespace gpuautopar
