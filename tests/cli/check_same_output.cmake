# Runs two commands and fails unless both succeed with byte-identical standard output.
# -DFIRST="a;b" -DSECOND="a;c"
execute_process(COMMAND ${FIRST} RESULT_VARIABLE rc1 OUTPUT_VARIABLE out1 ERROR_VARIABLE err1)
execute_process(COMMAND ${SECOND} RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2 ERROR_VARIABLE err2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "commands failed (${rc1}, ${rc2}):\n${err1}\n${err2}")
endif()
string(LENGTH "${out1}" length)
if(length LESS 100)
  message(FATAL_ERROR "suspiciously short output:\n${out1}")
endif()
if(NOT out1 STREQUAL out2)
  message(FATAL_ERROR "outputs differ:\n--- first\n${out1}\n--- second\n${out2}")
endif()
