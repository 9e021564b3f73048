#include "gpuautopar/ForeignPragmas.h"
#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cctype>
#include <memory>

namespace gpuautopar {
namespace {

using clang::SourceLocation;
using Tokens = std::vector<ClauseToken>;

const char *prefix(AnnotationDialect D) { return D == AnnotationDialect::OpenMP ? "omp" : "acc"; }

// The words that name directives (as opposed to clauses) in each dialect.
bool isDirectiveWord(AnnotationDialect D, llvm::StringRef W) {
  if (D == AnnotationDialect::OpenMP)
    return llvm::StringSwitch<bool>(W)
        .Cases({"parallel", "for", "simd", "target", "teams", "distribute", "loop", "taskloop", "sections",
                "section", "single", "master", "masked", "task", "taskwait", "taskyield", "taskgroup", "barrier"},
               true)
        .Cases({"critical", "atomic", "flush", "ordered", "threadprivate", "declare", "end", "requires", "data",
                "enter", "exit", "update", "cancel", "cancellation", "point", "scan", "tile", "unroll", "scope"},
               true)
        .Cases({"interop", "dispatch", "allocate", "assume", "assumes", "metadirective", "nothing", "error",
                "depobj", "begin", "variant", "workshare", "mapper"},
               true)
        .Default(false);
  return llvm::StringSwitch<bool>(W)
      // `wait` names a directive only as the first word (always one):
      // `parallel loop wait` is a loop with a wait clause.
      .Cases({"parallel", "kernels", "serial", "loop", "data", "enter", "exit", "update", "host_data", "declare",
              "init", "shutdown", "set", "routine", "atomic", "cache"},
             true)
      .Default(false);
}

// Directives that annotate the loop after them.
bool isLoopDirective(AnnotationDialect D, llvm::StringRef Words) {
  if (D == AnnotationDialect::OpenACC)
    return Words == "parallel loop" || Words == "kernels loop" || Words == "loop";
  return llvm::StringSwitch<bool>(Words)
      .Cases({"for", "for simd", "parallel for", "parallel for simd", "distribute", "distribute simd",
              "distribute parallel for", "distribute parallel for simd", "teams distribute"},
             true)
      .Cases({"teams distribute simd", "teams distribute parallel for", "teams distribute parallel for simd",
              "target parallel for", "target parallel for simd", "target teams distribute",
              "target teams distribute simd", "target teams distribute parallel for",
              "target teams distribute parallel for simd"},
             true)
      .Cases({"loop", "parallel loop", "teams loop", "target teams loop", "target parallel loop"}, true)
      .Default(false);
}

bool isDataDirective(AnnotationDialect D, llvm::StringRef Words) {
  if (D == AnnotationDialect::OpenMP)
    return Words == "target data" || Words == "target enter data" || Words == "target exit data" ||
           Words == "target update";
  return Words == "data" || Words == "enter data" || Words == "exit data" || Words == "update" ||
         Words == "host_data" || Words == "declare";
}

// The data directives that become gpu_autopar's own (a region before a
// block, an update, enter and exit data), as a DirectiveKind; For for the
// others (host_data, declare), which are refused.
DirectiveKind translatedDataDirective(llvm::StringRef Words) {
  return llvm::StringSwitch<DirectiveKind>(Words)
      .Cases({"target data", "data"}, DirectiveKind::Data)
      .Cases({"target update", "update"}, DirectiveKind::Update)
      .Cases({"target enter data", "enter data"}, DirectiveKind::EnterData)
      .Cases({"target exit data", "exit data"}, DirectiveKind::ExitData)
      .Default(DirectiveKind::For);
}

// Directives that cover no statement: declarations and executable
// directives that stand alone (everything else is a construct over the
// statement after it).
bool isStandaloneDirective(AnnotationDialect D, llvm::StringRef Words) {
  llvm::StringRef First = Words.split(' ').first;
  if (D == AnnotationDialect::OpenMP)
    return llvm::StringSwitch<bool>(First)
        .Cases({"barrier", "taskwait", "taskyield", "flush", "cancel", "cancellation", "depobj", "scan",
                "threadprivate", "declare", "requires", "allocate", "error", "nothing", "assumes", "begin", "end"},
               true)
        .Default(false);
  return llvm::StringSwitch<bool>(First)
      .Cases({"wait", "init", "shutdown", "set", "routine", "cache", "declare", "update", "enter", "exit"}, true)
      .Default(false);
}

// Why a directive that is neither a loop nor a data directive is left as written.
const char *refusalReason(AnnotationDialect D, llvm::StringRef Words) {
  llvm::SmallVector<llvm::StringRef, 6> W;
  Words.split(W, ' ');
  auto has = [&](llvm::StringRef X) { return llvm::is_contained(W, X); };
  if (has("atomic"))
    return "gpu-autopar has no atomic updates; write the update as a reduction(...) or let iterations write "
           "distinct elements";
  if (has("critical"))
    return "the iterations of a gpu_autopar loop cannot synchronise; use a reduction(...) for what the critical "
           "section accumulates";
  if (has("sections") || has("section"))
    return "sections run different code side by side; gpu-autopar parallelizes loops only";
  if (has("task") || has("taskloop") || has("taskwait") || has("taskgroup") || has("taskyield"))
    return "tasks have no gpu_autopar equivalent; gpu-autopar parallelizes loops only";
  if (has("barrier") || has("single") || has("master") || has("masked") || has("ordered") || has("flush"))
    return "synchronisation inside a parallel region has no gpu_autopar equivalent";
  if (D == AnnotationDialect::OpenMP && Words == "simd")
    return "'simd' alone promises SIMD lanes, not independent iterations ('parallel for simd' does); it stays a "
           "vectorisation hint for the compiler";
  if (D == AnnotationDialect::OpenACC && Words == "serial loop")
    return "a serial loop runs on one gang, in order: its iterations are not declared independent";
  if (W.size() == 1 || (W.size() == 2 && (W[0] == "target" || W[0] == "parallel")))
    if (has("parallel") || has("teams") || has("target") || has("kernels") || has("serial"))
      return D == AnnotationDialect::OpenMP
                 ? "a parallel region is not a single loop; annotate each of its loops instead "
                   "('#pragma omp parallel for')"
                 : "a compute region is not a single loop; annotate each of its loops instead "
                   "('#pragma acc parallel loop')";
  return D == AnnotationDialect::OpenMP ? "only loop constructs ('parallel for', 'target teams distribute parallel "
                                          "for', ...) become gpu_autopar annotations"
                                        : "only loop constructs ('parallel loop', 'kernels loop', 'loop') become "
                                          "gpu_autopar annotations";
}

struct ForeignClause {
  llvm::StringRef Name;
  SourceLocation Loc;
  Tokens Args; // between the parentheses
  bool HasArgs = false;
};

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
// tokens (the table of docs/migration.md).
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
      return unsupported(C, "default(present) has no gpu_autopar equivalent; each loop maps its own data, or a "
                            "'#pragma gpu_autopar data' region keeps it on the devices");
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
          .Default(nullptr);
    return llvm::StringSwitch<const char *>(N)
        .Cases({"num_gangs", "num_workers", "vector_length", "gang", "worker", "vector"},
               "the runtime chooses the devices and the launch shape")
        .Cases({"async", "wait"}, "the rewritten loop returns once every iteration has run")
        .Default(nullptr);
  }

  static const char *unsupportedBecause(llvm::StringRef N) {
    return llvm::StringSwitch<const char *>(N)
        .Case("if", "a loop that runs in parallel only under a condition has no gpu_autopar equivalent")
        .Case("linear", "compute the variable from the induction variable instead")
        .Case("ordered", "ordered regions run in iteration order, which a gpu_autopar loop does not")
        .Case("seq", "it declares the loop sequential")
        .Cases({"copyin", "copyprivate"}, "threadprivate variables have no gpu_autopar equivalent")
        .Cases({"is_device_ptr", "has_device_addr", "use_device_ptr", "use_device_addr", "deviceptr", "present",
                "no_create", "attach", "detach", "use_device", "defaultmap"},
               "device addresses and presence have no gpu_autopar equivalent (a '#pragma gpu_autopar data' "
               "region keeps data on the devices across loops)")
        .Case("default", "only default(shared) and default(none) carry over")
        .Case("tile", "gpu-autopar does not tile loops")
        .Default("gpu-autopar has no equivalent");
  }

  void unsupported(const ForeignClause &C, const char *Why) {
    report(Diags, Diag::ForeignClauseUnsupported, C.Loc) << C.Name << Directive << Why;
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
      Ok = false;
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

  void mapItems(const ForeignClause &C, llvm::StringRef Kind, const Tokens &List) {
    std::vector<Tokens> Items = splitTopLevel(List, ",");
    // A variable may be both mapped and reduced (OpenMP 5.0, BabelStream's
    // dot): the reduction brings its result back.
    llvm::erase_if(Items, [&](const Tokens &Item) {
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
        } else if (M == "always" || M == "close") {
          report(Diags, Diag::ForeignClauseIgnored, Mods[I][0].Loc)
              << M
              << (M == "always" ? "a map modifier; data already present is not copied again: use 'target update' "
                                  "where the copy matters"
                                : "a map modifier; every chunk's data is copied where it runs");
        } else {
          return unsupported(C, M == "release" || M == "delete"
                                    ? "release and delete belong on 'target exit data'"
                                    : "only the map types to, from, tofrom and alloc and the modifiers always "
                                      "and close carry over");
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
private:
  AnnotationDialect D;
  DirectiveKind Kind;
  std::string Directive;
  clang::DiagnosticsEngine &Diags;
};

} // namespace

ForeignPragmaHandler::ForeignPragmaHandler(AnnotationDialect Dialect, DirectiveScope *Scope)
    : clang::PragmaHandler(prefix(Dialect)), Dialect(Dialect), Scope(Scope) {}

void ForeignPragmaHandler::install(clang::Preprocessor &PP) {
  // The parser's handler is found by its name, which is ours.
  PP.RemovePragmaHandler(this);
  PP.AddPragmaHandler(this);
}

void ForeignPragmaHandler::HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                                        clang::Token &) {
  std::vector<clang::Token> Raw;
  clang::Token Tok;
  for (PP.Lex(Tok); Tok.isNot(clang::tok::eod); PP.Lex(Tok))
    Raw.push_back(Tok);
  const clang::SourceManager &SM = PP.getSourceManager();
  if (!SM.isInMainFile(SM.getExpansionLoc(Introducer.Loc)) || Raw.empty())
    return; // headers are rewritten by their own run of the tool
  clang::DiagnosticsEngine &Diags = PP.getDiagnostics();
  Tokens Toks = clauseTokens(Raw, SM, PP.getLangOpts());

  // The directive's words, then its clauses.
  size_t Pos = 0;
  std::string Words;
  while (Pos < Toks.size() && isWord(Toks[Pos].Spelling) &&
         (Pos == 0 || (isDirectiveWord(Dialect, Toks[Pos].Spelling) &&
                       !(Pos + 1 < Toks.size() && Toks[Pos + 1].Spelling == "(")))) {
    Words += (Words.empty() ? "" : " ") + Toks[Pos].Spelling;
    ++Pos;
  }
  const std::string Directive = std::string(prefix(Dialect)) + " " + Words;
  const unsigned ErrorsBefore = Diags.getNumErrors();
  auto counted = [&] { Errors += Diags.getNumErrors() - ErrorsBefore; };

  const DirectiveKind Kind =
      isDataDirective(Dialect, Words) ? translatedDataDirective(Words) : DirectiveKind::For;
  // What gpu-autopar does not translate stays in the file as written; the
  // driver says so at the directive (it knows the code the construct covers).
  if (Kind == DirectiveKind::For && (isDataDirective(Dialect, Words) || !isLoopDirective(Dialect, Words))) {
    const bool Data = isDataDirective(Dialect, Words);
    Left.push_back({Introducer.Loc, Toks.back().Loc, Directive,
                    Data ? "it has no gpu_autopar equivalent" : refusalReason(Dialect, Words),
                    !isStandaloneDirective(Dialect, Words)});
    return;
  }

  Translator T(Dialect, Kind, Directive, Diags);
  T.Finalize = Kind == DirectiveKind::ExitData &&
               llvm::any_of(llvm::ArrayRef(Toks).drop_front(Pos), [](const ClauseToken &X) {
                 return X.Spelling == "finalize";
               });
  std::vector<ForeignClause> Clauses;
  while (Pos < Toks.size()) {
    if (Toks[Pos].Spelling == ",") {
      ++Pos;
      continue;
    }
    ForeignClause C;
    C.Name = Toks[Pos].Spelling;
    C.Loc = Toks[Pos].Loc;
    ++Pos;
    if (Pos < Toks.size() && Toks[Pos].Spelling == "(") {
      C.HasArgs = true;
      int Depth = 1;
      for (++Pos; Pos < Toks.size(); ++Pos) {
        llvm::StringRef S = Toks[Pos].Spelling;
        if (S == "(")
          ++Depth;
        else if (S == ")" && --Depth == 0)
          break;
        C.Args.push_back(Toks[Pos]);
      }
      ++Pos; // the ')'
    }
    Clauses.push_back(std::move(C));
  }
  for (const ForeignClause &C : Clauses)
    if (C.Name == "reduction")
      for (const Tokens &Var : splitTopLevel(splitTopLevel(C.Args, ":").back(), ","))
        if (Var.size() == 1)
          T.ReductionVars.push_back(Var[0].Spelling);
  for (const ForeignClause &C : Clauses)
    T.clause(C);

  Annotation A;
  A.Kind = Kind;
  A.HashLoc = Introducer.Loc;
  A.DirectiveLoc = Toks.front().Loc;
  A.EndLoc = Toks.back().Loc;
  A.Dialect = Dialect;
  A.Directive = Directive;
  A.Translated = std::move(T.Out);
  A.TranslationOk = T.Ok;
  // OpenACC runs a `kernels loop` (whose loops are `auto` by default) and an
  // `auto` loop in parallel only where the compiler proves it independent;
  // `independent` is the user's promise, as `parallel loop` and `loop` are.
  if (Dialect == AnnotationDialect::OpenACC && T.LoopIndependence != "independent") {
    if (T.LoopIndependence == "auto")
      A.ProofRequiredBy = "auto";
    else if (Words == "kernels loop")
      A.ProofRequiredBy = "kernels loop";
  }
  if (Scope)
    Scope->lookUpLater(A);
  Found.push_back(std::move(A));
  counted();
}

namespace {

// `Toks` without `Var` in its private(...) clauses (a clause left empty
// goes): OpenMP allows the loop variable there, gpu_autopar does not.
std::vector<ClauseToken> withoutPrivate(const std::vector<ClauseToken> &Toks, llvm::StringRef Var) {
  std::vector<ClauseToken> Out;
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (Var.empty() || Toks[I].Spelling != "private" || I + 1 >= Toks.size() || Toks[I + 1].Spelling != "(") {
      Out.push_back(Toks[I]);
      continue;
    }
    size_t Close = I + 2;
    while (Close < Toks.size() && Toks[Close].Spelling != ")")
      ++Close;
    std::vector<ClauseToken> Kept;
    for (size_t J = I + 2; J < Close; ++J)
      if (Toks[J].Spelling != "," && Toks[J].Spelling != Var) {
        if (!Kept.empty())
          Kept.push_back({",", Toks[J].Loc, false, false});
        Kept.push_back(Toks[J]);
        Kept.back().LeadingSpace = Kept.size() > 1;
      }
    if (!Kept.empty()) {
      Out.push_back(Toks[I]);
      Out.push_back(Toks[I + 1]);
      Out.insert(Out.end(), Kept.begin(), Kept.end());
      if (Close < Toks.size())
        Out.push_back(Toks[Close]);
    }
    I = Close;
  }
  return Out;
}

} // namespace

std::string convertedPragma(const Annotation &A, llvm::StringRef LoopVariable) {
  std::string S;
  switch (A.Kind) {
  case DirectiveKind::For: S = "#pragma gpu_autopar for"; break;
  case DirectiveKind::Data: S = "#pragma gpu_autopar data"; break;
  case DirectiveKind::Update: S = "#pragma gpu_autopar update"; break;
  case DirectiveKind::EnterData: S = "#pragma gpu_autopar enter data"; break;
  case DirectiveKind::ExitData: S = "#pragma gpu_autopar exit data"; break;
  }
  for (const ClauseToken &T : withoutPrivate(A.Translated, LoopVariable))
    S += (T.LeadingSpace ? " " : "") + T.Spelling;
  return S;
}

} // namespace gpuautopar
