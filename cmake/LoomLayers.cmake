# Each src/<layer> is an object library. Layers are declared bottom to top; each one also gets a
# check library linking only its own objects and those of the layers below it with
# -Wl,--no-undefined, so code that calls into a higher layer fails to link (DESIGN.md §3).
# Sources are globbed: a new file in a layer's folder joins that layer.
set_property(GLOBAL PROPERTY LOOM_LAYER_OBJECTS "")

# loom_layer(<name> [DEPS <layer>...] [LIBS <extra link libraries for the check>])
function(loom_layer name)
  cmake_parse_arguments(L "" "" "DEPS;LIBS" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${name}/*.cpp)
  add_library(loom_${name} OBJECT ${srcs})
  target_include_directories(loom_${name} PUBLIC ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/src)
  foreach(dep ${L_DEPS})
    target_link_libraries(loom_${name} PUBLIC loom_${dep})
  endforeach()

  # The objects this layer may use: its own and, transitively, its dependencies'.
  set(objs $<TARGET_OBJECTS:loom_${name}>)
  foreach(dep ${L_DEPS})
    get_property(dep_objs GLOBAL PROPERTY LOOM_LAYER_OBJECTS_${dep})
    list(APPEND objs ${dep_objs})
  endforeach()
  list(REMOVE_DUPLICATES objs)
  set_property(GLOBAL PROPERTY LOOM_LAYER_OBJECTS_${name} "${objs}")

  add_library(loom_layer_check_${name} SHARED ${objs})
  target_link_options(loom_layer_check_${name} PRIVATE -Wl,--no-undefined)
  target_link_libraries(loom_layer_check_${name} PRIVATE ${L_LIBS} pthread dl m)
endfunction()
