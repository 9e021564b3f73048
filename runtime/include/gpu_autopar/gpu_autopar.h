// The one header that code rewritten by gpu-autopar includes.
//
// A loop annotated with `#pragma gpu_autopar for` becomes one call of
// host_loop, task_loop or kernel_loop (see loops.h and
// docs/generated-code.md): the loop's site, its iteration space, its clauses
// as options(), its data maps (kernel mode), its reductions, and the body as a
// lambda whose parameters carry the user's names.
#pragma once

#include <cstdint>
#include <iterator>
#include <utility>

#include <gpu_autopar/cuda_stream.h>
#include <gpu_autopar/data_map.h>
#include <gpu_autopar/hd.h>
#include <gpu_autopar/host_pool.h>
#include <gpu_autopar/iteration_space.h>
#include <gpu_autopar/loop_body.h>
#include <gpu_autopar/loops.h>
#include <gpu_autopar/options.h>
#include <gpu_autopar/reductions.h>
#include <gpu_autopar/view.h>

namespace gpu_autopar {

namespace detail {
// Runs `chunk` over every iteration index in [0, count) on CPU threads (the
// first slice's entry point, kept while older rewritten files exist).
void run_host_loop(const loop_site& site, std::uint64_t count, range_fn chunk);
} // namespace detail

template <class T, class Body>
void for_loop(const loop_site& site, const iterations<T>& space, Body&& body) {
  auto chunk = [&space, &body](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t k = begin; k < end; ++k)
      body(space.at(k));
  };
  detail::run_host_loop(site, space.count(), make_range_fn(chunk));
}

} // namespace gpu_autopar
