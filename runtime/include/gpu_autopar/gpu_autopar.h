// The one header that code rewritten by gpu-autopar includes.
//
// A loop annotated with `#pragma gpu_autopar for` is rewritten into a call of
// `gpu_autopar::for_loop(site, iterations, body)`: the site names the loop in
// logs and reports, `iterations` describes the loop header, and the body is
// the loop body as a callable taking the induction variable.
#pragma once

#include <cstdint>
#include <utility>

#include <gpu_autopar/host_pool.h>
#include <gpu_autopar/iteration_space.h>
#include <gpu_autopar/loop_body.h>

// Marks a callable as compilable for both host and device. Empty in a host
// compiler, so rewritten files still build with plain g++/clang++.
#if defined(__CUDACC__) || defined(__HIP__)
#define GPU_AUTOPAR_HD __host__ __device__
#else
#define GPU_AUTOPAR_HD
#endif

namespace gpu_autopar {

namespace detail {
// Runs `chunk` over every iteration index in [0, count): serially on the
// calling thread when the loop is too small to be worth splitting, otherwise
// on the process-wide host pool.
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
