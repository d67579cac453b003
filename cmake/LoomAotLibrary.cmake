# loom_add_aot_library(<name> GENERATOR <executable target> [ARGS <argument>...])
#
# Ahead-of-time compilation at build time, as Halide's add_halide_library does for Generators:
# runs the program GENERATOR (a target of the calling project, linking Loom::loom) as
#     <generator> <prefix> <ARGS...>
# where <prefix> is <current binary dir>/<name>; the program must write <prefix>.a and
# <prefix>.h, which is what Func::compile_to_static_library(prefix, arguments, fn_name) writes.
# Defines the target <name>: link it (target_link_libraries(app PRIVATE <name>)) to get the
# static library, the header's folder and Loom's headers (HalideBuffer.h, for
# Halide::Runtime::Buffer) on the include path, and the system libraries the runtime inside the
# library needs; libloom itself is not linked. The library is rebuilt when the generator is.
function(loom_add_aot_library name)
  cmake_parse_arguments(A "" "GENERATOR" "ARGS" ${ARGN})
  if(NOT A_GENERATOR)
    message(FATAL_ERROR "loom_add_aot_library(${name}): GENERATOR <executable target> is required")
  endif()
  if(NOT TARGET ${A_GENERATOR})
    message(FATAL_ERROR "loom_add_aot_library(${name}): GENERATOR ${A_GENERATOR} is not a target")
  endif()
  set(prefix ${CMAKE_CURRENT_BINARY_DIR}/${name})
  add_custom_command(
    OUTPUT ${prefix}.a ${prefix}.h
    COMMAND $<TARGET_FILE:${A_GENERATOR}> ${prefix} ${A_ARGS}
    DEPENDS ${A_GENERATOR}
    COMMENT "Compiling the Loom pipeline ${name} ahead of time"
    VERBATIM)
  add_custom_target(${name}_generate DEPENDS ${prefix}.a ${prefix}.h)
  add_library(${name} INTERFACE)
  add_dependencies(${name} ${name}_generate)
  target_include_directories(${name} INTERFACE ${CMAKE_CURRENT_BINARY_DIR}
                                              $<TARGET_PROPERTY:Loom::loom,INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(${name} INTERFACE ${prefix}.a Threads::Threads ${CMAKE_DL_LIBS} m)
endfunction()

find_package(Threads REQUIRED)
