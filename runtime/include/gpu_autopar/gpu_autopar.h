// The one header that code rewritten by gpu-autopar includes.
//
// A loop annotated with `#pragma gpu_autopar for` becomes one call of
// host_loop, task_loop or kernel_loop (see loops.h and
// docs/generated-code.md): the loop's site, its iteration space, its clauses
// as options(), its data maps (kernel mode), its reductions, and the body as a
// lambda whose parameters carry the user's names.
#pragma once

// A kernel-mode body that calls a host function (nvcc's diagnostic 20011) or
// a constexpr host function without --expt-relaxed-constexpr (20013:
// std::min, std::max) is only a warning to nvcc, which then compiles the
// chunk kernel *without the body*: the loop would run on the GPU and compute
// nothing. Errors here, for every file that includes the runtime, whatever
// flags its nvcc command carries.
#if defined(__NVCC__)
#pragma nv_diag_error 20011
#pragma nv_diag_error 20013
#endif

#include <iterator> // std::size, used for range-based loops

#include <gpu_autopar/cuda_stream.h>
#include <gpu_autopar/data_map.h>
#include <gpu_autopar/data_region.h>
#include <gpu_autopar/hd.h>
#include <gpu_autopar/iteration_space.h>
#include <gpu_autopar/loop_body.h>
#include <gpu_autopar/loops.h>
#include <gpu_autopar/options.h>
#include <gpu_autopar/reductions.h>
#include <gpu_autopar/variable_rows.h>
#include <gpu_autopar/view.h>
