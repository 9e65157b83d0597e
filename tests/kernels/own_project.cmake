# The kernel project of kernels/examples/own_project, configured and built outside the pulpsim tree as its
# README section says (kernels/README.md, "A project of your own"), then run: its check passes and its one
# region reports the MACs it declares.
file(REMOVE_RECURSE ${WORKDIR})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/kernels/examples/own_project -B ${WORKDIR} -G Ninja
                        -DPULPSIM_DIR=${SOURCE_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the project failed:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORKDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORKDIR}/own_axpy.elf)
  message(FATAL_ERROR "building the project failed:\n${out}")
endif()
execute_process(COMMAND ${SIM} run -q --report-json ${WORKDIR}/report.json ${WORKDIR}/own_axpy.elf
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "own_axpy 1024 on 8 cores: OK")
  message(FATAL_ERROR "own_axpy.elf: exit ${rc}: ${out}${err}")
endif()
file(READ ${WORKDIR}/report.json report)
string(JSON name GET "${report}" regions 0 name)
string(JSON macs GET "${report}" regions 0 macs)
if(NOT name STREQUAL "axpy" OR NOT macs EQUAL 1024)
  message(FATAL_ERROR "expected region axpy with 1024 MACs, got ${name} with ${macs}")
endif()
