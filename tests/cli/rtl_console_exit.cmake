# An RTL-test-bench program prints through --console-addr and ends through --exit-addr with status 5.
execute_process(COMMAND ${SIM} run --bare -q --console-addr 0x10000000 --exit-addr 0x20000004 ${ELF}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 5)
  message(FATAL_ERROR "exit status ${rc}, expected 5 (stderr: ${err})")
endif()
if(NOT out STREQUAL "hello from the test bench\n")
  message(FATAL_ERROR "console output '${out}', expected 'hello from the test bench'")
endif()
