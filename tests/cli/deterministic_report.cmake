# Runs the same ELF twice (bare mode, or the default cluster with MODE=cluster) and requires byte-identical
# JSON and CSV reports.
set(platform_args --bare)
set(tag bare)
if(MODE STREQUAL "cluster")
  set(platform_args)
  set(tag cluster)
endif()
foreach(i 1 2)
  execute_process(COMMAND ${SIM} run ${platform_args} -q ${ELF} --report-json ${WORKDIR}/det_${tag}_${i}.json
                          --report-csv ${WORKDIR}/det_${tag}_${i}.csv
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} of ${ELF} exited with ${rc}")
  endif()
endforeach()
foreach(ext json csv)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORKDIR}/det_${tag}_1.${ext} ${WORKDIR}/det_${tag}_2.${ext}
                  RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    message(FATAL_ERROR "the two ${ext} reports of ${ELF} differ")
  endif()
endforeach()
file(READ ${WORKDIR}/det_${tag}_1.json report)
string(JSON cycles GET "${report}" cycles)
if(cycles LESS_EQUAL 0)
  message(FATAL_ERROR "report has no cycle count")
endif()
message(STATUS "identical reports, ${cycles} cycles")
