# A project of one's own that includes cmake/Networks.cmake alone configures a network program (the file brings
# in the cross-build and the PyTorch interpreter itself); a second description under a name already taken
# stops the configure with one message naming both descriptions.
file(REMOVE_RECURSE ${WORKDIR})
set(description ${SOURCE_DIR}/kernels/networks/dae_small.yaml)
foreach(case one two)
  set(project ${WORKDIR}/${case})
  string(CONCAT text "cmake_minimum_required(VERSION 3.25)\nproject(own_networks NONE)\n"
           "include(${SOURCE_DIR}/cmake/Networks.cmake)\n"
           "pulpsim_add_network(NAME my_net DESCRIPTION ${description})\n")
  if(case STREQUAL "two")
    string(APPEND text "pulpsim_add_network(NAME my_net DESCRIPTION "
                       "${SOURCE_DIR}/kernels/networks/ds_cnn_small.yaml)\n")
  endif()
  file(WRITE ${project}/CMakeLists.txt "${text}")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${project} -B ${project}/build -G Ninja
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(case STREQUAL "one" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "including Networks.cmake alone: the configure failed:\n${out}")
  endif()
  if(case STREQUAL "two")
    string(REGEX REPLACE "[ \n]+" " " flat "${out}")
    set(expected "ds_cnn_small.yaml: a program named my_net is already built from [^ ]*dae_small.yaml")
    if(rc EQUAL 0 OR NOT flat MATCHES "${expected}")
      message(FATAL_ERROR "two descriptions named my_net: expected an error naming both, got (${rc}):\n${out}")
    endif()
  endif()
endforeach()
