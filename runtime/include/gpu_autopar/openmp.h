// The first line of a file gpu-autopar rewrote from OpenMP (--accept=omp)
// whose code mentions `_OPENMP` or <omp.h>: built without OpenMP, it defines
// `_OPENMP`, as the tool did when it parsed the file, so that `#if _OPENMP`
// selects the code the tool analysed and rewrote, and gives that code
// OpenMP's API (<gpu_autopar/openmp/omp.h>, whose comment says what each call
// returns). Built with OpenMP, it changes nothing. docs/migration.md,
// "_OPENMP and OpenMP's API".
#pragma once

#ifndef _OPENMP
#define _OPENMP 201811
#define GPU_AUTOPAR_OPENMP_STANDIN 1
#endif
#include "gpu_autopar/openmp/omp.h"
