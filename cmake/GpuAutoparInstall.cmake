# Install rules and package files (the layout in README.md, tutorial step 1):
#   P/bin/gpu-autopar                    the tool (tool/CMakeLists.txt installs it into the export set)
#   P/include/gpu_autopar/               the runtime's public headers
#   P/lib/libgpu_autopar.a               the runtime
#   P/lib/cmake/GpuAutopar/              find_package(GpuAutopar) + gpu_autopar_target()
#   P/lib/pkgconfig/gpu-autopar.pc       pkg-config
# and, where MPI was found (docs/mpi.md):
#   P/lib/libgpu_autopar_mpi.a           GpuAutopar::runtime_mpi (own export set:
#                                        consumers without MPI still load the package)
#   P/lib/pkgconfig/gpu-autopar-mpi.pc
# Nothing installed names a build-tree or source-tree path: the CMake package
# resolves everything from its own location and the .pc file from ${pcfiledir}.
include(CMakePackageConfigHelpers)

set(GPU_AUTOPAR_INSTALL_CMAKEDIR lib/cmake/GpuAutopar)

# gpu_autopar_target() for projects that add this tree with add_subdirectory()
# or FetchContent: the in-tree targets stand in for the imported ones.
include(${CMAKE_CURRENT_LIST_DIR}/GpuAutoparTarget.cmake)

# Exported as GpuAutopar::runtime, the same name as the in-tree alias.
set_target_properties(gpu_autopar_runtime PROPERTIES EXPORT_NAME runtime)
install(TARGETS gpu_autopar_runtime EXPORT GpuAutoparTargets
  ARCHIVE DESTINATION lib
  INCLUDES DESTINATION include)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/gpu_autopar DESTINATION include)

install(EXPORT GpuAutoparTargets
  NAMESPACE GpuAutopar::
  DESTINATION ${GPU_AUTOPAR_INSTALL_CMAKEDIR})

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/GpuAutoparConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/GpuAutoparConfig.cmake
  INSTALL_DESTINATION ${GPU_AUTOPAR_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/GpuAutoparConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/GpuAutoparConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/GpuAutoparConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/GpuAutoparTarget.cmake
  ${CMAKE_CURRENT_LIST_DIR}/GpuAutoparRewrite.cmake
  ${CMAKE_CURRENT_LIST_DIR}/GpuAutoparMergeReports.cmake
  DESTINATION ${GPU_AUTOPAR_INSTALL_CMAKEDIR})

# @ONLY: ${pcfiledir} and friends are pkg-config's variables, not CMake's.
configure_file(${CMAKE_CURRENT_LIST_DIR}/gpu-autopar.pc.in
  ${CMAKE_CURRENT_BINARY_DIR}/gpu-autopar.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gpu-autopar.pc DESTINATION lib/pkgconfig)

if(TARGET gpu_autopar_runtime_mpi)
  set_target_properties(gpu_autopar_runtime_mpi PROPERTIES EXPORT_NAME runtime_mpi)
  install(TARGETS gpu_autopar_runtime_mpi EXPORT GpuAutoparMpiTargets ARCHIVE DESTINATION lib)
  install(EXPORT GpuAutoparMpiTargets
    NAMESPACE GpuAutopar::
    DESTINATION ${GPU_AUTOPAR_INSTALL_CMAKEDIR})
  find_package(MPI QUIET COMPONENTS C) # runtime/ found it; its variables live there
  set(GPU_AUTOPAR_MPI_PC_CFLAGS "")
  foreach(d IN LISTS MPI_C_INCLUDE_DIRS)
    string(APPEND GPU_AUTOPAR_MPI_PC_CFLAGS " -I${d}")
  endforeach()
  string(JOIN " " GPU_AUTOPAR_MPI_PC_LIBS ${MPI_C_LIBRARIES})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/gpu-autopar-mpi.pc.in
    ${CMAKE_CURRENT_BINARY_DIR}/gpu-autopar-mpi.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gpu-autopar-mpi.pc DESTINATION lib/pkgconfig)
endif()
