// One OpenMP or OpenACC directive's clauses translated into gpu_autopar's
// (the table of docs/migration.md): each clause carries over, is ignored
// with a remark saying why that changes nothing, or is an error at the clause.
#include "ForeignDirectives.h"
#include "gpuautopar/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cctype>

namespace gpuautopar::foreign {

using clang::SourceLocation;

// Splits `Toks` at the top-level occurrences of `Sep`.
std::vector<Tokens> splitTopLevel(const Tokens &Toks, llvm::StringRef Sep) {
  std::vector<Tokens> Parts(1);
  int Depth = 0;
  for (const ClauseToken &T : Toks) {
    if (T.Spelling == "(" || T.Spelling == "[" || T.Spelling == "{")
      ++Depth;
    else if (T.Spelling == ")" || T.Spelling == "]" || T.Spelling == "}")
      --Depth;
    if (Depth == 0 && T.Spelling == Sep) {
      Parts.emplace_back();
      continue;
    }
    Parts.back().push_back(T);
  }
  return Parts;
}

// Turns the clauses of one accepted loop directive into gpu_autopar clause

namespace {

// OpenACC's `present`, OpenMP's `map(present, ...)`: data an enclosing region
// holds is used in place anyway; data none holds, the loop maps itself (where
// OpenACC would stop with an error).
const char *const PresentWhy = "data a region holds is used where it is; data none holds, each loop maps itself";

class Translator {
public:
  Translator(AnnotationDialect D, DirectiveKind Kind, std::string Directive, clang::DiagnosticsEngine &Diags)
      : D(D), Kind(Kind), Directive(std::move(Directive)), Diags(Diags) {}

  bool Ok = true;
  Tokens Out;

  void clause(const ForeignClause &C) {
    if (Kind == DirectiveKind::Data || Kind == DirectiveKind::EnterData || Kind == DirectiveKind::ExitData)
      return dataClause(C);
    if (Kind == DirectiveKind::Update)
      return updateClause(C);
    const bool Omp = D == AnnotationDialect::OpenMP;
    llvm::StringRef N = C.Name;
    if (N == "private" || N == "firstprivate")
      return list(C, N);
    if (N == "lastprivate" && Omp) {
      if (!C.Args.empty() && C.Args[0].Spelling == "conditional")
        return unsupported(C, "lastprivate(conditional: ...) keeps the last value actually assigned, which "
                              "gpu-autopar does not track");
      return list(C, N);
    }
    if (N == "reduction")
      return reduction(C);
    if (N == "collapse")
      return collapse(C);
    if (N == "schedule" && Omp)
      return schedule(C);
    if (mapClause(C))
      return;
    if (const char *Why = ignoredBecause(C))
      return ignored(C, Why);
    if (Omp && N == "default" && !C.Args.empty() &&
        (C.Args[0].Spelling == "shared" || C.Args[0].Spelling == "none"))
      return ignored(C, "the analysis finds every variable the loop uses; variables are shared unless a clause "
                        "says otherwise");
    if (!Omp && N == "default") {
      if (!C.Args.empty() && C.Args[0].Spelling == "none")
        return ignored(C, "the analysis finds every variable the loop uses");
      if (!C.Args.empty() && C.Args[0].Spelling == "present")
        return ignored(C, PresentWhy);
      return unsupported(C, "only default(none) and default(present) carry over");
    }
    if (!Omp && (N == "independent" || N == "auto")) {
      // independent: what the annotation itself says; auto: parallel only
      // where proven (Annotation::ProofRequiredBy). OpenACC allows one of
      // them (or seq) per loop.
      if (!LoopIndependence.empty() && LoopIndependence != N)
        return unsupported(C, "'auto' and 'independent' contradict each other; OpenACC allows only one of them");
      LoopIndependence = N.str();
      return;
    }
    unsupported(C, unsupportedBecause(N));
  }

private:
  // `map(...)` (OpenMP) or `copy`/`copyin`/`copyout`/`create` (OpenACC),
  // translated; false for any other clause.
  bool mapClause(const ForeignClause &C) {
    if (D == AnnotationDialect::OpenMP) {
      if (C.Name != "map")
        return false;
      map(C);
      return true;
    }
    if (this->Kind == DirectiveKind::ExitData && C.Name == "delete") {
      accMap(C, Finalize ? "delete" : "release");
      return true;
    }
    if (this->Kind == DirectiveKind::ExitData && C.Name == "copyout") {
      accMap(C, "from"); // with `finalize` too: the count drops to zero and the data still comes back
      return true;
    }
    llvm::StringRef Kind = llvm::StringSwitch<llvm::StringRef>(C.Name)
                               .Cases({"copy", "pcopy", "present_or_copy"}, "tofrom")
                               .Cases({"copyin", "pcopyin", "present_or_copyin"}, "to")
                               .Cases({"copyout", "pcopyout", "present_or_copyout"}, "from")
                               .Cases({"create", "pcreate", "present_or_create"}, "alloc")
                               .Default("");
    if (Kind.empty())
      return false;
    accMap(C, Kind);
    return true;
  }

  // The clauses of `omp target data` / `acc data`: maps; the rest is either
  // about where and when (ignored) or has no equivalent.
  void dataClause(const ForeignClause &C) {
    if (mapClause(C))
      return;
    llvm::StringRef N = C.Name;
    if (N == "device")
      return ignored(C, "the runtime chooses the devices");
    if (N == "async" || N == "wait" || N == "nowait" || N == "depend")
      return ignored(C, "the copies complete before the code after them runs");
    if (N == "default" && D == AnnotationDialect::OpenACC && !C.Args.empty() && C.Args[0].Spelling == "none")
      return ignored(C, "the analysis finds every variable the loops use");
    if (N == "present" && D == AnnotationDialect::OpenACC && Kind == DirectiveKind::Data)
      return ignored(C, PresentWhy);
    if (N == "finalize" && D == AnnotationDialect::OpenACC && Kind == DirectiveKind::ExitData) {
      emit("finalize", C.Loc, true); // gpu_autopar's own `exit data ... finalize`
      return;
    }
    if (N == "if")
      return unsupported(C, Kind == DirectiveKind::Data ? "a region that exists only under a condition has no "
                                                          "gpu_autopar equivalent"
                                                        : "data that enters or leaves only under a condition "
                                                          "has no gpu_autopar equivalent; put the directive in "
                                                          "an 'if' statement");
    unsupported(C, unsupportedBecause(N));
  }

  // `omp target update to(...) from(...)`, `acc update device(...) self(...)`:
  // each motion clause becomes gpu_autopar's `device(...)` or `host(...)`.
  void updateClause(const ForeignClause &C) {
    const bool Omp = D == AnnotationDialect::OpenMP;
    llvm::StringRef N = C.Name;
    llvm::StringRef To = Omp ? (N == "to" ? "device" : N == "from" ? "host" : "")
                             : (N == "device" ? "device" : (N == "self" || N == "host") ? "host" : "");
    if (!To.empty()) {
      if (Omp && splitTopLevel(C.Args, ":").size() > 1)
        return unsupported(C, "motion modifiers (present, mapper, iterator) have no gpu_autopar equivalent");
      open(C, To);
      std::vector<Tokens> Items = splitTopLevel(C.Args, ",");
      for (size_t I = 0; I < Items.size(); ++I) {
        if (I)
          emit(",", C.Loc, false);
        if (!mapItem(C, Items[I], I > 0))
          return;
      }
      return close(C);
    }
    if (N == "device" && Omp)
      return ignored(C, "the runtime chooses the devices");
    if (N == "if_present" && !Omp)
      return ignored(C, "an update of data that no region maps does nothing");
    if (N == "async" || N == "wait" || (Omp && (N == "nowait" || N == "depend")))
      return ignored(C, "the update completes before the code after it runs");
    if (N == "if")
      return unsupported(C, "an update that happens only under a condition has no gpu_autopar equivalent; put "
                            "it in an 'if' statement");
    unsupported(C, unsupportedBecause(N));
  }

  // Clauses whose meaning does not change what the loop computes.
  const char *ignoredBecause(const ForeignClause &C) const {
    llvm::StringRef N = C.Name;
    if (D == AnnotationDialect::OpenMP)
      return llvm::StringSwitch<const char *>(N)
          .Cases({"num_threads", "num_teams", "thread_limit"}, "the runtime chooses the devices and threads")
          .Case("device", "the runtime chooses the devices; devices(n) limits how many")
          .Case("nowait", "the rewritten loop returns once every iteration has run")
          .Case("depend", "the rewritten loop runs when the code before it has run and returns once every "
                          "iteration has run, which satisfies every dependence")
          .Case("shared", "variables are shared unless a clause says otherwise")
          .Cases({"proc_bind", "dist_schedule", "order", "bind"}, "the runtime schedules the iterations itself")
          .Cases({"simdlen", "safelen", "aligned", "nontemporal"}, "a vectorisation hint; the compiler decides")
          .Case("allocate", "it chooses where private copies live; the runtime allocates them itself")
          .Default(nullptr);
    return llvm::StringSwitch<const char *>(N)
        .Cases({"num_gangs", "num_workers", "vector_length", "gang", "worker", "vector"},
               "the runtime chooses the devices and the launch shape")
        .Cases({"async", "wait"}, "the rewritten loop returns once every iteration has run")
        .Case("present", PresentWhy)
        .Case("tile", "tiles order the iterations of the nest, they do not change what each computes; the loop's "
                      "iterations are shared out untiled")
        .Default(nullptr);
  }

  static const char *unsupportedBecause(llvm::StringRef N) {
    return llvm::StringSwitch<const char *>(N)
        .Case("if", "a loop that runs in parallel only under a condition has no gpu_autopar equivalent")
        .Case("linear", "compute the variable from the induction variable instead")
        .Case("ordered", "ordered regions run in iteration order, which a gpu_autopar loop does not")
        .Case("seq", "it declares the loop sequential")
        .Cases({"copyin", "copyprivate"}, "threadprivate variables have no gpu_autopar equivalent")
        .Cases({"is_device_ptr", "has_device_addr", "use_device_ptr", "use_device_addr", "deviceptr", "no_create",
                "attach", "detach", "use_device", "defaultmap"},
               "device addresses and presence have no gpu_autopar equivalent (a '#pragma gpu_autopar data' "
               "region keeps data on the devices across loops)")
        .Case("default", "only default(shared) and default(none) carry over")
        .Default("gpu-autopar has no equivalent");
  }

  void unsupported(const ForeignClause &C, const char *Why) {
    report(Diags, Diag::ForeignClauseUnsupported, C.Loc) << C.Name << Directive << Why;
    noted(C, Why);
  }
  void noted(const ForeignClause &C, const char *Why) {
    if (Ok)
      Unsupported = "'" + C.Name.str() + "': " + Why;
    Ok = false;
  }
  void ignored(const ForeignClause &C, const char *Why) {
    report(Diags, Diag::ForeignClauseIgnored, C.Loc) << C.Name << Why;
  }

  void emit(llvm::StringRef S, SourceLocation Loc, bool Space) {
    Out.push_back({S.str(), Loc, Space, !S.empty() && std::isdigit((unsigned char)S[0])});
  }
  // An expression or name as the user wrote it; its first token follows
  // whatever came before without (or, if `Space`, with) a blank.
  void copy(const Tokens &Toks, bool Space) {
    for (size_t I = 0; I < Toks.size(); ++I) {
      Out.push_back(Toks[I]);
      if (I == 0)
        Out.back().LeadingSpace = Space;
    }
  }
  void open(const ForeignClause &C, llvm::StringRef Name) {
    emit(Name, C.Loc, true);
    emit("(", C.Loc, false);
  }
  void close(const ForeignClause &C) { emit(")", C.Loc, false); }
  // `a, b, c`.
  void items(const std::vector<Tokens> &Items) {
    for (size_t I = 0; I < Items.size(); ++I) {
      if (I)
        emit(",", Items[I].empty() ? SourceLocation() : Items[I][0].Loc, false);
      copy(Items[I], I > 0);
    }
  }

  void list(const ForeignClause &C, llvm::StringRef Name) {
    open(C, Name);
    items(splitTopLevel(C.Args, ","));
    close(C);
  }

  void reduction(const ForeignClause &C) {
    std::vector<Tokens> Parts = splitTopLevel(C.Args, ":");
    if (Parts.size() != 2) // let the gpu_autopar parser say what is missing
      return list(C, "reduction");
    Tokens Op = Parts[0];
    if (std::vector<Tokens> M = splitTopLevel(Op, ","); M.size() == 2) {
      llvm::StringRef Modifier = M[0].empty() ? "" : llvm::StringRef(M[0][0].Spelling);
      if (Modifier != "default")
        return unsupported(C, Modifier == "inscan" ? "scans have no gpu_autopar equivalent"
                                                   : "only the 'default' reduction modifier carries over");
      Op = M[1];
    }
    for (const ClauseToken &T : Parts[1])
      if (T.Spelling == "[")
        return unsupported(C, "reductions over array sections are not supported; reduce into a scalar");
    open(C, "reduction");
    if (Op.size() == 1 && Op[0].Spelling == "-")
      emit("+", Op[0].Loc, false); // OpenMP combines '-' partials by adding them
    else
      copy(Op, false);
    emit(":", C.Loc, false);
    std::vector<Tokens> Vars = splitTopLevel(Parts[1], ",");
    if (!Vars.empty() && !Vars[0].empty())
      Vars[0][0].LeadingSpace = true;
    for (size_t I = 0; I < Vars.size(); ++I) {
      if (I)
        emit(",", Vars[I].empty() ? C.Loc : Vars[I][0].Loc, false);
      copy(Vars[I], true);
    }
    close(C);
  }

  // collapse(n) means what gpu_autopar's collapse(n) means (OpenMP's
  // meaning); its analysis checks the nest. OpenACC's `force:` collapses
  // loops that are not perfectly nested, which gpu_autopar does not.
  void collapse(const ForeignClause &C) {
    if (C.Args.size() == 1 && C.Args[0].Spelling == "1")
      return; // the annotated loop alone: gpu_autopar's meaning
    if (splitTopLevel(C.Args, ":").size() > 1)
      return unsupported(C, "collapse(force: n) also collapses loops that are not perfectly nested; gpu-autopar "
                            "collapses perfect nests only: write collapse(n)");
    list(C, "collapse");
  }

  void schedule(const ForeignClause &C) {
    std::vector<Tokens> Parts = splitTopLevel(C.Args, ":");
    Tokens Rest = Parts.back();
    if (Parts.size() == 2)
      for (const Tokens &M : splitTopLevel(Parts[0], ","))
        if (!M.empty())
          report(Diags, Diag::ForeignClauseIgnored, M[0].Loc)
              << M[0].Spelling << "a schedule modifier; the runtime orders the chunks itself";
    std::vector<Tokens> KindChunk = splitTopLevel(Rest, ",");
    llvm::StringRef Kind = KindChunk[0].size() == 1 ? llvm::StringRef(KindChunk[0][0].Spelling) : "";
    if (Kind == "auto" || Kind == "runtime") {
      report(Diags, Diag::ForeignClauseIgnored, C.Loc)
          << ("schedule(" + Kind.str() + ")")
          << "gpu-autopar's own default, 'adaptive', balances the iterations by measured device speed";
      return;
    }
    open(C, "schedule");
    copy(KindChunk[0], false);
    for (size_t I = 1; I < KindChunk.size(); ++I) {
      emit(",", C.Loc, false);
      copy(KindChunk[I], true);
    }
    close(C);
  }

  // `x`, `x[lo:len]`, `x[:len]`: one-dimensional sections of a variable.
  bool mapItem(const ForeignClause &C, const Tokens &Item, bool Space) {
    auto bad = [&](const char *Why) {
      report(Diags, Diag::ForeignClauseUnsupported, Item.empty() ? C.Loc : Item[0].Loc)
          << C.Name << Directive << Why;
      noted(C, Why);
      return false;
    };
    if (Item.empty() || !isWord(Item[0].Spelling))
      return bad("each item must name a variable, optionally with one section var[lo:len]");
    if (Item.size() == 1) {
      copy(Item, Space);
      return true;
    }
    if (Item[1].Spelling != "[" || Item.back().Spelling != "]")
      return bad("each item must name a variable, optionally with one section var[lo:len]");
    Tokens Inside(Item.begin() + 2, Item.end() - 1);
    std::vector<Tokens> Bounds = splitTopLevel(Inside, ":");
    for (const ClauseToken &T : Inside)
      if (T.Spelling == "[")
        return bad("sections of more than one dimension are not supported; map the whole variable");
    if (Bounds.size() != 2)
      return bad("a section needs the form var[lo:len]");
    if (Bounds[1].empty())
      return bad("a section needs its length: var[lo:len]");
    copy({Item[0]}, Space);
    emit("[", Item[1].Loc, false);
    if (Bounds[0].empty())
      emit("0", Item[1].Loc, false);
    else
      copy(Bounds[0], false);
    emit(":", Item[1].Loc, false);
    copy(Bounds[1], false);
    emit("]", Item.back().Loc, false);
    return true;
  }

  // `s.x[:n]`, `p->x[0:n]`, `s.v`: a member, or a section of one.
  static bool isMember(const Tokens &Item) {
    for (const ClauseToken &T : Item) {
      if (T.Spelling == "[")
        return false;
      if (T.Spelling == "." || T.Spelling == "->")
        return true;
    }
    return false;
  }
  static std::string spelled(const Tokens &Item) {
    std::string S;
    for (const ClauseToken &T : Item)
      S += T.Spelling;
    return S;
  }

  void mapItems(const ForeignClause &C, llvm::StringRef Kind, const Tokens &List) {
    std::vector<Tokens> Items = splitTopLevel(List, ",");
    // A variable may be both mapped and reduced (OpenMP 5.0, BabelStream's
    // dot): the reduction brings its result back.
    llvm::erase_if(Items, [&](const Tokens &Item) {
      if (isMember(Item)) {
        report(Diags, Diag::ForeignClauseIgnored, Item[0].Loc)
            << (C.Name + "(" + Kind + ": " + spelled(Item) + ")").str()
            << "gpu-autopar maps variables, not members; each loop maps the section of the member it uses";
        return true;
      }
      if (Item.size() != 1 || !llvm::is_contained(ReductionVars, Item[0].Spelling))
        return false;
      report(Diags, Diag::ForeignClauseIgnored, Item[0].Loc)
          << (C.Name + "(" + Kind + ": " + Item[0].Spelling + ")").str()
          << "a reduction(...) clause names the variable too, and the reduction brings its result back";
      return true;
    });
    if (Items.empty())
      return;
    open(C, "map");
    emit(Kind, C.Loc, false);
    emit(":", C.Loc, false);
    for (size_t I = 0; I < Items.size(); ++I) {
      if (I)
        emit(",", C.Loc, false);
      if (!mapItem(C, Items[I], true))
        return;
    }
    close(C);
  }

  void map(const ForeignClause &C) {
    std::vector<Tokens> Parts = splitTopLevel(C.Args, ":");
    std::string Kind = "tofrom";
    if (Parts.size() == 2) {
      std::vector<Tokens> Mods = splitTopLevel(Parts[0], ",");
      for (size_t I = 0; I < Mods.size(); ++I) {
        llvm::StringRef M = Mods[I].empty() ? "" : llvm::StringRef(Mods[I][0].Spelling);
        const bool Last = I + 1 == Mods.size();
        const bool ExitType = this->Kind == DirectiveKind::ExitData && (M == "release" || M == "delete");
        if (Last && (M == "to" || M == "from" || M == "tofrom" || M == "alloc" || ExitType)) {
          Kind = M.str();
        } else if (M == "always" || M == "close" || M == "present") {
          report(Diags, Diag::ForeignClauseIgnored, Mods[I][0].Loc)
              << M
              << (M == "always"    ? "a map modifier; data already present is not copied again: use 'target update' "
                                     "where the copy matters"
                  : M == "present" ? PresentWhy
                                   : "a map modifier; every chunk's data is copied where it runs");
        } else {
          return unsupported(C, M == "release" || M == "delete"
                                    ? "release and delete belong on 'target exit data'"
                                    : "only the map types to, from, tofrom and alloc and the modifiers always, "
                                      "close and present carry over");
        }
      }
    } else if (Parts.size() > 2) {
      return unsupported(C, "only the map types to, from, tofrom and alloc carry over");
    }
    mapItems(C, Kind, Parts.back());
  }

  void accMap(const ForeignClause &C, llvm::StringRef Kind) {
    std::vector<Tokens> Parts = splitTopLevel(C.Args, ":");
    if (Parts.size() == 2) {
      llvm::StringRef M = Parts[0].size() == 1 ? llvm::StringRef(Parts[0][0].Spelling) : "";
      if (M != "readonly")
        return unsupported(C, "only the 'readonly' modifier carries over");
    }
    mapItems(C, Kind, Parts.back());
  }

public:
  bool Finalize = false; // OpenACC's `exit data ... finalize`: every reference goes
  std::vector<std::string> ReductionVars; // the variables of the directive's reduction clauses
  std::string LoopIndependence; // OpenACC: "independent", "auto" or empty, as the loop's clauses say
  std::string Unsupported;      // the first clause that does not carry over, and why
private:
  AnnotationDialect D;
  DirectiveKind Kind;
  std::string Directive;
  clang::DiagnosticsEngine &Diags;
};


} // namespace

TranslatedClauses translateClauses(AnnotationDialect D, DirectiveKind Kind, const std::string &Directive,
                                   const std::vector<ForeignClause> &Clauses, clang::DiagnosticsEngine &Diags) {
  Translator T(D, Kind, Directive, Diags);
  T.Finalize = Kind == DirectiveKind::ExitData &&
               llvm::any_of(Clauses, [](const ForeignClause &C) {
                 return C.Name == "finalize" ||
                        llvm::any_of(C.Args, [](const ClauseToken &X) { return X.Spelling == "finalize"; });
               });
  for (const ForeignClause &C : Clauses)
    if (C.Name == "reduction")
      for (const Tokens &Var : splitTopLevel(splitTopLevel(C.Args, ":").back(), ","))
        if (Var.size() == 1)
          T.ReductionVars.push_back(Var[0].Spelling);
  for (const ForeignClause &C : Clauses)
    T.clause(C);
  return {std::move(T.Out), T.Ok, std::move(T.LoopIndependence), std::move(T.Unsupported)};
}

} // namespace gpuautopar::foreign
