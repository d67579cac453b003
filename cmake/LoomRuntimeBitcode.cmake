# The runtime as LLVM bitcode, one file per source and AOT architecture, embedded in libloom: AOT
# compilation links the sources of the runtime modules a target selects (weakly) into every
# object it writes, so a program using a Loom pipeline needs neither libloom nor LLVM. The
# modules and the features that select them are listed in src/driver/runtime_modules.cpp (module
# <name> is src/runtime/<name>.cpp, the base module every other source), so a new source needs no
# change here. The sources are those of the JIT's runtime (src/runtime), compiled freestanding
# with clang-19 so they build for any target without its libc headers.
#
# loom_runtime_bitcode(<target>) adds the generated source that holds the bytes to <target>.

find_program(LOOM_CLANG NAMES clang-19 HINTS /usr/lib/llvm-19/bin ${LLVM_TOOLS_BINARY_DIR})
if(NOT LOOM_CLANG)
  message(FATAL_ERROR "clang-19 is needed to build the AOT runtime "
                      "(run scripts/setup.sh, or apt-get install clang-19)")
endif()

# Architecture name (as the driver asks for it) and LLVM triple, pairwise.
set(LOOM_RUNTIME_ARCHES x86_64 aarch64)
set(LOOM_RUNTIME_TRIPLES x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu)

function(loom_runtime_bitcode target)
  file(GLOB rt_srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/*.cpp)
  set(out_dir ${CMAKE_BINARY_DIR}/runtime_bitcode)
  set(bcs "")
  set(stems "")
  foreach(src ${rt_srcs})
    get_filename_component(stem ${src} NAME_WE)
    list(APPEND stems ${stem})
  endforeach()
  foreach(arch triple IN ZIP_LISTS LOOM_RUNTIME_ARCHES LOOM_RUNTIME_TRIPLES)
    # Atomics inline on AArch64 (no calls into libgcc's outlined helpers).
    set(arch_flags "")
    if(arch STREQUAL "aarch64")
      set(arch_flags -mno-outline-atomics)
    endif()
    foreach(src ${rt_srcs})
      get_filename_component(stem ${src} NAME_WE)
      set(bc ${out_dir}/${arch}/${stem}.bc)
      add_custom_command(
        OUTPUT ${bc}
        COMMAND ${LOOM_CLANG} -target ${triple} -std=c++17 -O2 -ffreestanding -fno-exceptions
                -fno-rtti -fno-threadsafe-statics -fno-stack-protector -fPIC
                -fno-asynchronous-unwind-tables -fno-unwind-tables ${arch_flags}
                -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/src
                -MD -MF ${bc}.d -emit-llvm -c ${src} -o ${bc}
        DEPENDS ${src}
        DEPFILE ${bc}.d
        COMMENT "Runtime bitcode ${arch}/${stem}.bc"
        VERBATIM)
      list(APPEND bcs ${bc})
    endforeach()
  endforeach()

  set(gen ${out_dir}/runtime_bitcode_data.cpp)
  add_custom_command(
    OUTPUT ${gen}
    COMMAND ${CMAKE_COMMAND} -DOUT=${gen} "-DARCHES=${LOOM_RUNTIME_ARCHES}" "-DSOURCES=${stems}"
            -DDIR=${out_dir} -P ${CMAKE_SOURCE_DIR}/cmake/LoomEmbedBitcode.cmake
    DEPENDS ${bcs} ${CMAKE_SOURCE_DIR}/cmake/LoomEmbedBitcode.cmake
    COMMENT "Embedding the runtime bitcode"
    VERBATIM)
  target_sources(${target} PRIVATE ${gen})
endfunction()
