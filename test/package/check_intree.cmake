# package_intree: the in-tree gpu_autopar_target() build of saxpy runs on
# simulated devices and prints what the serial build prints; the tool's merged
# report says the loop was rewritten.
execute_process(COMMAND ${SERIAL} OUTPUT_VARIABLE serial RESULT_VARIABLE rc1)
set(ENV{GPU_AUTOPAR_DEVICES} sim:3)
execute_process(COMMAND ${PAR} OUTPUT_VARIABLE par RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "exit status: serial ${rc1}, rewritten ${rc2}")
endif()
if(NOT serial STREQUAL par OR serial STREQUAL "")
  message(FATAL_ERROR "rewritten saxpy printed\n${par}\nthe serial build printed\n${serial}")
endif()
file(READ "${REPORT}" report)
string(JSON decision GET "${report}" loops 0 decision)
if(NOT decision STREQUAL "rewritten")
  message(FATAL_ERROR "saxpy's loop was not rewritten: ${report}")
endif()
message(STATUS "in-tree saxpy on sim:3: ${par}")
