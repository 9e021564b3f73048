#include "ConditionSpelling.h"

#include <cassert>

namespace gpuautopar {
namespace {

struct Text {
  std::string S;
  int Precedence; // of its outermost operator: || 1, && 2, comparison 3, + - 4, * 5, unary - 6, atom 7
};

int precedence(ParamCondition::Kind K) {
  switch (K) {
  case ParamCondition::Or: return 1;
  case ParamCondition::And: return 2;
  case ParamCondition::Eq:
  case ParamCondition::Le:
  case ParamCondition::Lt:
  case ParamCondition::Ge:
  case ParamCondition::Gt: return 3;
  case ParamCondition::Add:
  case ParamCondition::Sub: return 4;
  case ParamCondition::Mul: return 5;
  case ParamCondition::Neg: return 6;
  case ParamCondition::Number:
  case ParamCondition::Param: return 7;
  }
  return 7;
}

const char *operatorText(ParamCondition::Kind K) {
  switch (K) {
  case ParamCondition::Or: return " || ";
  case ParamCondition::And: return " && ";
  case ParamCondition::Eq: return " == ";
  case ParamCondition::Le: return " <= ";
  case ParamCondition::Lt: return " < ";
  case ParamCondition::Ge: return " >= ";
  case ParamCondition::Gt: return " > ";
  case ParamCondition::Add: return " + ";
  case ParamCondition::Sub: return " - ";
  case ParamCondition::Mul: return " * ";
  default: return "";
  }
}

Text text(const ParamCondition &C, SpellFor For) {
  const bool Code = For == SpellFor::Code;
  if (C.K == ParamCondition::Number)
    return {std::to_string(C.Value) + (Code ? "LL" : ""), 7};
  if (C.K == ParamCondition::Param)
    return {Code ? "(long long)(" + C.Name + ")" : C.Name, 7};
  const int Prec = precedence(C.K);
  assert(C.Args.size() == (C.K == ParamCondition::Neg ? 1u : 2u) && "an operator with its operands");
  std::string Out = C.K == ParamCondition::Neg ? "-" : "";
  for (size_t K = 0; K < C.Args.size(); ++K) {
    Text T = text(C.Args[K], For);
    // Parentheses where C++ would group otherwise: a weaker operator
    // inside, or the right side of `-`, or comparisons side by side.
    const bool Wrap = T.Precedence < Prec || (K == 1 && T.Precedence == Prec && (Prec == 4 || Prec == 3)) ||
                      (Prec == 6 && T.Precedence < 7);
    Out += (K ? operatorText(C.K) : "") + (Wrap ? "(" + T.S + ")" : T.S);
  }
  return {Out, Prec};
}

} // namespace

std::string spell(const ParamCondition &C, SpellFor For) { return text(C, For).S; }

std::string shown(const ParamCondition &C) { return spell(C, SpellFor::User); }

} // namespace gpuautopar
