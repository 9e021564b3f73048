# Build-time step of gpu_autopar_target(): rewrites one source.
#   cmake -DGPU_AUTOPAR_TOOL=<tool> -DSOURCE=<abs> -DOUTPUT=<file> [-DREPORT=<json>] [-DSTRICT=ON]
#         [-DACCEPT=omp,acc]
#         [-DDEPFILE=<file.d> -DDEP_SCANNER=<c++ compiler>]
#         -P GpuAutoparRewrite.cmake -- <compiler arguments>
# A wrapper rather than the bare tool so that (1) a failed rewrite leaves no
# stale output behind, and (2) a source without annotated loops, which the
# tool copies verbatim, still gets a #line naming the original: every
# diagnostic of the compiler then points at the user's file, not at the copy.
set(compiler_args "")
set(after_dashes FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(after_dashes)
    list(APPEND compiler_args "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_dashes TRUE)
  endif()
endforeach()

set(tool_args "${SOURCE}" -o "${OUTPUT}.tmp")
if(STRICT)
  list(APPEND tool_args --strict)
endif()
if(REPORT)
  list(APPEND tool_args "--report=${REPORT}")
endif()
if(ACCEPT)
  list(APPEND tool_args "--accept=${ACCEPT}")
endif()

# Ninja creates the directories of a command's outputs; Makefile generators do not.
get_filename_component(output_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${output_dir}")
file(REMOVE "${OUTPUT}.tmp")
execute_process(COMMAND "${GPU_AUTOPAR_TOOL}" ${tool_args} -- ${compiler_args}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE "${OUTPUT}" "${OUTPUT}.tmp")
  # The tool's own diagnostics (file:line:col: error: ...) are above this line.
  message(FATAL_ERROR "gpu-autopar could not rewrite ${SOURCE} (exit status ${rc}); "
    "see the diagnostics above")
endif()

# A rewritten file starts with the runtime include (a C source spelling
# `restrict`: after `#define restrict __restrict__`) and `#line 1 "<source>"`;
# anything else is a verbatim copy (a "#line" further down, even in a comment,
# says nothing about the top).
file(READ "${OUTPUT}.tmp" text)
if(NOT text MATCHES "^(#define restrict __restrict__\r?\n)?(#include <gpu_autopar/gpu_autopar\\.h>\r?\n)?#line ")
  file(WRITE "${OUTPUT}.tmp" "#line 1 \"${SOURCE}\"\n${text}")
endif()
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")

# -DDEPFILE: the headers SOURCE includes (gpu_autopar_target passes the project's
# C++ compiler as DEP_SCANNER), so that editing one re-runs this rewrite. -MM
# leaves out system headers; -MG takes headers it cannot find (CUDA's, in a .cu
# file) as generated instead of failing. If the scanner fails anyway, the
# depfile names the source alone: a header edit then does not re-run the rewrite.
if(DEPFILE)
  execute_process(COMMAND "${DEP_SCANNER}" -x c++ -MM -MG -MT "${OUTPUT}" -MF "${DEPFILE}"
                          ${compiler_args} "${SOURCE}"
                  RESULT_VARIABLE dep_rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT dep_rc EQUAL 0)
    file(WRITE "${DEPFILE}" "${OUTPUT}: ${SOURCE}\n")
  endif()
endif()
