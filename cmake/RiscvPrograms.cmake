# Cross-building RISC-V programs for pulpsim with clang-19, ld.lld-19 and picolibc.
#
#   pulpsim_add_riscv_program(NAME <name> SOURCES <file.c|file.S>...
#                             [INCLUDES <dir>...] [DEFINES <NAME[=value]>...]
#                             [DEPENDS <file>...] [CFLAGS <flag>...] [LDFLAGS <flag>...]
#                             [NO_RUNTIME] [LINKER_SCRIPT <file>] [MARCH <string>]
#                             [OUTPUT_DIR <dir>] [RUNTIME bare|cluster])
#
# builds <OUTPUT_DIR>/<name>.elf (default ${CMAKE_BINARY_DIR}/kernels), plus <name>.map and a
# disassembly <name>.dis, through the target riscv_<name> (in ALL). The ELF path is available as
#   - ${<name>_ELF} in the calling directory,
#   - the PULPSIM_ELF property of target riscv_<name> from anywhere, e.g.
#     add_test(NAME ... COMMAND pulpsim $<TARGET_PROPERTY:riscv_<name>,PULPSIM_ELF>),
#   - the global property PULPSIM_RISCV_PROGRAMS lists every <name>.
# The target riscv_programs builds them all.
#
# Without NO_RUNTIME, the program is linked with kernels/runtime (crt0, stdio glue, link.ld),
# picolibc's libc (which includes libm) and libgcc. NO_RUNTIME links only the given sources (which
# bring their own _start) against LINKER_SCRIPT or kernels/runtime/bare.ld. Header changes rebuild
# through depfiles; DEPENDS adds files the compile steps wait for (e.g. generated headers).
include_guard(GLOBAL)

# Script mode helper: writes the disassembly of an ELF to a file.
#   cmake -DOBJDUMP=... -DELF=... -DOUT=... -P RiscvPrograms.cmake
if(CMAKE_SCRIPT_MODE_FILE)
  execute_process(COMMAND ${OBJDUMP} -d -t --no-print-imm-hex ${ELF} OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "disassembly of ${ELF} failed")
  endif()
  return()
endif()

set(PULPSIM_RISCV_RUNTIME_DIR ${CMAKE_CURRENT_LIST_DIR}/../kernels/runtime)
cmake_path(NORMAL_PATH PULPSIM_RISCV_RUNTIME_DIR)
set(PULPSIM_RISCV_RUNTIME_SOURCES ${PULPSIM_RISCV_RUNTIME_DIR}/crt0.S ${PULPSIM_RISCV_RUNTIME_DIR}/runtime.c)
# RUNTIME cluster: every core starts in crt0_cluster.S; code in L2, .tcdm data and stacks in the TCDM.
set(PULPSIM_RISCV_CLUSTER_RUNTIME_SOURCES ${PULPSIM_RISCV_RUNTIME_DIR}/crt0_cluster.S
    ${PULPSIM_RISCV_RUNTIME_DIR}/runtime.c ${PULPSIM_RISCV_RUNTIME_DIR}/cluster.c
    ${PULPSIM_RISCV_RUNTIME_DIR}/dma.c)

# --- tools --------------------------------------------------------------------------------------
find_program(PULPSIM_RISCV_CC NAMES clang-19 DOC "clang 19 used to cross-compile RISC-V kernels")
if(NOT PULPSIM_RISCV_CC)
  message(FATAL_ERROR "clang-19 not found. Install the Debian package clang-19 (scripts/install-deps.sh), "
                      "set PULPSIM_RISCV_CC, or configure with -DPULPSIM_BUILD_KERNELS=OFF.")
endif()
find_program(PULPSIM_RISCV_LD NAMES ld.lld-19 DOC "lld 19 used to link RISC-V kernels")
if(NOT PULPSIM_RISCV_LD)
  message(FATAL_ERROR "ld.lld-19 not found. Install the Debian package lld-19 (scripts/install-deps.sh), "
                      "set PULPSIM_RISCV_LD, or configure with -DPULPSIM_BUILD_KERNELS=OFF.")
endif()
find_program(PULPSIM_RISCV_OBJDUMP NAMES llvm-objdump-19 DOC "llvm-objdump 19 (optional, for .dis listings)")

# --- picolibc and libgcc --------------------------------------------------------------------------
set(PULPSIM_PICOLIBC_ROOT /usr/lib/picolibc/riscv64-unknown-elf
    CACHE PATH "picolibc install prefix for RISC-V")
set(PULPSIM_PICOLIBC_MULTILIB rv32imf/ilp32f
    CACHE STRING "picolibc multilib directory (no A, no D: PULP cores)")
find_path(PULPSIM_PICOLIBC_INCLUDE_DIR picolibc.h PATHS ${PULPSIM_PICOLIBC_ROOT}/include NO_DEFAULT_PATH)
find_file(PULPSIM_PICOLIBC_LIBC libc.a
          PATHS ${PULPSIM_PICOLIBC_ROOT}/lib/release/${PULPSIM_PICOLIBC_MULTILIB}
                ${PULPSIM_PICOLIBC_ROOT}/lib/${PULPSIM_PICOLIBC_MULTILIB}
          NO_DEFAULT_PATH)
# picolibc's libc.a holds the math functions too; Debian's libm.a is an empty placeholder (with an
# RV64 object in it), so it is not linked.
if(NOT PULPSIM_PICOLIBC_INCLUDE_DIR OR NOT PULPSIM_PICOLIBC_LIBC)
  message(FATAL_ERROR "picolibc for RISC-V not found under ${PULPSIM_PICOLIBC_ROOT} "
                      "(multilib ${PULPSIM_PICOLIBC_MULTILIB}). Install the Debian package "
                      "picolibc-riscv64-unknown-elf or set PULPSIM_PICOLIBC_ROOT.")
endif()

# libgcc supplies 64-bit division and soft double (printf's %f); it comes with
# gcc-riscv64-unknown-elf, a dependency of the picolibc package.
if(NOT PULPSIM_RISCV_LIBGCC)
  find_program(_pulpsim_riscv_gcc NAMES riscv64-unknown-elf-gcc)
  if(_pulpsim_riscv_gcc)
    execute_process(COMMAND ${_pulpsim_riscv_gcc} -march=rv32imf -mabi=ilp32f -print-libgcc-file-name
                    OUTPUT_VARIABLE _pulpsim_libgcc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  if(NOT _pulpsim_libgcc OR NOT EXISTS "${_pulpsim_libgcc}")
    file(GLOB _pulpsim_libgcc /usr/lib/gcc/riscv64-unknown-elf/*/${PULPSIM_PICOLIBC_MULTILIB}/libgcc.a)
    list(SORT _pulpsim_libgcc COMPARE NATURAL ORDER DESCENDING)
    list(POP_FRONT _pulpsim_libgcc _pulpsim_libgcc)
  endif()
  if(NOT _pulpsim_libgcc OR NOT EXISTS "${_pulpsim_libgcc}")
    message(FATAL_ERROR "libgcc.a for ${PULPSIM_PICOLIBC_MULTILIB} not found. Install the Debian package "
                        "gcc-riscv64-unknown-elf or set PULPSIM_RISCV_LIBGCC.")
  endif()
  set(PULPSIM_RISCV_LIBGCC ${_pulpsim_libgcc} CACHE FILEPATH "libgcc.a for the RISC-V kernels")
endif()

# --- flags --------------------------------------------------------------------------------------
set(PULPSIM_RISCV_MARCH
    rv32imfc_zicsr_zifencei_zfh_xcvmem_xcvmac_xcvalu_xcvbi_xcvbitmanip_xcvsimd_xcvelw
    CACHE STRING "Default -march of the RISC-V kernels (CV32E40P v2: RV32IMFC + Zfh + CORE-V extensions)")
# Plain RV32IMFC, for programs that must also run on qemu-riscv32 (no CORE-V instructions).
set(PULPSIM_RISCV_MARCH_BASE rv32imfc_zicsr_zifencei)
set(PULPSIM_RISCV_PRINTF double CACHE STRING
    "printf/scanf variant of picolibc: double (full), float (%f takes printf_float(x)), integer (no %f)")
set_property(CACHE PULPSIM_RISCV_PRINTF PROPERTY STRINGS double float integer)

# -g gives `pulpsim run --profile-lines` its DWARF line tables. It is not neutral with clang 19: it changes
# the register allocation of some unrolled matmul kernels (mm_unroll_* of kernels/lib/matmul_fp32.c), so
# building without it moves their cycle counts.
set(PULPSIM_RISCV_CFLAGS
    --target=riscv32-unknown-elf -mabi=ilp32f -O3 -g -std=gnu11
    -ffunction-sections -fdata-sections -fno-common -nostdlib
    # picolibc keeps errno in TLS; its specs use local-exec, as a static program allows.
    -ftls-model=local-exec
    -nostdlibinc -isystem ${PULPSIM_PICOLIBC_INCLUDE_DIR}
    -Wall -Wextra -Werror)
set(PULPSIM_RISCV_LDFLAGS --gc-sections -static)
if(PULPSIM_RISCV_PRINTF STREQUAL "integer")
  list(APPEND PULPSIM_RISCV_LDFLAGS --defsym=vfprintf=__i_vfprintf --defsym=vfscanf=__i_vfscanf)
elseif(PULPSIM_RISCV_PRINTF STREQUAL "float")
  list(APPEND PULPSIM_RISCV_LDFLAGS --defsym=vfprintf=__f_vfprintf --defsym=vfscanf=__f_vfscanf)
elseif(NOT PULPSIM_RISCV_PRINTF STREQUAL "double")
  message(FATAL_ERROR "PULPSIM_RISCV_PRINTF must be double, float or integer")
endif()

if(NOT TARGET riscv_programs)
  add_custom_target(riscv_programs)
endif()

# Object file name for a source: its path relative to the current source (or binary) directory.
function(_pulpsim_riscv_object_name src out_var)
  cmake_path(IS_PREFIX CMAKE_CURRENT_SOURCE_DIR "${src}" NORMALIZE _in_src)
  cmake_path(IS_PREFIX CMAKE_CURRENT_BINARY_DIR "${src}" NORMALIZE _in_bin)
  if(_in_bin)
    cmake_path(RELATIVE_PATH src BASE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} OUTPUT_VARIABLE _rel)
    set(_rel "gen/${_rel}")
  elseif(_in_src)
    cmake_path(RELATIVE_PATH src BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} OUTPUT_VARIABLE _rel)
  else()
    cmake_path(GET src FILENAME _rel)
    set(_rel "ext/${_rel}")
  endif()
  set(${out_var} "${_rel}.o" PARENT_SCOPE)
endfunction()

# One compile step: `src` to `obj` with `cflags`, after `deps`, run in `workdir` (the debug information's
# compile directory); `shown` names what it is for in the build's log.
function(_pulpsim_riscv_compile src obj cflags deps shown workdir)
  cmake_path(RELATIVE_PATH src BASE_DIRECTORY ${CMAKE_SOURCE_DIR} OUTPUT_VARIABLE src_shown)
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${PULPSIM_RISCV_CC} ${cflags} -MD -MF ${obj}.d -c ${src} -o ${obj}
    DEPENDS ${deps}
    DEPFILE ${obj}.d
    WORKING_DIRECTORY ${workdir}
    COMMENT "RISC-V CC ${src_shown} (${shown})"
    COMMAND_EXPAND_LISTS VERBATIM)
endfunction()

# The runtime does not see a program's DEFINES, INCLUDES or DEPENDS: its objects depend only on the
# runtime kind, -march and CFLAGS, so programs that share those share one compiled runtime (it was the
# largest part of the kernels' build when every program compiled its own copy). The first program of
# a set defines the compile rules and a target that builds them; the others depend on that target.
function(_pulpsim_riscv_runtime_objects runtime_sources runtime_cflags out_objects out_target)
  string(MD5 key "${runtime_sources}|${runtime_cflags}")
  string(SUBSTRING ${key} 0 12 key)
  set(objdir ${CMAKE_BINARY_DIR}/riscv_runtime/${key})
  set(objects)
  foreach(src IN LISTS runtime_sources)
    cmake_path(GET src FILENAME fname)
    list(APPEND objects ${objdir}/${fname}.o)
  endforeach()
  set(${out_objects} ${objects} PARENT_SCOPE)
  set(${out_target} riscv_runtime_${key} PARENT_SCOPE)
  if(TARGET riscv_runtime_${key})
    return()
  endif()
  file(MAKE_DIRECTORY ${objdir})
  foreach(src obj IN ZIP_LISTS runtime_sources objects)
    _pulpsim_riscv_compile(${src} ${obj} "${runtime_cflags}" "${src}" "runtime ${key}" ${objdir})
  endforeach()
  add_custom_target(riscv_runtime_${key} DEPENDS ${objects})
endfunction()

function(pulpsim_add_riscv_program)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "NO_RUNTIME" "NAME;LINKER_SCRIPT;MARCH;OUTPUT_DIR;RUNTIME"
                        "SOURCES;INCLUDES;DEFINES;DEPENDS;CFLAGS;LDFLAGS")
  if(NOT ARG_NAME)
    message(FATAL_ERROR "pulpsim_add_riscv_program: NAME is required")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "pulpsim_add_riscv_program(${ARG_NAME}): SOURCES is required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pulpsim_add_riscv_program(${ARG_NAME}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_MARCH)
    set(ARG_MARCH ${PULPSIM_RISCV_MARCH})
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${CMAKE_BINARY_DIR}/kernels)
  endif()
  cmake_path(ABSOLUTE_PATH ARG_OUTPUT_DIR BASE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} NORMALIZE)
  set(runtime_sources ${PULPSIM_RISCV_RUNTIME_SOURCES})
  if(ARG_RUNTIME STREQUAL "cluster")
    set(runtime_sources ${PULPSIM_RISCV_CLUSTER_RUNTIME_SOURCES})
  elseif(ARG_RUNTIME AND NOT ARG_RUNTIME STREQUAL "bare")
    message(FATAL_ERROR "pulpsim_add_riscv_program(${ARG_NAME}): RUNTIME must be bare or cluster")
  endif()
  if(NOT ARG_LINKER_SCRIPT)
    if(ARG_NO_RUNTIME)
      set(ARG_LINKER_SCRIPT ${PULPSIM_RISCV_RUNTIME_DIR}/bare.ld)
    elseif(ARG_RUNTIME STREQUAL "cluster")
      set(ARG_LINKER_SCRIPT ${PULPSIM_RISCV_RUNTIME_DIR}/link_cluster.ld)
    else()
      set(ARG_LINKER_SCRIPT ${PULPSIM_RISCV_RUNTIME_DIR}/link.ld)
    endif()
  endif()
  cmake_path(ABSOLUTE_PATH ARG_LINKER_SCRIPT BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE)

  set(elf ${ARG_OUTPUT_DIR}/${ARG_NAME}.elf)
  set(map ${ARG_OUTPUT_DIR}/${ARG_NAME}.map)
  set(dis ${ARG_OUTPUT_DIR}/${ARG_NAME}.dis)
  set(objdir ${CMAKE_CURRENT_BINARY_DIR}/riscv_${ARG_NAME}.dir)

  # A build that only changes the host side (e.g. the sanitizer build) copies the programs of another build:
  # they do not depend on the host compiler.
  if(PULPSIM_PREBUILT_PROGRAMS)
    cmake_path(RELATIVE_PATH elf BASE_DIRECTORY ${CMAKE_BINARY_DIR} OUTPUT_VARIABLE elf_rel)
    cmake_path(RELATIVE_PATH dis BASE_DIRECTORY ${CMAKE_BINARY_DIR} OUTPUT_VARIABLE dis_rel)
    add_custom_command(
      OUTPUT ${elf} ${dis}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${ARG_OUTPUT_DIR}
      COMMAND ${CMAKE_COMMAND} -E copy ${PULPSIM_PREBUILT_PROGRAMS}/${elf_rel} ${elf}
      COMMAND ${CMAKE_COMMAND} -E copy ${PULPSIM_PREBUILT_PROGRAMS}/${dis_rel} ${dis}
      DEPENDS ${PULPSIM_PREBUILT_PROGRAMS}/${elf_rel}
      COMMENT "RISC-V copy ${ARG_NAME}.elf"
      VERBATIM)
    add_custom_target(riscv_${ARG_NAME} ALL DEPENDS ${elf} ${dis})
    set_target_properties(riscv_${ARG_NAME} PROPERTIES PULPSIM_ELF ${elf})
    add_dependencies(riscv_programs riscv_${ARG_NAME})
    set(${ARG_NAME}_ELF ${elf} PARENT_SCOPE)
    return()
  endif()

  set(cflags ${PULPSIM_RISCV_CFLAGS} -march=${ARG_MARCH})
  set(runtime_cflags ${cflags} -I${PULPSIM_RISCV_RUNTIME_DIR} ${ARG_CFLAGS})
  foreach(dir IN LISTS ARG_INCLUDES)
    cmake_path(ABSOLUTE_PATH dir BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE)
    list(APPEND cflags -I${dir})
  endforeach()
  list(APPEND cflags -I${PULPSIM_RISCV_RUNTIME_DIR})
  foreach(def IN LISTS ARG_DEFINES)
    list(APPEND cflags -D${def})
  endforeach()
  list(APPEND cflags ${ARG_CFLAGS})

  set(objects)
  if(NOT ARG_NO_RUNTIME)
    _pulpsim_riscv_runtime_objects("${runtime_sources}" "${runtime_cflags}" runtime_objects runtime_target)
    list(APPEND objects ${runtime_objects})
  endif()
  # Entries "source|object"; each waits for the program's DEPENDS (e.g. generated headers).
  set(sources)
  foreach(src IN LISTS ARG_SOURCES)
    cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE)
    _pulpsim_riscv_object_name(${src} objname)
    list(APPEND sources "${src}|${objname}")
  endforeach()

  foreach(entry IN LISTS sources)
    string(REPLACE "|" ";" entry "${entry}")
    list(GET entry 0 src)
    list(GET entry 1 objname)
    set(deps ${src} ${ARG_DEPENDS})
    set(obj ${objdir}/${objname})
    cmake_path(GET obj PARENT_PATH obj_parent)
    file(MAKE_DIRECTORY ${obj_parent})
    cmake_path(GET src EXTENSION LAST_ONLY ext)
    if(NOT ext MATCHES "^\\.(c|S)$")
      message(FATAL_ERROR "pulpsim_add_riscv_program(${ARG_NAME}): ${src}: only .c and .S sources")
    endif()
    _pulpsim_riscv_compile(${src} ${obj} "${cflags}" "${deps}" ${ARG_NAME} ${CMAKE_CURRENT_BINARY_DIR})
    list(APPEND objects ${obj})
  endforeach()

  set(libs)
  set(lib_files)
  if(NOT ARG_NO_RUNTIME)
    set(lib_files ${PULPSIM_PICOLIBC_LIBC} ${PULPSIM_RISCV_LIBGCC})
    set(libs --start-group ${lib_files} --end-group)
  endif()
  add_custom_command(
    OUTPUT ${elf} ${map}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${ARG_OUTPUT_DIR}
    COMMAND ${PULPSIM_RISCV_LD} ${PULPSIM_RISCV_LDFLAGS} ${ARG_LDFLAGS} -T ${ARG_LINKER_SCRIPT} -Map=${map}
            -o ${elf} ${objects} ${libs}
    DEPENDS ${objects} ${ARG_LINKER_SCRIPT} ${lib_files}
    COMMENT "RISC-V LD ${ARG_NAME}.elf"
    COMMAND_EXPAND_LISTS VERBATIM)
  set(outputs ${elf})
  if(PULPSIM_RISCV_OBJDUMP)
    add_custom_command(
      OUTPUT ${dis}
      COMMAND ${CMAKE_COMMAND} -DOBJDUMP=${PULPSIM_RISCV_OBJDUMP} -DELF=${elf} -DOUT=${dis}
              -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE}
      DEPENDS ${elf}
      VERBATIM)
    list(APPEND outputs ${dis})
  endif()

  add_custom_target(riscv_${ARG_NAME} ALL DEPENDS ${outputs} SOURCES ${ARG_SOURCES})
  if(NOT ARG_NO_RUNTIME)
    add_dependencies(riscv_${ARG_NAME} ${runtime_target})
  endif()
  set_target_properties(riscv_${ARG_NAME} PROPERTIES PULPSIM_ELF ${elf})
  add_dependencies(riscv_programs riscv_${ARG_NAME})
  set_property(GLOBAL APPEND PROPERTY PULPSIM_RISCV_PROGRAMS ${ARG_NAME})
  set(${ARG_NAME}_ELF ${elf} PARENT_SCOPE)
endfunction()
