// Names in a directive's clauses looked up as clang's OpenMP looks them up:
// by Sema, in the scope of the statement that follows the directive, so that
// shadowing, using declarations, structured bindings and lambdas mean what
// they mean to the compiler.
//
// A pragma handler runs when the preprocessor meets the directive, which is
// when the parser looks one token past the statement before it: a block that
// ends there (`}`) still has its scope. The lookup therefore waits for the
// second token after the directive, which the parser reads once it has
// begun the next statement (consuming its first token), in that statement's
// scope.
#pragma once

#include "gpuautopar/Annotation.h"

#include <memory>
#include <vector>

namespace clang {
class Sema;
class Token;
} // namespace clang

namespace gpuautopar {

class DirectiveScope {
public:
  // The parser's Sema, once it exists (SemaConsumer::InitializeSema): from
  // then on the preprocessor reports each token the parser reads here.
  void setSema(clang::Sema &S);
  // Gives `A` its Names, filled in once the parser has begun the statement
  // after it, if it reads that statement as part of a function (see
  // Annotation::Names).
  void lookUpLater(Annotation &A);
  // The parser is done (ASTConsumer::HandleTranslationUnit): tokens no
  // longer come through here.
  void parsed();

private:
  void tokenRead(const clang::Token &T);
  void lookUp(DirectiveNames &Names) const;

  struct Waiting {
    std::shared_ptr<DirectiveNames> Names;
    unsigned TokensLeft;
  };
  clang::Sema *TheSema = nullptr;
  std::vector<Waiting> Pending;
};

} // namespace gpuautopar
