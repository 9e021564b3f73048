// The checking half of the validation-style corpus (validation-style.test):
// what the OpenMP and OpenACC validation suites' headers give their tests,
// written for this corpus. A test is a function returning its error count;
// VV_RUN prints one PASS or FAIL line per test, and main's last line the
// totals. No directive here: pragmas in headers are left to the header's
// own run of gpu-autopar.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define VV_N 1024
#define VV_PRECISION 1e-9

static int vv_tests = 0, vv_failed = 0;

// Counts an error when the condition holds (a wrong value), as the suites'
// TEST_AND_SET macros do.
#define VV_ERROR_IF(errors, condition) ((errors) += (condition) ? 1 : 0)

// True when two doubles agree to VV_PRECISION, relative to their size.
static inline bool vv_close(double got, double want) {
  return std::fabs(got - want) <= VV_PRECISION * (1 + std::fabs(want));
}

static inline void vv_report(const char *name, int errors) {
  ++vv_tests;
  if (errors) {
    ++vv_failed;
    std::printf("FAIL %s: %d errors\n", name, errors);
  } else {
    std::printf("PASS %s\n", name);
  }
}

#define VV_RUN(test) vv_report(#test, test())

static inline int vv_summary(const char *suite) {
  std::printf("%s: %d tests, %d failed\n", suite, vv_tests, vv_failed);
  return vv_failed != 0;
}
