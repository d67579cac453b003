# Runs a user-guide program and compares what it prints with the output its page in
# docs/tutorial/ shows: the fenced block right after the line "<!-- output: <name> -->".
# A mismatch fails the test with both texts, so the guide never shows output the program no
# longer prints. Usage: cmake -DPROG=<exe> -DDOC=<page.md> -DNAME=<name> [-DWORKDIR=<dir>] -P
# check_guide_output.cmake
if(NOT WORKDIR)
  set(WORKDIR .)
endif()
# stdout and stderr together, in the order written (print_loop_nest writes to stderr; the
# programs make stdout unbuffered).
execute_process(COMMAND ${PROG} WORKING_DIRECTORY ${WORKDIR} OUTPUT_VARIABLE actual
                ERROR_VARIABLE actual RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NAME} exited with ${rc}; it printed:\n${actual}")
endif()

file(READ ${DOC} page)
string(FIND "${page}" "<!-- output: ${NAME} -->" marker)
if(marker EQUAL -1)
  message(FATAL_ERROR "${DOC} has no line \"<!-- output: ${NAME} -->\"")
endif()
string(SUBSTRING "${page}" ${marker} -1 rest)
# The block: from the line after the opening fence to the closing fence.
string(FIND "${rest}" "```" open)
string(SUBSTRING "${rest}" ${open} -1 rest)
string(FIND "${rest}" "\n" eol)
math(EXPR start "${eol} + 1")
string(SUBSTRING "${rest}" ${start} -1 rest)
string(FIND "${rest}" "```" close)
string(SUBSTRING "${rest}" 0 ${close} expected)

if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "${NAME} printed something else than ${DOC} shows.\n"
                      "--- printed:\n${actual}--- the page shows:\n${expected}---")
endif()
message(STATUS "${NAME}: output matches ${DOC}")
