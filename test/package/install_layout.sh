#!/usr/bin/env bash
# package.install (the fixture of the other package tests): installs the
# current build, moves the installed tree elsewhere, and checks the README's install
# layout and that nothing in it still names the build tree, the source tree
# or the place it was installed to (the package must be relocatable).
source "$(dirname "$0")/common.sh"
: "${GA_BUILD:?}"

stage="$GA_WORK/stage"
step "cmake --install $GA_BUILD --prefix $stage"
logged "$GA_WORK/install.log" "$GA_CMAKE" --install "$GA_BUILD" --prefix "$stage"
rm -rf "$GA_PREFIX"
mv "$stage" "$GA_PREFIX"
p=$GA_PREFIX

step "layout under $p"
for f in bin/gpu-autopar lib/libgpu_autopar.a include/gpu_autopar/gpu_autopar.h \
         lib/cmake/GpuAutopar/GpuAutoparConfig.cmake lib/cmake/GpuAutopar/GpuAutoparConfigVersion.cmake \
         lib/cmake/GpuAutopar/GpuAutoparTargets.cmake lib/cmake/GpuAutopar/GpuAutoparTarget.cmake \
         lib/pkgconfig/gpu-autopar.pc; do
  [[ -f "$p/$f" ]] || fail "missing $f"
done
[[ -x "$p/bin/gpu-autopar" ]] || fail "bin/gpu-autopar is not executable"
# The whole public header directory: gpu_autopar.h includes the others.
for h in "$GA_SOURCE"/runtime/include/gpu_autopar/*.h; do
  [[ -f "$p/include/gpu_autopar/$(basename "$h")" ]] || fail "header $(basename "$h") not installed"
done

step "no build-tree, source-tree or staging paths in installed text files"
if hits=$(grep -rIl -F -e "$GA_BUILD" -e "$GA_SOURCE/" -e "$stage" "$p"); then
  for f in $hits; do grep -n -F -e "$GA_BUILD" -e "$GA_SOURCE/" -e "$stage" "$f" | head -3 | sed "s|^|$f: |"; done
  fail "installed files name paths that move or vanish"
fi
if command -v readelf >/dev/null; then
  rpath=$(readelf -d "$p/bin/gpu-autopar" | grep -E 'RPATH|RUNPATH' || true)
  case "$rpath" in
    *"$GA_BUILD"*|*"$GA_SOURCE"*) fail "bin/gpu-autopar has a build-tree run path: $rpath" ;;
  esac
fi

step "the relocated tool runs"
"$p/bin/gpu-autopar" --version >/dev/null || fail "$p/bin/gpu-autopar --version failed"

if command -v pkg-config >/dev/null; then
  step "pkg-config gpu-autopar resolves to the relocated prefix"
  export PKG_CONFIG_PATH="$p/lib/pkgconfig"
  read -r cflags < <(pkg-config --cflags gpu-autopar)   # read: drops the trailing blank
  libs=$(pkg-config --libs gpu-autopar)
  inc=${cflags#-I}
  [[ "$cflags" == -I* && "$(cd "$inc" && pwd -P)" == "$(cd "$p/include" && pwd -P)" ]] ||
    fail "pkg-config --cflags gave '$cflags', not -I$p/include"
  [[ "$libs" == *-lgpu_autopar* && "$libs" == *-pthread* ]] ||
    fail "pkg-config --libs gave '$libs' (wants -L<libdir> -lgpu_autopar -pthread)"
  libdir=$(pkg-config --variable=libdir gpu-autopar)
  [[ -f "$libdir/libgpu_autopar.a" ]] || fail "pkg-config libdir '$libdir' has no libgpu_autopar.a"
fi
echo "OK: installed and relocated to $p"
