# PyTorch golden data for the kernel programs (kernels/golden/golden.py).
#
#   pulpsim_golden_header(<var> NAME <program> SUITE <suite> PARAMS NAME=VALUE... [PERTURB <step>])
#
# adds a build step writing ${CMAKE_CURRENT_BINARY_DIR}/golden/<program>/golden_data.h and sets <var> to
# that header; pass its folder in the program's INCLUDES and the header in its DEPENDS. PARAMS should be
# the program's shape DEFINES: the header refuses to compile with other values. PERTURB moves one expected
# value off, for the test that a mismatch fails the program.
#
#   pulpsim_add_golden_program(NAME <program> SUITE <suite> SHAPE NAME=VALUE... [PERTURB <step>]
#                              <more pulpsim_add_riscv_program arguments>)
#
# does both for a cluster program: SHAPE goes to the golden data and to the program's DEFINES, the header's
# folder to its INCLUDES (after kernels/lib).
#
# The Python interpreter must import torch (Debian's python3-torch, installed by scripts/install-deps.sh).
# A Python3_EXECUTABLE from a virtualenv or pyenv may not see it, so /usr/bin/python3 is tried next;
# -DPULPSIM_TORCH_PYTHON=<path> picks one.
set(PULPSIM_GOLDEN_DIR ${CMAKE_CURRENT_LIST_DIR}/../kernels/golden)
cmake_path(NORMAL_PATH PULPSIM_GOLDEN_DIR)

if(NOT PULPSIM_TORCH_PYTHON)
  foreach(candidate ${Python3_EXECUTABLE} /usr/bin/python3)
    execute_process(COMMAND ${candidate} -c "import torch" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc EQUAL 0)
      set(PULPSIM_TORCH_PYTHON ${candidate} CACHE FILEPATH "Python interpreter that imports torch (golden models)")
      break()
    endif()
  endforeach()
  if(NOT PULPSIM_TORCH_PYTHON)
    message(FATAL_ERROR "The kernel programs' golden data needs PyTorch, and neither ${Python3_EXECUTABLE} nor "
                        "/usr/bin/python3 can import torch: run scripts/install-deps.sh (Debian's python3-torch), "
                        "set -DPULPSIM_TORCH_PYTHON=<python with torch>, or -DPULPSIM_BUILD_KERNELS=OFF.")
  endif()
  message(STATUS "Golden models: ${PULPSIM_TORCH_PYTHON}")
endif()

function(pulpsim_golden_header out_var)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "NAME;SUITE;PERTURB" "PARAMS")
  if(NOT ARG_NAME OR NOT ARG_SUITE)
    message(FATAL_ERROR "pulpsim_golden_header: NAME and SUITE are required")
  endif()
  set(header ${CMAKE_CURRENT_BINARY_DIR}/golden/${ARG_NAME}/golden_data.h)
  file(GLOB scripts CONFIGURE_DEPENDS ${PULPSIM_GOLDEN_DIR}/*.py)
  set(perturb)
  if(ARG_PERTURB)
    set(perturb --perturb ${ARG_PERTURB})
  endif()
  add_custom_command(OUTPUT ${header}
    COMMAND ${PULPSIM_TORCH_PYTHON} ${PULPSIM_GOLDEN_DIR}/golden.py ${ARG_SUITE} --out ${header} ${perturb} ${ARG_PARAMS}
    DEPENDS ${scripts}
    COMMENT "PyTorch golden data for ${ARG_NAME}"
    VERBATIM)
  set(${out_var} ${header} PARENT_SCOPE)
endfunction()

function(pulpsim_add_golden_program)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;SUITE;PERTURB" "SHAPE;SOURCES;DEFINES;INCLUDES")
  set(perturb)
  if(ARG_PERTURB)
    set(perturb PERTURB ${ARG_PERTURB})
  endif()
  pulpsim_golden_header(golden NAME ${ARG_NAME} SUITE ${ARG_SUITE} PARAMS ${ARG_SHAPE} ${perturb})
  cmake_path(GET golden PARENT_PATH golden_dir)
  pulpsim_add_riscv_program(NAME ${ARG_NAME} RUNTIME cluster SOURCES ${ARG_SOURCES}
                            INCLUDES ${PULPSIM_GOLDEN_DIR}/../lib ${golden_dir} ${ARG_INCLUDES}
                            DEFINES ${ARG_SHAPE} ${ARG_DEFINES} DEPENDS ${golden} ${ARG_UNPARSED_ARGUMENTS})
endfunction()
