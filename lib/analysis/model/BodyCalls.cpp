// How the body walk reads a call: what the callee may do (CallEffects.h),
// the data it is handed, the references it returns, exits and I/O.
#include "model/BodyCollector.h"
#include "Containers.h"
#include "FunctionKinds.h"

namespace gpuautopar::bodymodel {

bool Collector::VisitCallExpr(CallExpr *E) {
  M.Constructs.push_back({isa<CUDAKernelCallExpr>(E) ? BodyModel::Construct::KernelLaunch
                                                     : BodyModel::Construct::Call,
                          E});
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(E)) {
    if (Lambdas == 0)
      M.KernelLaunches.push_back(K);
    return true;
  }
  const FunctionDecl *F = E->getDirectCallee();
  if (!F) {
    if (Lambdas == 0 && !isLambdaCall(E))
      M.UnseenCalls.push_back({E, "", "is made through a pointer or std::function"});
    return true;
  }
  const auto *Method = dyn_cast<CXXMethodDecl>(F);
  bool Accessed = false; // an inline accessor's element, recorded as an access
  if (Method && Method->getParent()->isLambda() && Lambdas == 0 &&
      !inside(SM, BodyRange, Method->getParent()->getLocation()))
    M.Constructs.push_back({BodyModel::Construct::OuterLambda, E});
  if (isa<CXXOperatorCallExpr>(E)) {
    if (Lambdas == 0 && isInputOutput(F))
      M.InputOutput.push_back({E, "operator" + std::string(getOperatorSpelling(F->getOverloadedOperator()))});
    if (Method && Method->getOverloadedOperator() == OO_Call && Method->getParent()->isInStdNamespace() &&
        Lambdas == 0)
      M.UnseenCalls.push_back({E, sourceText(E->getArg(0), Ctx), "is made through a std::function"});
  } else {
    // An argument bound to a non-const reference may be written.
    for (unsigned K = 0; K < E->getNumArgs() && K < F->getNumParams(); ++K) {
      QualType T = F->getParamDecl(K)->getType();
      if (T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified())
        written(E->getArg(K), true, true);
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E); MC && Method) {
      if (accessorElement(MC, Method))
        Accessed = true;
      else if (!isElementAccessor(Method))
        written(MC->getImplicitObjectArgument()->IgnoreParenImpCasts(), true, true);
    }
  }
  if (Lambdas != 0)
    return true;
  if (isInputOutput(F)) {
    if (!isa<CXXOperatorCallExpr>(E))
      M.InputOutput.push_back({E, F->getNameAsString()});
    return true;
  }
  if (const char *X = exitKind(F)) {
    M.JumpsOut.push_back({E->getBeginLoc(), X});
    return true;
  }
  if (!Accessed)
    returnedReference(E, F);
  if (Method && Method->isVirtual() && !Method->hasAttr<FinalAttr>() && !Method->getParent()->hasAttr<FinalAttr>() &&
      isa<CXXMemberCallExpr>(E)) {
    M.UnseenCalls.push_back({E, F->getNameAsString(), "is virtual; an override may have effects the analysis "
                                                      "cannot see"});
    return true;
  }
  // An unseen function is reported as such; what it is given adds nothing.
  if (F->isDefined() || !unseenWhy(F))
    escapes(E, F);
  // An accessor seen through does nothing but hand out the element recorded.
  if (Accessed)
    return true;
  if (isScanned(F))
    calleeEffects(E, F);
  else if (const char *Why = unseenWhy(F))
    M.UnseenCalls.push_back({E, F->getNameAsString(), Why});
  return true;
}

// A function given the address of outside data (`f(a)`, `f(&a[k])`,
// `f(a + k)`, `f(m[i])` for a row, `memcpy(&a[i], ...)`) may write any
// element of it; given it as a pointer or reference to const (`prev(a, i)`,
// a `const std::vector<double> &`), it may read any element of it, which
// matters where the loop writes that object. The analysis does not follow
// the pointer. Passing an element's value (`process(channels[c])`) is the
// iteration's own object.
//
// A function whose definition the analysis reads says what it does through
// each pointer parameter (PointerParams.h): one that only reads is handed
// data to read, one that touches nothing is handed nothing, and a row it
// stays inside is all it touches there.
void Collector::escapes(const CallExpr *E, const FunctionDecl *F) {
  if (isCudaApi(F))
    return;
  const std::vector<PointerParam> *Followed = isScanned(F) ? &Effects.of(F).Params : nullptr;
  for (unsigned K = 0; K < E->getNumArgs() && K < F->getNumParams(); ++K) {
    QualType T = F->getParamDecl(K)->getType();
    const bool Pointer = T->isPointerType();
    const bool ConstObject = T->isLValueReferenceType() && T.getNonReferenceType().isConstQualified() &&
                             !T.getNonReferenceType()->isScalarType();
    if (!Pointer && !ConstObject)
      continue;
    const Expr *Arg = E->getArg(K)->IgnoreParenImpCasts();
    const PointerParam *P = Followed && K < Followed->size() && (*Followed)[K].Followed ? &(*Followed)[K] : nullptr;
    if (P && isa<ArraySubscriptExpr>(Arg))
      handedRow(Arg, *P);
    // An element's value (a pointer held in the array) is not its
    // address; a row is modelled as an access to all of its elements.
    if (isa<ArraySubscriptExpr>(Arg) || isa<CXXOperatorCallExpr>(Arg))
      continue;
    const VarDecl *Target = outsideObjectIn(Arg);
    if (!Target || (P && !P->Reads && !P->Writes))
      continue;
    if (P && firstWritten(E->getArg(K), Arg, Target, *P))
      continue;
    if (Pointer && !T->getPointeeType().isConstQualified() && (!P || P->Writes))
      M.Escapes.push_back({F->getNameAsString(), Target, E->getArg(K)});
    else
      M.HiddenReads.push_back({E, F->getNameAsString(), Target});
  }
  // An iterator into an outside container (`std::fill(v.begin(), v.end(), 0)`).
  for (const Expr *Arg : E->arguments()) {
    const auto *It = dyn_cast<CXXMemberCallExpr>(Arg->IgnoreParenImpCasts()->IgnoreImplicit());
    const CXXMethodDecl *Method = It ? It->getMethodDecl() : nullptr;
    if (!Method || !Method->getDeclName().isIdentifier())
      continue;
    const StringRef N = Method->getName();
    const bool Mutable = !Method->isConst() && (N == "begin" || N == "end" || N == "rbegin" || N == "rend");
    const bool Constant = N == "cbegin" || N == "cend" || (Method->isConst() && (N == "begin" || N == "end"));
    const VarDecl *Target = Mutable || Constant ? outsideObjectIn(It->getImplicitObjectArgument()) : nullptr;
    if (Target && Mutable)
      M.Escapes.push_back({F->getNameAsString(), Target, Arg});
    else if (Target)
      M.HiddenReads.push_back({E, F->getNameAsString(), Target});
  }
}

// A row (`lhs[i][j][k][1]`, a `double[5][5]`) handed to a parameter the
// callee follows: read only, and inside it where the callee's subscripts
// stay within the row's length and the callee's element type is the row's,
// or where the callee touches nothing through it.
void Collector::handedRow(const Expr *Row, const PointerParam &P) {
  if (!P.Writes)
    ConstRows.insert(Row);
  const auto *A = Ctx.getAsConstantArrayType(Row->getType());
  const bool Untouched = !P.Reads && !P.Writes;
  if (A && (Untouched || (P.Rows > 0 && P.Rows <= A->getSize().getSExtValue())))
    RowsInside.insert(Row);
}

// Outside data handed whole (`exact_solution(xi, eta, zeta, temp)`), or an
// element's address (`&Pface[ix][0][0]`), to a parameter whose first element
// every call writes: the call writes that element (`temp[0]`,
// `Pface[ix][0][0]`) wherever it runs, which the subscript test compares
// like any write (every iteration writing `temp[0]` is a proven
// dependence). The call's other elements are not modelled, so the escape
// stays (a warning where nothing is proven) but for a whole variable handed
// on by a call every iteration makes: its first element is then the same in
// every iteration, a dependence proven whatever else the call writes.
bool Collector::firstWritten(const Expr *Arg, const Expr *Bare, const VarDecl *Target, const PointerParam &P) {
  if (!P.WritesFirstAlways)
    return false;
  std::vector<const Expr *> Subscripts; // of `&X[a][b]`, outermost first
  const Expr *Root = Bare;
  if (const auto *U = dyn_cast<UnaryOperator>(Bare); U && U->getOpcode() == UO_AddrOf) {
    Root = U->getSubExpr()->IgnoreParens();
    while (const auto *S = dyn_cast<ArraySubscriptExpr>(Root)) {
      Subscripts.insert(Subscripts.begin(), S->getIdx());
      Root = S->getBase()->IgnoreParenImpCasts();
    }
    if (Subscripts.empty())
      return false;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Root);
  if (!Ref || Ref->getDecl() != Target)
    return false;
  // An element: as many subscripts as the object has dimensions.
  size_t Rank = 0;
  QualType T = Target->getType();
  for (; const auto *AT = dyn_cast_or_null<ConstantArrayType>(Ctx.getAsArrayType(T)); T = AT->getElementType())
    ++Rank;
  if (Rank == 0 && T->isPointerType())
    Rank = 1;
  if (Rank == 0 || (!Subscripts.empty() && Subscripts.size() != Rank))
    return false;
  Access A = access(Arg);
  if (A.AfterExit || llvm::any_of(A.Around, [](const Enclosing &X) { return X.K == Enclosing::Opaque; }))
    return false;
  const bool EveryIteration =
      Subscripts.empty() && llvm::all_of(A.Around, [](const Enclosing &X) { return X.K == Enclosing::Counted; });
  A.Var = Target;
  A.Name = Target->getNameAsString();
  A.Key = Target;
  A.ObjectType = Target->getType();
  A.NameLoc = Root->getBeginLoc();
  A.Element = true;
  A.Read = false;
  A.Write = true;
  A.MayWrite = false;
  if (Subscripts.empty())
    A.Subscripts.assign(Rank, nullptr);
  else
    A.Subscripts = std::move(Subscripts);
  M.Accesses.push_back(std::move(A));
  return EveryIteration;
}

// What a visible callee does that the body does not show (CallEffects.h).
void Collector::calleeEffects(const CallExpr *E, const FunctionDecl *F) {
  const CallEffects &C = Effects.of(F);
  const auto *Method = dyn_cast<CXXMethodDecl>(F);
  const bool Lambda = Method && Method->getParent()->isLambda();
  // A lambda the body defines is walked with the body; one defined before
  // the loop reaches outside data through its captures.
  const bool OuterLambda = Lambda && !inside(SM, BodyRange, Method->getParent()->getLocation());
  const std::string Name = Lambda && isa<CXXOperatorCallExpr>(E) ? sourceText(E->getArg(0), Ctx)
                                                                  : F->getNameAsString();
  const Access Where = access(E);
  const bool Unconditional = Where.Around.empty() && !Where.AfterExit;
  for (const VarDecl *G : C.GlobalsWritten)
    M.GlobalWrites.push_back({E, Name, G, Unconditional && llvm::is_contained(C.GlobalsAlwaysWritten, G)});
  for (const VarDecl *G : C.GlobalsRead)
    M.HiddenReads.push_back({E, Name, G});
  if (OuterLambda) {
    for (const VarDecl *V : C.CapturesWritten)
      M.GlobalWrites.push_back({E, Name, V});
    for (const VarDecl *V : C.CaptureElementsWritten)
      M.Escapes.push_back({Name, V, E, "written by"});
    for (const VarDecl *V : C.CapturesRead)
      M.HiddenReads.push_back({E, Name, V});
  }
  if (!C.PointeesRead.empty() && Method && !Lambda) {
    const Expr *Object = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      Object = MC->getImplicitObjectArgument();
    else if (isa<CXXOperatorCallExpr>(E) && E->getNumArgs())
      Object = E->getArg(0);
    const VarDecl *V = Object ? outsideObjectIn(Object) : nullptr;
    if (V || (Object && isa<CXXThisExpr>(Object->IgnoreParenImpCasts())))
      M.MemberPointerReads.push_back({E, Name, V, C.PointeesRead});
  }
  // A const member function that writes its object (a mutable member).
  if (C.WritesObject && Method && Method->isConst() && !Lambda) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      written(MC->getImplicitObjectArgument()->IgnoreParenImpCasts(), true, true);
    else if (isa<CXXOperatorCallExpr>(E) && E->getNumArgs())
      written(E->getArg(0)->IgnoreParenImpCasts(), true, true);
  }
  if (!C.Exit.empty())
    M.JumpsOut.push_back({E->getBeginLoc(), C.Exit + "', called by '" + Name}); // "'exit', called by 'f' leaves"
  if (C.Throws && Tries == 0)
    M.Throws.push_back(E);
  if (!C.InputOutput.empty())
    M.InputOutput.push_back({E, C.InputOutput});
  if (!C.Unseen.empty())
    M.UnseenCalls.push_back({E, Name, unseenThrough(C)});
}

namespace {

// The member an inline accessor returns an element of, as LULESH writes
// them: `T &x(Index i) { return m_x[i]; }` (or const), the subscript its one
// parameter itself, on a pointer, built-in array, std::vector or std::array
// member of `*this`. Nothing for any other function.
const FieldDecl *accessedMember(const CXXMethodDecl *M) {
  const FunctionDecl *Def = nullptr;
  if (M->isStatic() || M->isVirtual() || M->getNumParams() != 1 || !M->getBody(Def))
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Ret = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
  const Expr *E = Ret && Ret->getRetValue() ? Ret->getRetValue()->IgnoreParenImpCasts() : nullptr;
  const Expr *Base = nullptr, *Index = nullptr;
  if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(E)) {
    Base = AS->getBase();
    Index = AS->getIdx();
  } else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E);
             Op && Op->getOperator() == OO_Subscript && subscriptNamesOwnElement(Op->getArg(0)->getType())) {
    Base = Op->getArg(0);
    Index = Op->getArg(1);
  } else {
    return nullptr;
  }
  const auto *Param = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts());
  const auto *Member = dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts());
  if (!Param || Param->getDecl() != Def->getParamDecl(0) || !Member ||
      !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  const auto *F = dyn_cast<FieldDecl>(Member->getMemberDecl());
  return F && containerKind(F->getType()) ? F : nullptr;
}

} // namespace

bool Collector::accessorElement(const CXXMemberCallExpr *E, const CXXMethodDecl *Method) {
  const FieldDecl *F = Lambdas == 0 ? accessedMember(Method) : nullptr;
  const auto *Callee = dyn_cast<MemberExpr>(E->getCallee()->IgnoreParens());
  if (!F || !Callee)
    return false;
  const Expr *Object = E->getImplicitObjectArgument()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Object);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const bool OfThis = isa<CXXThisExpr>(Object);
  // Through a pointer variable, or on an object of the body's own: a call.
  if (!OfThis && (!V || Callee->isArrow() || V == M.Induction || !M.isOutside(V, SM)))
    return false;
  Access A = access(E);
  A.Var = OfThis ? nullptr : V;
  A.Name = (OfThis ? std::string() : V->getNameAsString() + ".") + F->getNameAsString();
  A.Key = OfThis ? static_cast<const ValueDecl *>(F) : V;
  A.ObjectType = F->getType();
  A.ThroughMember = true;
  A.AccessorOf = F;
  A.NameLoc = E->getBeginLoc();
  A.Element = true;
  A.AddressTaken = AddressOf.count(E);
  A.LoadedByValue = Loaded.count(E);
  A.Subscripts.push_back(E->getArg(0));
  if (const VarDecl *Bound = BoundTo.lookup(E))
    ElementOf[Bound] = M.Accesses.size();
  M.Accesses.push_back(std::move(A));
  return true;
}

// A call whose result is a non-const reference or pointer used as an
// element (`v(i) = x`, `v.front() = x`, `y = v(i)`): the element it
// reaches is the callee's to say. Element accessors of the standard
// containers (`operator[]`, `at`) are modelled as subscripts.
void Collector::returnedReference(const CallExpr *E, const FunctionDecl *F) {
  const QualType R = F->getReturnType();
  if (!(R->isLValueReferenceType() || R->isPointerType()) || R->getPointeeType().isConstQualified())
    return;
  // A free function returning a pointer (`memcpy`, `std::copy`) returns
  // one of its arguments, which the call already passed on.
  if (R->isPointerType() && !isa<CXXMethodDecl>(F))
    return;
  // A subscript of a container that names its own element is modelled as
  // one (BodyModel.cpp); any other class's operator[] returns what it likes.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && ((Op->getOperator() == OO_Subscript && subscriptNamesOwnElement(Op->getArg(0)->getType())) ||
             insertsKey(Op) || Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
             Op->getOperator() == OO_MinusMinus))
    return;
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  if (F->getDeclName().isIdentifier() && F->getName() == "at" && MC &&
      subscriptNamesOwnElement(MC->getImplicitObjectArgument()->getType()))
    return;
  if (F->getDeclName().isIdentifier() && (F->getName() == "data" || F->getName() == "begin" || F->getName() == "end"))
    return;
  const Expr *Object = nullptr;
  if (MC)
    Object = MC->getImplicitObjectArgument();
  else if (isa<CXXOperatorCallExpr>(E) && E->getNumArgs())
    Object = E->getArg(0);
  const VarDecl *V = Object ? outsideObjectIn(Object) : nullptr;
  if (Object && !V && !isa<CXXThisExpr>(Object->IgnoreParenImpCasts()))
    return; // called on an object of the body's own
  // A returned pointer may be written through wherever it goes.
  const bool Write = WriteTargets.count(E) || AddressOf.count(E) || R->isPointerType();
  M.ReturnedReferences.push_back({E, isa<CXXOperatorCallExpr>(E) && V ? V->getNameAsString() + "(...)"
                                                                      : F->getNameAsString(),
                                  V, Write});
}

} // namespace gpuautopar::bodymodel
