# gpu_autopar_target(<target> [SOURCES <src>...] [STRICT] [REPORT <file.json>]
#                    [LANGUAGE CXX|CUDA] [MPI] [ACCEPT omp|acc...])
#
# Makes gpu-autopar part of <target>'s build: each C/C++/CUDA source of the
# target (or only the SOURCES listed) is rewritten by the tool into
# <target's build dir>/gpu_autopar/<target>/<same relative path> at build time,
# the rewritten file is compiled instead of the original, and the runtime
# (GpuAutopar::runtime) is linked. A rewrite re-runs when its source, a header
# the source includes (Ninja and Makefile generators) or the tool changes.
#
#   STRICT    pass --strict: dependences the analysis cannot rule out are errors
#   REPORT    write every annotated loop's decision, mode and reasons (the tool's
#             --report, all sources merged) to this file; relative paths are
#             relative to the current build directory
#   ACCEPT    pass --accept=omp,acc: OpenMP (omp) and/or OpenACC (acc) loop
#             directives are annotations too (docs/migration.md)
#   LANGUAGE  compile the rewritten sources as CXX or CUDA. Default: CUDA when
#             the project enabled CUDA (with --extended-lambda, which the
#             rewritten kernel-mode lambdas need, --expt-relaxed-constexpr and
#             --diag-error 20011,20013, so that nvcc never drops a loop body),
#             else the source's own language.
#   MPI       link GpuAutopar::runtime_mpi: under mpirun, loops are split across
#             the ranks (docs/mpi.md)
#
# The tool parses each original with the target's include directories,
# compile definitions and C++ standard, and is given the source's absolute
# path, so the #line directives it writes make compiler errors name the
# original file and line. A rejected loop fails the rewrite step, and with it
# the build, with the tool's diagnostics.
#
# Call it once per target, after all of its sources were added: sources added
# later are compiled as they are.
#
# Works in-tree (add_subdirectory/FetchContent of gpu-autopar: the targets
# GpuAutopar::gpu-autopar and GpuAutopar::runtime are aliases there) and with an
# installed package (find_package(GpuAutopar): they are imported).
function(gpu_autopar_target target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "STRICT;MPI" "REPORT;LANGUAGE" "SOURCES;ACCEPT")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpu_autopar_target(${target}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  foreach(dialect IN LISTS arg_ACCEPT)
    if(NOT dialect MATCHES "^(omp|acc)$")
      message(FATAL_ERROR "gpu_autopar_target(${target}): ACCEPT takes omp and acc, not '${dialect}'")
    endif()
  endforeach()
  string(REPLACE ";" "," accept "${arg_ACCEPT}")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "gpu_autopar_target: '${target}' is not a target")
  endif()
  if(NOT TARGET GpuAutopar::gpu-autopar)
    message(FATAL_ERROR "gpu_autopar_target(${target}): the gpu-autopar tool is not available "
      "(configure gpu-autopar with GPU_AUTOPAR_BUILD_TOOL=ON, or install it and use find_package(GpuAutopar))")
  endif()
  # A second call would rewrite the rewritten copies (and link the runtime twice).
  get_target_property(done ${target} GPU_AUTOPAR_REWRITTEN)
  if(done)
    message(FATAL_ERROR "gpu_autopar_target(${target}) was already called for this target")
  endif()
  if(arg_MPI AND NOT TARGET GpuAutopar::runtime_mpi)
    message(FATAL_ERROR "gpu_autopar_target(${target} MPI): GpuAutopar::runtime_mpi is not available "
      "(gpu-autopar was built without MPI, or this project does not find MPI: install libopenmpi-dev)")
  endif()
  set_property(TARGET ${target} PROPERTY GPU_AUTOPAR_REWRITTEN ON)
  get_target_property(src_dir ${target} SOURCE_DIR)
  get_target_property(bin_dir ${target} BINARY_DIR)
  # Custom command outputs and source properties are per directory: the
  # rewrite rules must live where the target does.
  if(NOT src_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "gpu_autopar_target(${target}): call it in the directory that defines "
      "the target (${src_dir})")
  endif()

  set(language "")
  if(arg_LANGUAGE)
    if(NOT arg_LANGUAGE MATCHES "^(CXX|CUDA)$")
      message(FATAL_ERROR "gpu_autopar_target(${target}): LANGUAGE must be CXX or CUDA, not '${arg_LANGUAGE}'")
    endif()
    set(language ${arg_LANGUAGE})
  else()
    # "Enabled" must mean: in this directory. ENABLED_LANGUAGES is global, but
    # the rules to compile CUDA exist only where enable_language(CUDA) ran and
    # below; in-tree, gpu-autopar's own directory enables CUDA when nvcc exists,
    # which says nothing about the project that called add_subdirectory().
    if(CMAKE_CUDA_COMPILE_OBJECT)
      set(language CUDA)
    endif()
  endif()

  # In-tree the tool is built by this build: depend on the target (so it is
  # built first and a rebuilt tool re-runs the rewrites); installed, on its file.
  get_target_property(tool_target GpuAutopar::gpu-autopar ALIASED_TARGET)
  if(tool_target)
    set(tool_dep ${tool_target})
  else()
    set(tool_dep "$<TARGET_FILE:GpuAutopar::gpu-autopar>")
  endif()
  set(rewrite_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GpuAutoparRewrite.cmake")
  set(merge_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GpuAutoparMergeReports.cmake")

  # The original's compile flags, as the compiler would get them.
  set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(std "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  # Written into the command quoted: the ';' inside them must not split them
  # before the generator expressions are evaluated (COMMAND_EXPAND_LISTS splits after).
  set(std_flag "$<IF:$<BOOL:${std}>,-std=c++${std},-std=c++17>")
  set(inc_flags "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>")
  set(def_flags "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>")

  get_target_property(all_sources ${target} SOURCES)
  if(arg_SOURCES)
    set(candidates ${arg_SOURCES})
  else()
    set(candidates "")
    foreach(s IN LISTS all_sources)
      if(s MATCHES "\\.(c|cc|cpp|cxx|C|c\\+\\+|cu)$" AND NOT s MATCHES "\\$<")
        list(APPEND candidates ${s})
      endif()
    endforeach()
  endif()

  set(rewritten "")      # absolute paths of the originals that are replaced
  set(outputs "")        # the rewritten files, same order
  set(reports "")
  foreach(s IN LISTS candidates)
    get_filename_component(abs "${s}" ABSOLUTE BASE_DIR "${src_dir}")
    file(RELATIVE_PATH rel "${src_dir}" "${abs}")
    if(rel MATCHES "^\\.\\./")   # outside the target's directory: keep names apart
      get_filename_component(dir "${abs}" DIRECTORY)
      get_filename_component(name "${abs}" NAME)
      string(MD5 hash "${dir}")
      string(SUBSTRING "${hash}" 0 8 hash)
      set(rel "_ext/${hash}/${name}")
    endif()
    set(out "${bin_dir}/gpu_autopar/${target}/${rel}")
    get_filename_component(abs_dir "${abs}" DIRECTORY)

    set(report_args "")
    set(report_out "")
    if(arg_REPORT)
      set(report_out "${out}.report.json")
      set(report_args "-DREPORT=${report_out}")
      list(APPEND reports "${report_out}")
    endif()
    # The headers the source includes matter too: a header edit can change the
    # analysis (a function made constexpr turns a task-mode loop into a kernel-mode
    # one). The rewrite step lists them in a depfile, as a compiler would; only
    # the generators that read depfiles get one, and only from CMake 3.20 (the
    # version of CMP0116), where Makefile generators learnt DEPFILE.
    set(depfile_args "")
    set(depfile_defs "")
    if(CMAKE_CXX_COMPILER AND CMAKE_GENERATOR MATCHES "Ninja|Makefiles" AND POLICY CMP0116)
      set(depfile_args DEPFILE "${out}.d")
      set(depfile_defs "-DDEPFILE=${out}.d" "-DDEP_SCANNER=${CMAKE_CXX_COMPILER}")
    endif()
    # CMP0116 NEW whatever the calling project says: under OLD (a project whose
    # cmake_minimum_required is below 3.20) Ninja takes the depfile as written and
    # then sees every rewrite as out of date on every build.
    if(POLICY CMP0116)
      cmake_policy(PUSH)
      cmake_policy(SET CMP0116 NEW)
    endif()
    add_custom_command(OUTPUT "${out}" ${report_out}
      COMMAND ${CMAKE_COMMAND}
        "-DGPU_AUTOPAR_TOOL=$<TARGET_FILE:GpuAutopar::gpu-autopar>"
        "-DSOURCE=${abs}" "-DOUTPUT=${out}" ${report_args} "-DSTRICT=${arg_STRICT}" "-DACCEPT=${accept}"
        ${depfile_defs}
        -P "${rewrite_script}" -- "${std_flag}" "${inc_flags}" "${def_flags}" "-I${abs_dir}"
      DEPENDS "${abs}" ${tool_dep} "${rewrite_script}"
      ${depfile_args}
      COMMENT "gpu-autopar: rewriting ${rel} (${target})"
      COMMAND_EXPAND_LISTS VERBATIM)
    if(POLICY CMP0116)
      cmake_policy(POP)
    endif()
    # Quoted includes of the original resolve against its own directory.
    set_source_files_properties("${out}" PROPERTIES GENERATED TRUE INCLUDE_DIRECTORIES "${abs_dir}")
    if(language)
      set_source_files_properties("${out}" PROPERTIES LANGUAGE ${language})
    elseif(abs MATCHES "\\.c$")
      # A C source is rewritten as C++ (the loops become lambdas; casts and
      # `restrict` made C++): compiled as C++, also where C is not enabled.
      set_source_files_properties("${out}" PROPERTIES LANGUAGE CXX)
    endif()
    list(APPEND rewritten "${abs}")
    list(APPEND outputs "${out}")
  endforeach()

  # Compile the rewritten files in place of the originals, keeping the order.
  set(new_sources "")
  foreach(s IN LISTS all_sources)
    get_filename_component(abs "${s}" ABSOLUTE BASE_DIR "${src_dir}")
    list(FIND rewritten "${abs}" idx)
    if(idx EQUAL -1)
      list(APPEND new_sources "${s}")
    else()
      list(GET outputs ${idx} out)
      list(APPEND new_sources "${out}")
    endif()
  endforeach()
  foreach(out IN LISTS outputs)   # SOURCES given that the target did not list
    if(NOT out IN_LIST new_sources)
      list(APPEND new_sources "${out}")
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES ${new_sources})

  if(arg_REPORT)
    get_filename_component(report "${arg_REPORT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    add_custom_command(OUTPUT "${report}"
      COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${report}" -P "${merge_script}" -- ${reports}
      DEPENDS ${reports} "${merge_script}"
      COMMENT "gpu-autopar: loop report ${arg_REPORT} (${target})"
      VERBATIM)
    # A custom command output among the sources is built with the target.
    target_sources(${target} PRIVATE "${report}")
  endif()

  target_link_libraries(${target} PRIVATE GpuAutopar::runtime)
  if(arg_MPI)
    target_link_libraries(${target} PRIVATE GpuAutopar::runtime_mpi)
  endif()
  if(language STREQUAL "CUDA")
    # --expt-relaxed-constexpr: bodies may call constexpr host functions
    # (std::min); --diag-error: a body nvcc cannot compile for the device is a
    # build error, not a warning and a kernel without its body.
    target_compile_options(${target} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda;--expt-relaxed-constexpr;SHELL:--diag-error 20011,20013>")
  endif()
endfunction()
