#!/usr/bin/env bash
# package.diagnostics: builds that must fail do, and their messages name the
# user's file and line, never the rewritten copy in the build tree.
#   compile_error  the compiler rejects an annotated loop's body
#   rejected       the tool rejects the loop (proven dependence)
#   unsure         an unprovable dependence under gpu_autopar_target(... STRICT)
#   no_loop        the compiler rejects a file that has no annotated loop
source "$(dirname "$0")/common.sh"
proj="$GA_SOURCE/test/package/projects/diagnostics"
b="$GA_WORK/build"
# The other package tests build with the parent build's generator (Ninja); this
# one with Makefiles where make exists, so the rules gpu_autopar_target writes
# are exercised under both (Makefiles do not create output directories).
if command -v make >/dev/null; then GA_GENERATOR="Unix Makefiles"; fi
configure_project "$proj" "$b"

# build_must_fail <target>: builds it, expects failure, leaves the output in $out.
build_must_fail() {
  if out=$("$GA_CMAKE" --build "$b" --target "$1" 2>&1); then
    echo "$out"; fail "target $1 built, but it must not"
  fi
  echo "$out" > "$GA_WORK/$1.log"
}
# expect <regex> <what>: the build output of the last target matches.
expect() {
  grep -Eq -- "$1" <<<"$out" || { echo "$out"; fail "$2"; }
}

step "an error in an annotated loop's body points at the original line"
build_must_fail compile_error
expect "^$proj/compile_error.cpp:13:[0-9]+: error: .*deprecated" \
  "the compiler's error does not name compile_error.cpp:13"
if grep -E 'error:' <<<"$out" | grep -q "gpu_autopar/compile_error/"; then
  echo "$out"; fail "an error names the rewritten copy instead of the original"
fi

step "an error in a file without annotated loops points at the original too"
build_must_fail no_loop
expect "^$proj/no_loop.cpp:4:[0-9]+: error: unused variable" \
  "the compiler's error does not name no_loop.cpp:4"
if grep -E 'error:' <<<"$out" | grep -q "gpu_autopar/no_loop/"; then
  echo "$out"; fail "an error names the rewritten copy instead of the original"
fi

step "a rejected loop stops the build with the tool's message"
build_must_fail rejected
expect "^$proj/rejected.cpp:8:[0-9]+: error: loop-carried dependence on 'a'" \
  "the tool's error for rejected.cpp:8 is not in the build output"
expect "$proj/rejected.cpp:9:[0-9]+: note: " "the tool's note on the conflicting access is missing"
expect "gpu-autopar could not rewrite" "no summary line from the rewrite step"
[[ ! -e "$b/gpu_autopar/rejected/rejected.cpp" ]] || fail "a rejected rewrite left its output behind"
# And the next build tries again rather than using a stale result.
build_must_fail rejected

step "STRICT turns an unprovable dependence into a build error"
build_must_fail unsure
expect "^$proj/unsure.cpp:12:[0-9]+: error: cannot prove that iterations access distinct elements of 'a'" \
  "the --strict error for unsure.cpp:12 is not in the build output"
echo "OK: failing builds point at the original sources"
