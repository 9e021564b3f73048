#include "UnifiedDiff.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <vector>

namespace gpuautopar {
namespace {

// Lines with their terminators, so a missing final newline is kept exactly.
std::vector<llvm::StringRef> lines(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Out;
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    End = End == llvm::StringRef::npos ? Text.size() : End + 1;
    Out.push_back(Text.take_front(End));
    Text = Text.drop_front(End);
  }
  return Out;
}

enum class Op { Keep, Remove, Add };

// The edit script from a longest common subsequence. The rewriter changes a
// few regions of a file, so the common prefix and suffix are stripped first
// and the quadratic table only covers the changed middle.
std::vector<std::pair<Op, llvm::StringRef>> editScript(const std::vector<llvm::StringRef> &A,
                                                       const std::vector<llvm::StringRef> &B) {
  size_t Pre = 0;
  while (Pre < A.size() && Pre < B.size() && A[Pre] == B[Pre])
    ++Pre;
  size_t Suf = 0;
  while (Suf < A.size() - Pre && Suf < B.size() - Pre && A[A.size() - 1 - Suf] == B[B.size() - 1 - Suf])
    ++Suf;
  const size_t N = A.size() - Pre - Suf, M = B.size() - Pre - Suf;
  std::vector<std::vector<unsigned>> L(N + 1, std::vector<unsigned>(M + 1, 0));
  for (size_t I = N; I-- > 0;)
    for (size_t J = M; J-- > 0;)
      L[I][J] = A[Pre + I] == B[Pre + J] ? L[I + 1][J + 1] + 1 : std::max(L[I + 1][J], L[I][J + 1]);
  std::vector<std::pair<Op, llvm::StringRef>> Script;
  for (size_t K = 0; K < Pre; ++K)
    Script.push_back({Op::Keep, A[K]});
  size_t I = 0, J = 0;
  while (I < N || J < M) {
    if (I < N && J < M && A[Pre + I] == B[Pre + J]) {
      Script.push_back({Op::Keep, A[Pre + I]});
      ++I, ++J;
    } else if (I < N && (J == M || L[I + 1][J] >= L[I][J + 1])) {
      // Removals before additions within a change, as diff -u prints them.
      Script.push_back({Op::Remove, A[Pre + I++]});
    } else {
      Script.push_back({Op::Add, B[Pre + J++]});
    }
  }
  for (size_t K = A.size() - Suf; K < A.size(); ++K)
    Script.push_back({Op::Keep, A[K]});
  return Script;
}

void emitLine(std::string &Out, char Prefix, llvm::StringRef Line) {
  Out += Prefix;
  Out += Line.str();
  if (!Line.ends_with("\n"))
    Out += "\n\\ No newline at end of file\n";
}

} // namespace

std::string unifiedDiff(llvm::StringRef Before, llvm::StringRef After, llvm::StringRef OldName,
                        llvm::StringRef NewName) {
  if (Before == After)
    return "";
  const auto Script = editScript(lines(Before), lines(After));
  const size_t Context = 3;
  std::string Out = "--- " + OldName.str() + "\n+++ " + NewName.str() + "\n";
  size_t K = 0;
  while (K < Script.size()) {
    // Find the next change, then grow the hunk while changes are close.
    size_t First = K;
    while (First < Script.size() && Script[First].first == Op::Keep)
      ++First;
    if (First == Script.size())
      break;
    size_t Start = First >= Context ? First - Context : 0;
    size_t End = First;
    for (size_t Q = First; Q < Script.size(); ++Q) {
      if (Script[Q].first != Op::Keep)
        End = Q + 1;
      else if (Q - End >= 2 * Context)
        break;
    }
    End = std::min(Script.size(), End + Context);
    // Line numbers of the hunk's start in each file.
    size_t OldLine = 1, NewLine = 1;
    for (size_t Q = 0; Q < Start; ++Q) {
      OldLine += Script[Q].first != Op::Add;
      NewLine += Script[Q].first != Op::Remove;
    }
    size_t OldCount = 0, NewCount = 0;
    std::string Body;
    for (size_t Q = Start; Q < End; ++Q) {
      OldCount += Script[Q].first != Op::Add;
      NewCount += Script[Q].first != Op::Remove;
      emitLine(Body, Script[Q].first == Op::Keep ? ' ' : Script[Q].first == Op::Add ? '+' : '-', Script[Q].second);
    }
    // An empty side starts one line earlier, as diff -u writes it.
    Out += "@@ -" + std::to_string(OldCount ? OldLine : OldLine - 1) + "," + std::to_string(OldCount) + " +" +
           std::to_string(NewCount ? NewLine : NewLine - 1) + "," + std::to_string(NewCount) + " @@\n" + Body;
    K = End;
  }
  return Out;
}

} // namespace gpuautopar
