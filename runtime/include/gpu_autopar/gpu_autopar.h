// The one header that code rewritten by gpu-autopar includes.
//
// A loop annotated with `#pragma gpu_autopar for` becomes one call of
// host_loop, task_loop or kernel_loop (see loops.h and
// docs/generated-code.md): the loop's site, its iteration space, its clauses
// as options(), its data maps (kernel mode), its reductions, and the body as a
// lambda whose parameters carry the user's names.
#pragma once

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
#include <gpu_autopar/view.h>
