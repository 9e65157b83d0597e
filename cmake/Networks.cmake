# Training-step programs generated from a network description (kernels/tools/network_gen.py).
#
#   pulpsim_add_network(NAME <program> DESCRIPTION <file.yaml> [PERTURB <check>] [OUTPUT_DIR <dir>])
#
# validates the description at configure time (a bad one stops the configure with "FILE:LINE: message"),
# generates the program and its tensors at build time (PyTorch) and builds <program>.elf like the other
# cluster programs. The program is linked for the description's l2_size (default 4 MiB): run it with an
# l2.size at least as large. PERTURB moves one expected value off, for the test that a mismatch fails.
#
# -DPULPSIM_NETWORKS="a.yaml;b.yaml" builds a program per description, named after its `network:` key, into
# build/kernels/user/ (out of the shipped programs that the cycle baselines must cover).
#
# Included on its own (a project of your own), it brings in the cross-build and the PyTorch interpreter.
set(PULPSIM_NETWORK_TOOLS ${CMAKE_CURRENT_LIST_DIR}/../kernels/tools)
cmake_path(NORMAL_PATH PULPSIM_NETWORK_TOOLS)
if(NOT COMMAND pulpsim_add_riscv_program)
  include(${CMAKE_CURRENT_LIST_DIR}/RiscvPrograms.cmake)
endif()
if(NOT PULPSIM_TORCH_PYTHON)
  include(${CMAKE_CURRENT_LIST_DIR}/GoldenModels.cmake)
endif()

function(pulpsim_add_network)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;DESCRIPTION;PERTURB;OUTPUT_DIR" "")
  if(NOT ARG_NAME OR NOT ARG_DESCRIPTION)
    message(FATAL_ERROR "pulpsim_add_network: NAME and DESCRIPTION are required")
  endif()
  cmake_path(ABSOLUTE_PATH ARG_DESCRIPTION BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE
             OUTPUT_VARIABLE description)
  # Two descriptions with one network: name would otherwise stop the configure with CMake's own words.
  get_property(earlier GLOBAL PROPERTY pulpsim_network_${ARG_NAME})
  if(earlier OR TARGET riscv_${ARG_NAME})
    message(FATAL_ERROR "${description}: a program named ${ARG_NAME} is already built"
                        "${earlier}: give it another name (for -DPULPSIM_NETWORKS, its network: key)")
  endif()
  set_property(GLOBAL PROPERTY pulpsim_network_${ARG_NAME} " from ${description}")
  set(generator ${PULPSIM_NETWORK_TOOLS}/network_gen.py)
  execute_process(COMMAND ${PULPSIM_TORCH_PYTHON} ${generator} check --print l2-size ${description}
                  OUTPUT_VARIABLE l2_size ERROR_VARIABLE error RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${error}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${description} ${generator})
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME})
  set(perturb)
  if(ARG_PERTURB)
    set(perturb --perturb ${ARG_PERTURB})
  endif()
  set(outputs ${dir}/network.c ${dir}/network_data.S ${dir}/weights.bin ${dir}/golden.bin)
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${PULPSIM_TORCH_PYTHON} ${generator} generate ${description} --out-dir ${dir} --name ${ARG_NAME} ${perturb}
    DEPENDS ${description} ${generator} ${PULPSIM_NETWORK_TOOLS}/network_golden.py
    COMMENT "Network training step ${ARG_NAME} from ${ARG_DESCRIPTION}"
    VERBATIM)
  set(lib ${PULPSIM_NETWORK_TOOLS}/../lib)
  set(output_dir)
  if(ARG_OUTPUT_DIR)
    set(output_dir OUTPUT_DIR ${ARG_OUTPUT_DIR})
  endif()
  pulpsim_add_riscv_program(NAME ${ARG_NAME} RUNTIME cluster
    SOURCES ${dir}/network.c ${dir}/network_data.S ${lib}/network_layers.c ${lib}/train_layers.c
            ${lib}/tiled_matmul.c ${lib}/matmul_l1.c ${lib}/matmul_fp32.c ${lib}/depthwise_tiled.c
            ${lib}/depthwise_fp32.c ${lib}/im2col_fp32.c ${lib}/train_ops_fp32.c ${lib}/activations_fp32.c
    INCLUDES ${lib}
    DEPENDS ${outputs}
    LDFLAGS --defsym=__l2_size=${l2_size} ${output_dir})
endfunction()
