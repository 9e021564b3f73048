#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cctype>

namespace gpuautopar {
namespace {

using clang::SourceLocation;

// A recursive-descent parser over the clause tokens. Every error is reported
// once, at the token where parsing stopped, and parsing then gives up: after
// a syntax error the rest of the line is guesswork.
class Parser {
public:
  Parser(llvm::ArrayRef<ClauseToken> Toks, SourceLocation End, clang::DiagnosticsEngine &Diags, bool ExitKinds)
      : Toks(Toks), End(End), Diags(Diags), ExitKinds(ExitKinds) {}

  std::optional<ParsedClauses> run() {
    while (!atEnd()) {
      if (!clause())
        return std::nullopt;
      if (!atEnd() && peek() == ",")
        ++Pos;
    }
    if (!crossChecks())
      return std::nullopt;
    return Out;
  }

private:
  bool atEnd() const { return Pos >= Toks.size(); }
  llvm::StringRef peek() const { return atEnd() ? llvm::StringRef() : llvm::StringRef(Toks[Pos].Spelling); }
  SourceLocation loc() const { return atEnd() ? End : Toks[Pos].Loc; }

  bool expected(const std::string &What) {
    report(Diags, Diag::ExpectedInClause, loc()) << What;
    return false;
  }
  bool expect(llvm::StringRef Punct, const std::string &Context) {
    if (peek() != Punct)
      return expected("'" + Punct.str() + "' " + Context);
    ++Pos;
    return true;
  }
  bool invalid(llvm::StringRef Arg, llvm::StringRef Clause, llvm::StringRef Choices, SourceLocation At) {
    report(Diags, Diag::InvalidClauseArgument, At) << Arg << Clause << Choices;
    return false;
  }

  // Clauses that may be given once only remember where they were.
  bool once(llvm::StringRef Name, SourceLocation At) {
    auto [It, New] = Seen.try_emplace(Name, At);
    if (New)
      return true;
    report(Diags, Diag::DuplicateClause, At) << Name;
    report(Diags, Diag::NotePreviousClause, It->second) << Name;
    return false;
  }

  bool clause() {
    llvm::StringRef Name = peek();
    SourceLocation At = loc();
    if (!isWord(Name))
      return expected("a clause name");
    ++Pos;
    enum Kind {
      Reduction,
      Schedule,
      Devices,
      Slots,
      Fallback,
      MinIterations,
      Map,
      Private,
      FirstPrivate,
      LastPrivate,
      Mode,
      Collapse,
      Unknown
    };
    Kind K = llvm::StringSwitch<Kind>(Name)
                 .Case("reduction", Reduction)
                 .Case("schedule", Schedule)
                 .Case("devices", Devices)
                 .Case("slots", Slots)
                 .Case("fallback", Fallback)
                 .Case("min_iterations", MinIterations)
                 .Case("map", Map)
                 .Case("private", Private)
                 .Case("firstprivate", FirstPrivate)
                 .Case("lastprivate", LastPrivate)
                 .Case("mode", Mode)
                 .Case("collapse", Collapse)
                 .Default(Unknown);
    if (K == Unknown) {
      report(Diags, Diag::UnknownClause, At) << Name;
      return false;
    }
    const bool Repeatable = K == Reduction || K == Map || K == Private || K == FirstPrivate || K == LastPrivate;
    if (!Repeatable && !once(Name, At))
      return false;
    if (!expect("(", "after '" + Name.str() + "'"))
      return false;
    bool Ok = false;
    switch (K) {
    case Reduction: Ok = reduction(); break;
    case Schedule: Ok = schedule(); break;
    case Devices: Ok = devices(); break;
    case Slots: Ok = positiveExpression("slots", Out.Slots); break;
    case Fallback: Ok = fallback(); break;
    case MinIterations: Ok = expression("min_iterations", {")"}, Out.MinIterations); break;
    case Map: Ok = map(); break;
    case Private: Ok = variableList("private", [&](NamedVar V) { Out.Privates.push_back(std::move(V)); }); break;
    case FirstPrivate:
      Ok = variableList("firstprivate", [&](NamedVar V) { Out.FirstPrivates.push_back(std::move(V)); });
      break;
    case LastPrivate:
      Ok = variableList("lastprivate", [&](NamedVar V) { Out.LastPrivates.push_back(std::move(V)); });
      break;
    case Mode: Ok = mode(); break;
    case Collapse: Ok = collapse(); break;
    case Unknown: break;
    }
    return Ok && expect(")", "to end '" + Name.str() + "'");
  }

  // Tokens up to (not including) the first of `Stops` outside brackets.
  bool expression(llvm::StringRef Clause, std::initializer_list<llvm::StringRef> Stops, std::string &Text) {
    Text.clear();
    int Depth = 0;
    const size_t Start = Pos;
    while (!atEnd()) {
      llvm::StringRef S = peek();
      if (Depth == 0 && llvm::is_contained(Stops, S))
        break;
      if (S == "(" || S == "[" || S == "{")
        ++Depth;
      else if (S == ")" || S == "]" || S == "}") {
        if (Depth == 0)
          break; // an unbalanced closer ends the expression; the caller expects its own
        --Depth;
      }
      if (Pos > Start && Toks[Pos].LeadingSpace)
        Text += ' ';
      Text += S;
      ++Pos;
    }
    if (Text.empty())
      return expected("an expression in '" + Clause.str() + "'");
    if (Depth != 0)
      return expected("')' to end '" + Clause.str() + "'");
    return true;
  }

  // `devices(n)` and `slots(k)` count things: a literal zero or a negative
  // literal is certainly wrong; other expressions are checked by the runtime.
  bool positiveExpression(llvm::StringRef Clause, std::string &Text) {
    SourceLocation At = loc();
    if (!expression(Clause, {")"}, Text))
      return false;
    llvm::StringRef T(Text);
    unsigned long long V = 0;
    if (T.starts_with("-") || (!T.getAsInteger(0, V) && V == 0)) {
      report(Diags, Diag::NonPositiveClauseArgument, At) << Clause;
      return false;
    }
    return true;
  }

  bool devices() {
    if (peek() == "all" && Pos + 1 < Toks.size() && Toks[Pos + 1].Spelling == ")") {
      ++Pos;
      Out.Devices.clear(); // empty means all
      return true;
    }
    return positiveExpression("devices", Out.Devices);
  }

  bool variable(llvm::StringRef Clause, NamedVar &V) {
    if (atEnd() || !isWord(peek()) || Toks[Pos].IsNumber)
      return expected("a variable name in '" + Clause.str() + "'");
    V = {peek().str(), loc()};
    ++Pos;
    return true;
  }

  template <typename Fn> bool variableList(llvm::StringRef Clause, Fn Add) {
    do {
      NamedVar V;
      if (!variable(Clause, V))
        return false;
      Add(std::move(V));
    } while (peek() == "," && ++Pos);
    return true;
  }

  bool reduction() {
    SourceLocation At = loc();
    llvm::StringRef S = peek();
    std::optional<ReductionOp> Op = llvm::StringSwitch<std::optional<ReductionOp>>(S)
                                        .Case("+", ReductionOp::Plus)
                                        .Case("*", ReductionOp::Times)
                                        .Case("min", ReductionOp::Min)
                                        .Case("max", ReductionOp::Max)
                                        .Case("&", ReductionOp::BitAnd)
                                        .Case("|", ReductionOp::BitOr)
                                        .Case("^", ReductionOp::BitXor)
                                        .Case("&&", ReductionOp::LogicalAnd)
                                        .Case("||", ReductionOp::LogicalOr)
                                        .Default(std::nullopt);
    if (!Op) {
      if (atEnd() || S == ":" || S == ")")
        return expected("a reduction operator in 'reduction'");
      return invalid(S, "reduction", "one of + * min max & | ^ && ||", At);
    }
    ++Pos;
    if (!expect(":", "after the reduction operator"))
      return false;
    return variableList("reduction", [&](NamedVar V) { Out.Reductions.push_back({*Op, std::move(V)}); });
  }

  bool schedule() {
    SourceLocation At = loc();
    std::optional<ScheduleKind> K = llvm::StringSwitch<std::optional<ScheduleKind>>(peek())
                                        .Case("static", ScheduleKind::Static)
                                        .Case("dynamic", ScheduleKind::Dynamic)
                                        .Case("guided", ScheduleKind::Guided)
                                        .Case("adaptive", ScheduleKind::Adaptive)
                                        .Default(std::nullopt);
    if (!K) {
      if (atEnd() || peek() == ")" || peek() == ",")
        return expected("a schedule kind in 'schedule'");
      return invalid(peek(), "schedule", "static, dynamic, guided or adaptive", At);
    }
    ++Pos;
    Out.Schedule = K;
    if (peek() == ",") {
      ++Pos;
      return positiveExpression("schedule", Out.ScheduleChunk);
    }
    return true;
  }

  bool fallback() {
    SourceLocation At = loc();
    std::optional<FallbackKind> K = llvm::StringSwitch<std::optional<FallbackKind>>(peek())
                                        .Case("auto", FallbackKind::Auto)
                                        .Case("gpu", FallbackKind::Gpu)
                                        .Case("cpu", FallbackKind::Cpu)
                                        .Case("none", FallbackKind::None)
                                        .Default(std::nullopt);
    if (!K) {
      if (atEnd() || peek() == ")")
        return expected("a fallback policy in 'fallback'");
      return invalid(peek(), "fallback", "auto, gpu, cpu or none", At);
    }
    ++Pos;
    Out.Fallback = K;
    return true;
  }

  bool mode() {
    SourceLocation At = loc();
    std::optional<LoopMode> M = llvm::StringSwitch<std::optional<LoopMode>>(peek())
                                    .Case("kernel", LoopMode::Kernel)
                                    .Case("task", LoopMode::Task)
                                    .Case("host", LoopMode::Host)
                                    .Default(std::nullopt);
    if (!M) {
      if (atEnd() || peek() == ")")
        return expected("a mode in 'mode'");
      return invalid(peek(), "mode", "kernel, task or host", At);
    }
    ++Pos;
    Out.Mode = M;
    Out.ModeLoc = At;
    return true;
  }

  // collapse(n), as in OpenMP: n is a positive integer constant (the number
  // of loops is part of the loop's structure, known when the tool runs).
  bool collapse() {
    SourceLocation At = loc();
    unsigned long long N = 0;
    const bool Negative = peek() == "-";
    if (!Negative && (atEnd() || !Toks[Pos].IsNumber || llvm::StringRef(peek()).getAsInteger(0, N)))
      return expected("a positive integer constant in 'collapse'");
    if (Negative || N == 0) {
      report(Diags, Diag::NonPositiveClauseArgument, At) << "collapse";
      return false;
    }
    ++Pos;
    Out.Collapse = unsigned(std::min<unsigned long long>(N, 1u << 16));
    Out.CollapseLoc = At;
    return true;
  }

  // map([kind:] var[lo:len], ...); the kind defaults to tofrom, as in OpenMP.
  bool map() {
    MapKind Kind = MapKind::ToFrom;
    if (Pos + 1 < Toks.size() && Toks[Pos + 1].Spelling == ":") {
      SourceLocation At = loc();
      std::optional<MapKind> K = llvm::StringSwitch<std::optional<MapKind>>(peek())
                                     .Case("to", MapKind::To)
                                     .Case("from", MapKind::From)
                                     .Case("tofrom", MapKind::ToFrom)
                                     .Case("alloc", MapKind::Alloc)
                                     .Case("release", MapKind::Release)
                                     .Case("delete", MapKind::Delete)
                                     .Default(std::nullopt);
      if (!K || (!ExitKinds && (*K == MapKind::Release || *K == MapKind::Delete)))
        return invalid(peek(), "map", ExitKinds ? "to, from, tofrom, alloc, release or delete" : "to, from, tofrom or alloc",
                       At);
      Kind = *K;
      Pos += 2;
    }
    do {
      ParsedMap M{Kind, {}, {}, {}};
      // `this->u` and `s.p`, `o.f.data`: a member, reached by `.` after the
      // root (`->` only from `this`).
      const bool This = peek() == "this" && Pos + 1 < Toks.size() && Toks[Pos + 1].Spelling == "->";
      if (This) {
        M.Var = {"this", loc()};
        Pos += 2;
        M.Fields.emplace_back();
        NamedVar F;
        if (!variable("map", F))
          return false;
        M.Fields.back() = F.Name;
      } else if (!variable("map", M.Var)) {
        return false;
      }
      M.Written = {This ? "this->" + M.Fields.front() : M.Var.Name, M.Var.Loc};
      while (peek() == ".") {
        ++Pos;
        NamedVar F;
        if (!variable("map", F))
          return false;
        M.Fields.push_back(F.Name);
        M.Written.Name += "." + F.Name;
      }
      if (peek() == "[") {
        ++Pos;
        const std::string &Name = M.Written.Name;
        if (peek() == ":") // `p[:n]`, as OpenMP allows: from the first element
          M.Lower = "0";
        else if (!expression("map", {":"}, M.Lower))
          return false;
        if (!expect(":", "in the array section of '" + Name + "'") || !expression("map", {"]"}, M.Length) ||
            !expect("]", "to end the array section of '" + Name + "'"))
          return false;
      }
      Out.Maps.push_back(std::move(M));
    } while (peek() == "," && ++Pos);
    return true;
  }

  // A variable may have one data-sharing role (firstprivate together with
  // lastprivate is one: initialised from outside, written back at the end,
  // as in OpenMP); maps need kernel mode.
  bool crossChecks() {
    struct Role {
      const NamedVar *Var;
      const char *Clause;
    };
    std::vector<Role> Roles;
    for (const ParsedReduction &R : Out.Reductions)
      Roles.push_back({&R.Var, "reduction"});
    for (const NamedVar &V : Out.Privates)
      Roles.push_back({&V, "private"});
    for (const NamedVar &V : Out.FirstPrivates)
      Roles.push_back({&V, "firstprivate"});
    for (const NamedVar &V : Out.LastPrivates)
      Roles.push_back({&V, "lastprivate"});
    for (const ParsedMap &M : Out.Maps)
      Roles.push_back({&M.Written, "map"});
    // In the order written, so that the second mention is the one reported.
    std::stable_sort(Roles.begin(), Roles.end(), [](const Role &A, const Role &B) {
      return A.Var->Loc.getRawEncoding() < B.Var->Loc.getRawEncoding();
    });
    llvm::StringMap<const Role *> First;
    llvm::StringSet<> BothFirstAndLast;
    for (const Role &R : Roles) {
      auto [It, New] = First.try_emplace(R.Var->Name, &R);
      if (New)
        continue;
      const llvm::StringRef Before = It->second->Clause, Now = R.Clause;
      if (((Before == "firstprivate" && Now == "lastprivate") || (Before == "lastprivate" && Now == "firstprivate")) &&
          !BothFirstAndLast.count(R.Var->Name)) {
        BothFirstAndLast.insert(R.Var->Name);
        continue;
      }
      if (Before == Now)
        report(Diags, Diag::VariableTwiceInClause, R.Var->Loc) << R.Var->Name << R.Clause;
      else
        report(Diags, Diag::VariableInTwoClauses, R.Var->Loc) << R.Var->Name << Before << Now;
      report(Diags, Diag::NotePreviousClause, It->second->Var->Loc) << It->second->Clause;
      return false;
    }
    if (Out.Mode && *Out.Mode != LoopMode::Kernel && !Out.Maps.empty()) {
      std::string ModeText = std::string("mode(") + spelling(*Out.Mode) + ")";
      report(Diags, Diag::ConflictingClauses, Out.Maps.front().Var.Loc)
          << "map" << ModeText << "only kernel-mode loops move data";
      return false;
    }
    if (Out.Mode == LoopMode::Host && Out.Fallback == FallbackKind::Gpu) {
      report(Diags, Diag::ConflictingClauses, Seen.lookup("fallback"))
          << "fallback(gpu)" << "mode(host)" << "a host-mode loop runs on CPU threads only";
      return false;
    }
    return true;
  }

  llvm::ArrayRef<ClauseToken> Toks;
  SourceLocation End;
  clang::DiagnosticsEngine &Diags;
  bool ExitKinds;
  size_t Pos = 0;
  ParsedClauses Out;
  llvm::StringMap<SourceLocation> Seen;
};

} // namespace

std::vector<ClauseToken> clauseTokens(llvm::ArrayRef<clang::Token> Tokens, const clang::SourceManager &SM,
                                      const clang::LangOptions &LangOpts) {
  std::vector<ClauseToken> Out;
  Out.reserve(Tokens.size());
  for (const clang::Token &T : Tokens)
    Out.push_back({clang::Lexer::getSpelling(T, SM, LangOpts), T.getLocation(), T.hasLeadingSpace(),
                   T.is(clang::tok::numeric_constant)});
  return Out;
}

std::optional<ParsedClauses> parseClauses(llvm::ArrayRef<ClauseToken> Tokens, SourceLocation End,
                                          clang::DiagnosticsEngine &Diags, bool ExitKinds) {
  return Parser(Tokens, End, Diags, ExitKinds).run();
}

const char *spelling(ReductionOp Op) {
  switch (Op) {
  case ReductionOp::Plus: return "+";
  case ReductionOp::Times: return "*";
  case ReductionOp::Min: return "min";
  case ReductionOp::Max: return "max";
  case ReductionOp::BitAnd: return "&";
  case ReductionOp::BitOr: return "|";
  case ReductionOp::BitXor: return "^";
  case ReductionOp::LogicalAnd: return "&&";
  case ReductionOp::LogicalOr: return "||";
  }
  return "?";
}

const char *spelling(MapKind K) {
  switch (K) {
  case MapKind::To: return "to";
  case MapKind::From: return "from";
  case MapKind::ToFrom: return "tofrom";
  case MapKind::Alloc: return "alloc";
  case MapKind::Release: return "release";
  case MapKind::Delete: return "delete";
  }
  return "?";
}

const char *spelling(ScheduleKind K) {
  switch (K) {
  case ScheduleKind::Static: return "static";
  case ScheduleKind::Dynamic: return "dynamic";
  case ScheduleKind::Guided: return "guided";
  case ScheduleKind::Adaptive: return "adaptive";
  }
  return "?";
}

const char *spelling(FallbackKind K) {
  switch (K) {
  case FallbackKind::Auto: return "auto";
  case FallbackKind::Gpu: return "gpu";
  case FallbackKind::Cpu: return "cpu";
  case FallbackKind::None: return "none";
  }
  return "?";
}

const char *spelling(LoopMode M) {
  switch (M) {
  case LoopMode::Kernel: return "kernel";
  case LoopMode::Task: return "task";
  case LoopMode::Host: return "host";
  }
  return "?";
}

} // namespace gpuautopar
