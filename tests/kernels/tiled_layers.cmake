# Runs one program of kernels/apps/tiled_layers on pulpsim and checks both its exit status and its output
# (a PASS_REGULAR_EXPRESSION alone would ignore the exit status).
#
#   cmake -DSIM=<pulpsim> -DELF=<program.elf> [-DSETS=key=value,key=value...] [-DEXPECT=<regex>]
#         [-DEXIT=<status>] -P tiled_layers.cmake
#
# SETS become --set options; EXPECT defaults to ": OK$" on a line, EXIT to 0.
if(NOT SIM OR NOT ELF)
  message(FATAL_ERROR "tiled_layers.cmake needs -DSIM=... and -DELF=...")
endif()
if(NOT DEFINED EXPECT)
  set(EXPECT ": OK\n")
endif()
if(NOT DEFINED EXIT)
  set(EXIT 0)
endif()
set(args run -q)
if(SETS)
  string(REPLACE "," ";" sets "${SETS}")
  foreach(s IN LISTS sets)
    list(APPEND args --set ${s})
  endforeach()
endif()
execute_process(COMMAND ${SIM} ${args} ${ELF} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
string(JOIN " " shown ${args})
if(NOT rc STREQUAL "${EXIT}")
  message(FATAL_ERROR "pulpsim ${shown} ${ELF}: exit status ${rc}, expected ${EXIT}\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "pulpsim ${shown} ${ELF}: output does not match '${EXPECT}'\n${out}${err}")
endif()
message(STATUS "pulpsim ${shown} ${ELF}: exit ${rc}\n${out}${err}")
