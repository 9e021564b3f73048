// Host threads handing work to one another, told to a modelled timeline.
//
// The CUDA stand-in (test/standin/) models time per host thread: each
// thread's clock moves as it issues and waits. It cannot see the lease
// pool's own synchronisation, a worker starting a job the loop's thread
// posted or that thread waiting for the job to end, so a worker could issue a
// kernel "before" the loop whose results it reads returned. The pool says so
// through gpu_autopar_standin_handoff, which only the stand-in defines: it is
// looked up once (dlsym), and where it is absent (the real CUDA runtime, no
// CUDA at all) these calls do nothing.
#pragma once

#include <cstdint>

namespace gpu_autopar {
namespace detail {

// The calling thread hands on what `key` names (a job it posts, or one it
// finished).
void handoff_publish(const void* key, int direction) noexcept;
// The calling thread takes it up (starts the job, or has waited for it).
void handoff_adopt(const void* key, int direction) noexcept;

} // namespace detail
} // namespace gpu_autopar
