#include "model/CallEffects.h"
#include "model/RunsSometimes.h"
#include "model/BodyShapes.h" // isElementAccessor, isInputOutput
#include "FunctionKinds.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"

#include <set>

namespace gpuautopar {

using namespace clang;

namespace {

// A function followed this many calls deep is not followed further: its
// calls count as unseen.
constexpr unsigned MaxDepth = 24;

bool inStandardLibrary(const FunctionDecl *F) {
  if (F->isInStdNamespace())
    return true;
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->getParent()->isInStdNamespace())
    return true;
  const std::string Q = F->getQualifiedNameAsString();
  return Q.rfind("__gnu_cxx::", 0) == 0 || Q.rfind("__cxxabiv1::", 0) == 0;
}

StringRef nameOf(const FunctionDecl *F) {
  return F->getDeclName().isIdentifier() ? F->getName() : StringRef();
}

// Library functions that keep state between calls: iterations calling them
// race on it, whatever their arguments.
bool keepsHiddenState(const FunctionDecl *F) {
  static const char *const Names[] = {"rand",    "srand",   "random", "srandom", "drand48", "lrand48", "strtok",
                                      "setlocale", "random_shuffle", "localtime", "gmtime", "asctime", "ctime"};
  return llvm::is_contained(Names, nameOf(F));
}

// C library functions (no visible body) whose only effects are through their
// arguments: <math.h>, <string.h>'s readers and copiers, <stdlib.h>'s
// arithmetic and conversions, <ctype.h>. Copiers write through their pointer
// arguments, which the caller sees as outside data passed on.
bool knownThroughArguments(const FunctionDecl *F) {
  static const std::set<std::string, std::less<>> Names = [] {
    std::set<std::string, std::less<>> S;
    for (const char *Base :
         {"sqrt", "cbrt", "hypot", "exp",   "exp2",  "expm1", "log",   "log2",  "log10", "log1p", "pow",   "sin",
          "cos",  "tan",  "asin",  "acos",  "atan",  "atan2", "sinh",  "cosh",  "tanh",  "asinh", "acosh", "atanh",
          "fabs", "floor", "ceil", "round", "trunc", "rint",  "nearbyint", "lround", "llround", "lrint", "llrint",
          "fmod", "remainder", "fmin", "fmax", "fdim", "fma", "copysign", "erf", "erfc", "tgamma", "lgamma",
          "ldexp", "frexp", "modf", "scalbn", "ilogb", "logb", "nextafter", "isnan", "isinf", "isfinite"})
      for (const char *Suffix : {"", "f", "l"})
        S.insert(std::string(Base) + Suffix);
    for (const char *N : {"abs", "labs", "llabs", "div", "ldiv", "atoi", "atol", "atoll", "atof", "strtol", "strtoll",
                          "strtoul", "strtoull", "strtod", "strtof", "memcpy", "memmove", "memset", "memcmp", "strlen",
                          "strcmp", "strncmp", "strcpy", "strncpy", "strcat", "strncat", "strchr", "strrchr", "strstr",
                          "isalpha", "isdigit", "isspace", "isupper", "islower", "isalnum", "toupper", "tolower",
                          "malloc", "calloc", "realloc", "free"})
      S.insert(N);
    return S;
  }();
  return F->getDeclContext()->getRedeclContext()->isTranslationUnit() && Names.count(nameOf(F));
}

// Follows one function's body: what it reads and writes of data that
// outlives it, and what the functions it calls do.
class EffectScan : public DynamicRecursiveASTVisitor {
public:
  EffectScan(const FunctionDecl *F, CallEffects &Out, CallEffectsCache &Cache)
      : Lambda(isa<CXXMethodDecl>(F) && cast<CXXMethodDecl>(F)->getParent()->isLambda()), Out(Out),
        Cache(Cache) {
    if (const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody()); Body && !Body->body_empty())
      Last = Body->body_back();
  }

  bool Leaves = false; // returns before its end, jumps or throws

  bool TraverseCXXTryStmt(CXXTryStmt *S) override {
    ++Tries; // an exception the function catches itself does not leave it
    ++Conditional;
    bool R = TraverseStmt(S->getTryBlock());
    --Tries;
    for (unsigned I = 0; R && I < S->getNumHandlers(); ++I)
      R = TraverseStmt(S->getHandler(I));
    --Conditional;
    return R;
  }
  // What runs under these may not run on every call (GlobalsAlwaysWritten).
  GPU_AUTOPAR_RUNS_SOMETIMES(Conditional)
  GPU_AUTOPAR_SOMETIMES_ONE(ForStmt, Conditional)
  bool TraverseBinaryOperator(BinaryOperator *B) override {
    if (!B->isLogicalOp())
      return DynamicRecursiveASTVisitor::TraverseBinaryOperator(B);
    bool R = TraverseStmt(B->getLHS()); // the right operand runs only sometimes
    ++Conditional;
    R = R && TraverseStmt(B->getRHS());
    --Conditional;
    return R && WalkUpFromBinaryOperator(B);
  }
  // A return before the end, or a jump, may skip what follows.
  bool VisitReturnStmt(ReturnStmt *S) override {
    Leaves |= S != Last;
    return true;
  }
  bool VisitGotoStmt(GotoStmt *) override { return Leaves = true; }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) override { return Leaves = true; }
  bool VisitCXXThrowExpr(CXXThrowExpr *) override {
    if (Tries == 0)
      Out.Throws = true;
    Leaves = true;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) override {
    if (B->isAssignmentOp())
      target(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) override {
    if (U->isIncrementDecrementOp())
      target(U->getSubExpr());
    return true;
  }
  // `p` or `this->p` for a pointer or reference member: what it points to
  // may be read (writes through it are the object's: target()).
  bool VisitMemberExpr(MemberExpr *E) override {
    const auto *F = dyn_cast<FieldDecl>(E->getMemberDecl());
    if (!F || !isa<CXXThisExpr>(E->getBase()->IgnoreParenImpCasts()))
      return true;
    QualType T = F->getType();
    if (T->isPointerType())
      T = T->getPointeeType();
    else if (T->isReferenceType())
      T = T.getNonReferenceType();
    else
      return true;
    addOnce(Out.PointeesRead, T.getCanonicalType().getUnqualifiedType().getTypePtr());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (!V)
      return true;
    if (V->hasGlobalStorage() && !V->getType().isConstQualified())
      addOnce(Out.GlobalsRead, V);
    else if (Lambda && E->refersToEnclosingVariableOrCapture())
      addOnce(Out.CapturesRead, V);
    return true;
  }
  bool VisitCallExpr(CallExpr *E) override {
    const FunctionDecl *F = E->getDirectCallee();
    if (!F) {
      unseen("a function through a pointer", "may have effects the analysis cannot see");
      return true;
    }
    if (const char *X = exitKind(F)) {
      if (Out.Exit.empty())
        Out.Exit = X;
      return true;
    }
    if (isInputOutput(F)) {
      if (Out.InputOutput.empty())
        Out.InputOutput = F->getNameAsString();
      return true;
    }
    // Arguments bound to non-const references, or the address of data that
    // outlives this function, may be written by the callee.
    for (unsigned K = 0; K < E->getNumArgs() && K < F->getNumParams(); ++K) {
      QualType T = F->getParamDecl(K)->getType();
      if ((T->isReferenceType() || T->isPointerType()) && !T->getPointeeType().isConstQualified())
        target(E->getArg(K));
    }
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    const auto *Method = dyn_cast<CXXMethodDecl>(F);
    const Expr *Object = MC ? MC->getImplicitObjectArgument()
                            : (isa<CXXOperatorCallExpr>(E) && Method && E->getNumArgs() ? E->getArg(0) : nullptr);
    if (Object && Method && !Method->isConst() && !isElementAccessor(Method))
      target(Object);
    if (Method && Method->isVirtual() && !Method->hasAttr<FinalAttr>() && !Method->getParent()->hasAttr<FinalAttr>() &&
        MC) {
      unseen(F->getNameAsString(), "is virtual; an override may have effects the analysis cannot see");
      return true;
    }
    if (!isScanned(F)) {
      if (const char *Why = unseenWhy(F))
        unseen(F->getNameAsString(), Why);
      else if (inStandardLibrary(F) && F->isNoReturn() && Tries == 0)
        Out.Throws = true; // std::__throw_out_of_range and the like
      return true;
    }
    const CallEffects &C = Cache.of(F);
    for (const VarDecl *G : C.GlobalsWritten)
      addOnce(Out.GlobalsWritten, G);
    if (Conditional == 0)
      for (const VarDecl *G : C.GlobalsAlwaysWritten)
        addOnce(Out.GlobalsAlwaysWritten, G);
    for (const VarDecl *G : C.GlobalsRead)
      addOnce(Out.GlobalsRead, G);
    if (C.WritesObject && Object)
      target(Object);
    if (Object && isa<CXXThisExpr>(Object->IgnoreParenImpCasts()))
      for (const Type *T : C.PointeesRead)
        addOnce(Out.PointeesRead, T);
    if (Out.Exit.empty())
      Out.Exit = C.Exit;
    Out.Throws |= C.Throws && Tries == 0;
    if (Out.InputOutput.empty())
      Out.InputOutput = C.InputOutput;
    if (!C.Unseen.empty())
      unseen(C.Unseen, C.UnseenWhy);
    return true;
  }

private:
  // What an assignment or a non-const binding reaches: a global (or an
  // element or member of one), a member of the function's own object, or a
  // variable a lambda captured (whole, or elements through it).
  void target(const Expr *E) {
    bool Element = false;
    E = E->IgnoreParenImpCasts();
    while (true) {
      if (const auto *M = dyn_cast<MemberExpr>(E)) {
        Element |= M->isArrow();
        E = M->getBase()->IgnoreParenImpCasts();
      } else if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
        Element |= !S->getBase()->getType()->isArrayType() || Element;
        E = S->getBase()->IgnoreParenImpCasts();
      } else if (const auto *U = dyn_cast<UnaryOperator>(E);
                 U && (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf)) {
        Element |= U->getOpcode() == UO_Deref;
        E = U->getSubExpr()->IgnoreParenImpCasts();
      } else if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->getType()->isPointerType() && B->isAdditiveOp()) {
        E = (B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS())->IgnoreParenImpCasts();
      } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getOperator() == OO_Subscript) {
        Element = true;
        E = Op->getArg(0)->IgnoreParenImpCasts();
      } else {
        break;
      }
    }
    if (isa<CXXThisExpr>(E)) {
      Out.WritesObject = true;
      return;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!V)
      return;
    if (V->hasGlobalStorage() && !V->getType().isConstQualified()) {
      addOnce(Out.GlobalsWritten, V);
      if (!Element && Conditional == 0 && V->getType()->isScalarType())
        addOnce(Out.GlobalsAlwaysWritten, V);
    } else if (Lambda && Ref->refersToEnclosingVariableOrCapture())
      addOnce(Element ? Out.CaptureElementsWritten : Out.CapturesWritten, V);
  }
  void unseen(const std::string &Name, const char *Why) {
    if (Out.Unseen.empty()) {
      Out.Unseen = Name;
      Out.UnseenWhy = Why;
    }
  }
  template <class T> static void addOnce(std::vector<const T *> &L, const T *V) {
    if (!llvm::is_contained(L, V))
      L.push_back(V);
  }

  const bool Lambda;
  CallEffects &Out;
  CallEffectsCache &Cache;
  unsigned Tries = 0;
  unsigned Conditional = 0; // statements around that may not run on every call
  const Stmt *Last = nullptr; // the body's last statement: a return there skips nothing
};

} // namespace

bool isScanned(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  return F->isDefined(Def) && Def->hasBody() && !inStandardLibrary(F) && !isCudaApi(F);
}

const char *unseenWhy(const FunctionDecl *F) {
  if (inStandardLibrary(F) || F->getBuiltinID() != 0 || isCudaApi(F))
    return keepsHiddenState(F) ? "keeps state between calls, which iterations would share" : nullptr;
  if (keepsHiddenState(F))
    return "keeps state between calls, which iterations would share";
  if (knownThroughArguments(F) || F->isConstexpr())
    return nullptr;
  return "may have effects the analysis cannot see";
}

const char *exitKind(const FunctionDecl *F) {
  static const char *const Names[] = {"exit", "_Exit", "quick_exit", "abort", "longjmp", "siglongjmp", "_longjmp",
                                      "terminate"};
  // What a failing `assert` calls (glibc, BSD and macOS, Windows): it aborts
  // the program. Under NDEBUG the macro calls nothing.
  static const char *const Asserts[] = {"__assert_fail", "__assert_perror_fail", "__assert", "__assert_rtn",
                                        "_assert", "_wassert"};
  StringRef N = nameOf(F);
  if (llvm::is_contained(Asserts, N) && F->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return "assert";
  for (const char *X : Names)
    if (N == X && (F->getDeclContext()->getRedeclContext()->isTranslationUnit() || inStandardLibrary(F)))
      return X;
  return nullptr;
}

const CallEffects &CallEffectsCache::of(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  F->isDefined(Def);
  assert(Def && Def->hasBody() && "only a visible definition is scanned");
  if (auto It = Done.find(Def); It != Done.end())
    return *It->second;
  auto &Slot = Done[Def];
  Slot = std::make_unique<CallEffects>();
  CallEffects *Out = Slot.get(); // stable: a recursive call sees the effects found so far
  if (Depth >= MaxDepth) {
    Out->Unseen = F->getNameAsString();
    Out->UnseenWhy = "calls functions nested deeper than the analysis follows";
    return *Out;
  }
  ++Depth;
  EffectScan Scan(Def, *Out, *this);
  Scan.TraverseStmt(Def->getBody());
  if (Scan.Leaves || !Out->Exit.empty())
    Out->GlobalsAlwaysWritten.clear();
  Out->Params = pointerParams(Def, *this);
  --Depth;
  return *Out;
}

} // namespace gpuautopar
