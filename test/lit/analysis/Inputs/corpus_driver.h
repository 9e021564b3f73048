// The driver of a dependence corpus file (test/lit/analysis/run_corpus.py):
// a main() that calls the corpus's functions on deterministic data and writes
// every array they may change to a file, so that the rewritten build can be
// compared with the serial one; and, for a witness check, runs one iteration
// of one annotated loop alone (the script inserts `if (corpus::skip(LINE, i))`
// into each loop of a copy of the corpus), with the witness's parameters and
// one element changed.
//
// A driver file includes the corpus (CORPUS_SOURCE), then defines one
// CORPUS_FUNCTION per corpus function: it makes the arguments, registers the
// arrays by the names the corpus uses (corpus::fill) and calls the function.
//
// Usage: driver OUT all | driver OUT FUNCTION [--param NAME=VALUE]... [--perturb ARRAY:INDEX] [--only LINE:VALUE]
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace corpus {

struct settings {
  std::map<std::string, long long> params;
  std::string perturb_name;
  long long perturb_at = -1;
  bool probing = false;
  unsigned only_line = 0;
  long long only_value = 0;
  std::map<unsigned, long long> counters; // range-for loops: iterations seen so far
};
inline settings& cfg() {
  static settings s;
  return s;
}

// A parameter of the run: the witness's value, or the driver's default.
inline long long param(const char* name, long long fallback) {
  auto it = cfg().params.find(name);
  return it == cfg().params.end() ? fallback : it->second;
}

// Whether iteration `value` of the annotated loop at `line` is skipped: when
// probing, only one iteration of one loop runs.
template <class T>
bool skip(unsigned line, T value) {
  const settings& s = cfg();
  return s.probing && (line != s.only_line || static_cast<long long>(value) != s.only_value);
}
// A range-based for loop has no induction value: its iterations are counted.
inline bool skip_next(unsigned line) {
  settings& s = cfg();
  const long long k = s.counters[line]++;
  return s.probing && (line != s.only_line || k != s.only_value);
}

struct array {
  std::string name;
  char kind; // 'f' float, 'd' double, 'i' int
  void* data;
  std::size_t size, row; // row: elements per row of a built-in 2-D array (1 otherwise)
};
inline std::vector<array>& arrays() {
  static std::vector<array> a;
  return a;
}

// Integers from 1 to 997, different per array and element (sums of a few
// thousand stay exact in float, whatever their order).
inline int value(const std::string& name, std::size_t k) {
  unsigned h = 2166136261u;
  for (char c : name)
    h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return int((h % 997 + 389 * k + (k * k) % 7) % 997) + 1;
}

template <class T>
void fill(const char* name, T* data, std::size_t size, std::size_t row = 1) {
  const char kind = std::is_same<T, float>::value ? 'f' : std::is_same<T, double>::value ? 'd' : 'i';
  arrays().push_back({name, kind, data, size, row});
  for (std::size_t k = 0; k < size; ++k)
    data[k] = T(value(name, k));
  if (cfg().perturb_name == name && cfg().perturb_at >= 0 && std::size_t(cfg().perturb_at) < size)
    data[cfg().perturb_at] += T(100);
}
template <class T>
void fill(const char* name, std::vector<T>& v) {
  fill(name, v.data(), v.size());
}

inline void write(std::FILE* out) {
  for (const array& a : arrays()) {
    std::fprintf(out, "%s", a.name.c_str());
    for (std::size_t k = 0; k < a.size; ++k) {
      const double v = a.kind == 'f' ? double(static_cast<float*>(a.data)[k])
                       : a.kind == 'd' ? static_cast<double*>(a.data)[k]
                                       : double(static_cast<int*>(a.data)[k]);
      std::fprintf(out, " %.17g", v);
    }
    std::fprintf(out, "\n");
    if (a.row > 1)
      std::fprintf(out, "%s#row %zu\n", a.name.c_str(), a.row);
  }
}

inline std::vector<std::pair<std::string, std::function<void()>>>& functions() {
  static std::vector<std::pair<std::string, std::function<void()>>> f;
  return f;
}
struct add {
  add(const char* name, std::function<void()> f) { functions().push_back({name, std::move(f)}); }
};

inline int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUT all|FUNCTION [--param N=V]... [--perturb A:K] [--only LINE:VALUE]\n", argv[0]);
    return 2;
  }
  settings& s = cfg();
  for (int k = 3; k + 1 < argc; k += 2) {
    const std::string opt = argv[k], arg = argv[k + 1];
    const std::size_t cut = arg.rfind(opt == "--param" ? '=' : ':');
    if (cut == std::string::npos)
      return 2;
    const std::string left = arg.substr(0, cut);
    const long long right = std::atoll(arg.c_str() + cut + 1);
    if (opt == "--param")
      s.params[left] = right;
    else if (opt == "--perturb")
      s.perturb_name = left, s.perturb_at = right;
    else if (opt == "--only")
      s.probing = true, s.only_line = unsigned(std::atol(left.c_str())), s.only_value = right;
    else
      return 2;
  }
  std::FILE* out = std::fopen(argv[1], "w");
  if (!out)
    return 2;
  bool found = false;
  for (auto& [name, f] : functions())
    if (std::strcmp(argv[2], "all") == 0 || name == argv[2]) {
      found = true;
      arrays().clear();
      s.counters.clear();
      f();
      std::fprintf(out, "== %s\n", name.c_str());
      write(out);
    }
  std::fclose(out);
  return found ? 0 : 3;
}

} // namespace corpus

#define CORPUS_FUNCTION(name)                                                                                     \
  static void corpus_run_##name();                                                                                \
  static corpus::add corpus_add_##name(#name, corpus_run_##name);                                                 \
  static void corpus_run_##name()

int main(int argc, char** argv) { return corpus::main(argc, argv); }
