# loom_isolate_tests(): every test the calling directory has added so far runs with the JIT's
# disk cache off (LOOM_CACHE_DIR=off) unless its ENVIRONMENT names LOOM_CACHE_DIR itself. Tests
# count how often the JIT compiles, and a cache kept from an earlier run (or shared by tests
# running in parallel) would change the count. Called at the end of each CMakeLists.txt that
# adds tests.
include_guard(GLOBAL)

function(loom_isolate_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t ${tests})
    get_test_property(${t} ENVIRONMENT env)
    if(NOT env MATCHES "LOOM_CACHE_DIR=")
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT LOOM_CACHE_DIR=off)
    endif()
  endforeach()
endfunction()
