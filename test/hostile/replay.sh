#!/usr/bin/env bash
# Replays, as a careless or hostile user would, every case where the command
# or the runtime once damaged a file, wrote what does not compile, or said
# nothing (or too much). Each case checks the exit status, the message and the
# bytes of every file involved. Usage: replay.sh TOOL RUNTIME_LIB CXX INCLUDE
set -uo pipefail
tool=$1 runtime=$2 cxx=$3 include=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
cases=0

fail() { echo "FAIL [$case]: $*"; failures=$((failures + 1)); }
# run EXPECTED_STATUS CMD...: runs CMD, keeps its stderr in err, stdout in out.
run() {
  local want=$1; shift
  "$@" > out 2> err
  local got=$?
  [ "$got" = "$want" ] || fail "exit status $got, expected $want: $*"$'\n'"$(cat err)"
}
said() { grep -qF -- "$1" err || fail "stderr lacks: $1"$'\n'"$(cat err)"; }
not_said() { ! grep -qF -- "$1" err || fail "stderr has: $1"; }
same() { cmp -s "$1" "$2" || fail "$2 changed (expected the bytes of $1)"; }
compiles() { "$cxx" -std=c++17 -fsyntax-only -I"$include" "$1" 2> compile.err || fail "$1 does not compile: $(head -3 compile.err)"; }
start() { case=$1; cases=$((cases + 1)); }

simple='void zero(int *a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    a[i] = 0;
}'
printf '%s\n' "$simple" > simple.cpp
printf '%s\n' "$simple" > simple.orig

# ---------------------------------------------------------------- the tool --
start "_Pragma from an object-like macro"
printf '#define PAR_FOR _Pragma("gpu_autopar for")\nvoid z(int *a, int n) {\n  PAR_FOR for (int i = 0; i < n; ++i)\n    a[i] = 0;\n}\n' > obj.cpp
run 0 "$tool" obj.cpp -o obj.out.cpp -- -std=c++17
grep -q 'kernel_loop(::gpu_autopar::loop_site{"obj.cpp", 3}' obj.out.cpp || fail "loop not rewritten"
compiles obj.out.cpp

start "_Pragma and the loop in a function-like macro, with -i"
printf '#define PAR(loop) _Pragma("gpu_autopar for") loop\nvoid z(int *a, int n) {\n  PAR(for (int i = 0; i < n; ++i) a[i] = 0;)\n}\n' > fn.cpp
cp fn.cpp fn.orig
run 1 "$tool" -i fn.cpp -- -std=c++17
said "fn.cpp:3:3: error: the loop annotated by the '_Pragma' in macro 'PAR' is itself part of the macro"
not_said "must be a for loop"
same fn.orig fn.cpp

start "two annotated loops nested in one function"
printf 'void f(float *a, int n, int m) {\n#pragma gpu_autopar for\n  for (int i = 0; i < n; ++i) {\n#pragma gpu_autopar for\n    for (int j = 0; j < m; ++j)\n      a[i * m + j] = 1;\n  }\n}\n' > nested.cpp
run 0 "$tool" nested.cpp -o nested.out.cpp -- -std=c++17
said "nested.cpp:4:1: warning: '#pragma gpu_autopar for' inside the annotated loop at line 2 is ignored"
compiles nested.out.cpp

start "-std=c++14: the output would need C++17"
echo keep > keep.txt; cp keep.txt out14.cpp
run 1 "$tool" simple.cpp -o out14.cpp -- -std=c++14
said "simple.cpp:2:1: error: the rewritten loops need C++17 or later, but the file is parsed as c++14"
same keep.txt out14.cpp

start "compiler-argument errors write nothing"
for flag in -std=c++99 -fno-such-flag; do
  cp keep.txt outflag.cpp
  run 1 "$tool" simple.cpp -o outflag.cpp -- "$flag"
  same keep.txt outflag.cpp
  not_said "Error while processing"
  [ ! -s out ] || fail "stdout not empty"
done

start "a UTF-8 byte order mark stays first"
printf '\357\273\277%s\n' "$simple" > bom.cpp
run 0 "$tool" bom.cpp -o bom.out.cpp -- -std=c++17
[ "$(head -c 3 bom.out.cpp | od -An -tx1 | tr -d ' ')" = efbbbf ] || fail "BOM not first"
compiles bom.out.cpp

start "CRLF stays CRLF"
printf '%s\n' "$simple" | sed 's/$/\r/' > crlf.cpp
run 0 "$tool" crlf.cpp -o crlf.out.cpp -- -std=c++17
[ "$(tr -cd '\n' < crlf.out.cpp | wc -c)" = "$(tr -cd '\r' < crlf.out.cpp | wc -c)" ] || fail "mixed line endings"

start "#line: the user's name and numbers throughout"
printf '#line 100 "user.gen.cpp"\n%s\n' "$simple" > line.cpp
run 0 "$tool" line.cpp -o line.out.cpp -- -std=c++17
grep -q 'loop_site{"user.gen.cpp", 101}' line.out.cpp || fail "loop site does not use the #line name"
! grep -q '^#line [0-9]* ".*line.cpp"$' <(sed -n '3,$p' line.out.cpp) || fail "a #line names line.cpp inside the #line region"

start "-i keeps the mode (0600)"
cp simple.orig private.cpp && chmod 600 private.cpp
run 0 "$tool" -i private.cpp -- -std=c++17
[ "$(stat -c %a private.cpp)" = 600 ] || fail "mode is $(stat -c %a private.cpp)"

start "-i refuses a read-only file"
cp simple.orig ro.cpp && chmod 444 ro.cpp
run 2 "$tool" -i ro.cpp -- -std=c++17
said "gpu-autopar: error: cannot write 'ro.cpp': it is read-only"
same simple.orig ro.cpp

start "-i through a symbolic link"
mkdir -p real && cp simple.orig real/t.cpp && ln -sf real/t.cpp link.cpp
run 0 "$tool" -i link.cpp -- -std=c++17
[ -L link.cpp ] || fail "the link became a regular file"
grep -q kernel_loop real/t.cpp || fail "the target was not rewritten"

start "-o naming the input"
run 2 "$tool" simple.cpp -o simple.cpp -- -std=c++17
said "-o names the input 'simple.cpp'; use -i to rewrite it in place"
same simple.orig simple.cpp

start "an annotated loop in a header"
printf '%s\n' "$simple" | sed 's/zero/hz/' > h.h
printf '#include "h.h"\nint main() { int a[4]; hz(a, 4); return a[0]; }\n' > inc.cpp
run 0 "$tool" inc.cpp -- -std=c++17
said "h.h:2:1: warning: annotated loop in a header is not rewritten"

start "near-miss pragma namespaces"
printf 'void z(int *a, int n) {\n#pragma gpu_autopr for\n  for (int i = 0; i < n; ++i) a[i] = 0;\n#pragma GPU_AUTOPAR for\n  for (int i = 0; i < n; ++i) a[i] = 0;\n}\n' > near.cpp
run 0 "$tool" near.cpp -- -std=c++17
said "near.cpp:2:9: warning: unknown pragma 'gpu_autopr' ignored; did you mean 'gpu_autopar'?"
said "near.cpp:4:9: warning: unknown pragma 'GPU_AUTOPAR' ignored; did you mean 'gpu_autopar'?"

start "--version and --help"
run 0 "$tool" --version
grep -q '^gpu-autopar [0-9]' out || fail "--version: $(head -1 out)"
run 0 "$tool" --help
for word in '[-- <compiler arguments>]' 'Exit status:' GPU_AUTOPAR_DEVICES 'Documentation:'; do
  grep -qF -- "$word" out || fail "--help lacks $word"
done

start "one reduction variable twice"
printf 'float f(float *a, int n) {\n  float s = 0;\n#pragma gpu_autopar for reduction(+: s) reduction(+: s)\n  for (int i = 0; i < n; ++i) s += a[i];\n  return s;\n}\n' > twice.cpp
run 1 "$tool" twice.cpp -- -std=c++17
said "'s' appears more than once in 'reduction'"
not_said "Error while processing"

start "a bad -p"
run 2 "$tool" -p nowhere simple.cpp
said "gpu-autopar: error: -p nowhere: no such directory"
not_said "json-compilation-database"

start "--check -v says what was decided"
run 0 "$tool" --check -v simple.cpp -- -std=c++17
grep -qF 'simple.cpp: 1 loop — 1 kernel; 0 rejected' out || fail "summary: $(cat out)"

start "--check on a terminal says what was decided"
# The same command as a user types it: stdout is a terminal (a pty), no -v.
run 0 python3 -c 'import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)' "$tool" --check simple.cpp -- -std=c++17
grep -qF 'simple.cpp: 1 loop — 1 kernel; 0 rejected' out || fail "summary on a terminal: $(cat out)"

start "the output re-parses without -I"
run 0 "$tool" simple.cpp -o once.cpp -- -std=c++17
run 0 "$tool" once.cpp -o twice.out.cpp -- -std=c++17
same once.cpp twice.out.cpp

# ------------------------------------------------------------- the runtime --
build() { # NAME SOURCE: rewrite and compile
  printf '%s\n' "$2" > "$1.cpp"
  "$tool" "$1.cpp" -o "$1.par.cpp" -- -std=c++17 2> /dev/null &&
    "$cxx" -std=c++17 -O1 -I"$include" "$1.par.cpp" "$runtime" -pthread -o "$1" || fail "cannot build $1"
}
build saxpy '#include <cstdio>
#include <vector>
int main() {
  const int n = 100000;
  std::vector<float> x(n, 1), y(n, 2);
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    y[i] = 2 * x[i] + y[i];
  std::printf("%.1f\n", y[n - 1]);
}'
build none '#include <cstdio>
int main() {
  static int a[1000];
#pragma gpu_autopar for fallback(none)
  for (int i = 0; i < 1000; ++i)
    a[i] = i;
  std::printf("%d\n", a[999]);
}'
build neq '#include <cstdio>
int main(int argc, char **) {
  static int a[1000];
  int step = 2 + argc;
#pragma gpu_autopar for
  for (int i = 0; i != 1000; i += step)
    a[i] = i;
  std::printf("%d\n", a[999]);
}'
build chunk '#include <cstdio>
int main(int argc, char **) {
  static int a[1000];
  int c = -argc;
#pragma gpu_autopar for schedule(dynamic, c)
  for (int i = 0; i < 1000; ++i)
    a[i] = i;
  std::printf("%d\n", a[999]);
}'

start "GPU_AUTOPAR_THREADS invalid values"
for v in 0 -3 999999 abc; do
  GPU_AUTOPAR_THREADS=$v run 0 ./saxpy
  said "GPU_AUTOPAR_THREADS='$v' is not a thread count from 1 to 4096; using"
  [ "$(grep -c THREADS err)" = 1 ] || fail "warned $(grep -c THREADS err) times"
done

start "simulated speeds: one range, one message"
for v in 1e9 1e-9; do
  GPU_AUTOPAR_DEVICES=sim:2,speed=$v run 0 ./saxpy
  said "speed=$v: '$v' is not a number from 0.01 to 100; using CPU threads"
done
GPU_AUTOPAR_DEVICES=sim:3,speed=1:1e-6:1 run 0 timeout 20 ./saxpy
said "is not a number from 0.01 to 100"

start "a device short of memory: one warning, not thousands"
GPU_AUTOPAR_DEVICES=sim:2,mem=4096 run 0 ./saxpy
[ "$(wc -l < err)" -le 2 ] || fail "$(wc -l < err) lines of warnings"

start "runtime errors name the loop"
run 134 ./none
said "none.cpp:4: loop with fallback(none) cannot run"
run 134 ./neq
said "neq.cpp:5: '!=' loop whose step 3 does not reach the bound exactly"
run 134 ./chunk
said "chunk.cpp:5: schedule chunk must not be negative, got -1"

echo "$cases cases, $failures failures"
[ "$failures" = 0 ]
