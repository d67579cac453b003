# Tutorial lesson 10: the generator writes lesson_10_halide.{a,h} into its folder at build time,
# the run program links them.
set(lesson_dir ${CMAKE_CURRENT_BINARY_DIR}/lesson_10)
file(MAKE_DIRECTORY ${lesson_dir})
set(tutorial_dir ${CMAKE_SOURCE_DIR}/tests/tutorial)
add_executable(tutorial_lesson_10_generate ${tutorial_dir}/lesson_10_aot_compilation_generate.cpp)
target_include_directories(tutorial_lesson_10_generate PRIVATE ${CMAKE_SOURCE_DIR}/include/compat)
target_link_libraries(tutorial_lesson_10_generate PRIVATE loom pthread)
add_custom_command(
  OUTPUT ${lesson_dir}/lesson_10_halide.a ${lesson_dir}/lesson_10_halide.h
  COMMAND ${run_generator} $<TARGET_FILE:tutorial_lesson_10_generate>
  WORKING_DIRECTORY ${lesson_dir}
  DEPENDS tutorial_lesson_10_generate
  COMMENT "Tutorial lesson 10: AOT-compiling brighter"
  VERBATIM)
add_executable(tutorial_lesson_10 ${tutorial_dir}/lesson_10_aot_compilation_run.cpp
                                  ${lesson_dir}/lesson_10_halide.a ${lesson_dir}/lesson_10_halide.h)
target_include_directories(tutorial_lesson_10 PRIVATE ${lesson_dir} ${CMAKE_SOURCE_DIR}/include/compat
                                                      ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(tutorial_lesson_10 PRIVATE ${lesson_dir}/lesson_10_halide.a m pthread dl)
add_test(NAME tutorial_lesson_10 COMMAND tutorial_lesson_10)
set_tests_properties(tutorial_lesson_10 PROPERTIES LABELS correctness TIMEOUT 60)
