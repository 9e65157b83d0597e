# Runs the same ELF twice and requires byte-identical JSON and CSV reports.
foreach(i 1 2)
  execute_process(COMMAND ${SIM} run --bare -q ${ELF} --report-json ${WORKDIR}/det_${i}.json
                          --report-csv ${WORKDIR}/det_${i}.csv
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} of ${ELF} exited with ${rc}")
  endif()
endforeach()
foreach(ext json csv)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORKDIR}/det_1.${ext} ${WORKDIR}/det_2.${ext}
                  RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    message(FATAL_ERROR "the two ${ext} reports of ${ELF} differ")
  endif()
endforeach()
file(READ ${WORKDIR}/det_1.json report)
string(JSON cycles GET "${report}" cycles)
if(cycles LESS_EQUAL 0)
  message(FATAL_ERROR "report has no cycle count")
endif()
message(STATUS "identical reports, ${cycles} cycles")
