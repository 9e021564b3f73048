// A child forked after the runtime started must not deadlock: CPU loops run,
// device use falls back to CPU threads or fails with a clear error.
#include "runtime_test_support.h"

#include <gpu_autopar/loop_body.h>

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

using namespace gpu_autopar;
using rt_test::recording_body;
using rt_test::scoped_env;

namespace {

const loop_site kSite{"fork.cpp", 1};

// Runs `child` in a forked process with a time limit; returns its exit status.
template <class F>
int in_child(F child) {
  pid_t pid = ::fork();
  if (pid == 0) {
    ::alarm(20); // a deadlock ends as SIGALRM instead of hanging the suite
    int code = 99;
    try {
      code = child();
    } catch (...) {
      code = 98;
    }
    ::_exit(code);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace

TEST(RunLoopFork, ChildRunsLoopsOnTheCpuAndRefusesDevicesClearly) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}});
  recording_body warm(5000);
  run_loop(kSite, 5000, loop_options{}, warm); // devices and host pool are running
  ASSERT_TRUE(warm.each_once());

  EXPECT_EQ(in_child([] {
              recording_body body(20000);
              run_loop(kSite, 20000, loop_options{}, body); // auto: falls back to the CPU
              if (!body.each_once() || body.on_device(-1) != 20000)
                return 1;
              recording_body cpu(20000);
              loop_options o;
              o.fallback = fallback_policy::cpu;
              run_loop(kSite, 20000, o, cpu);
              return cpu.each_once() ? 0 : 2;
            }),
            0);
  EXPECT_EQ(in_child([] {
              recording_body body(20000);
              loop_options o;
              o.fallback = fallback_policy::gpu;
              try {
                run_loop(kSite, 20000, o, body);
              } catch (const loop_error& e) {
                return std::string(e.what()).find("forked") != std::string::npos ? 0 : 3;
              }
              return 4;
            }),
            0);
  // The parent's runtime is untouched.
  recording_body after(5000);
  run_loop(kSite, 5000, loop_options{}, after);
  EXPECT_TRUE(after.each_once());
  EXPECT_EQ(after.on_device(-1), 0u);
}
