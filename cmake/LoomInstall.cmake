# `cmake --install` (and `make install PREFIX=...`): libloom, the public headers (include/loom,
# the runtime's C headers among them) and the Halide-compatible headers (include/compat, under
# include/loom/compat), the CMake package (find_package(Loom): Loom::loom and
# loom_add_aot_library) and a pkg-config file. AOT outputs need nothing more: the driver in
# libloom carries the runtime they embed. Tested by tests/install (an out-of-tree consumer built
# against an installed tree with CMake and with pkg-config).
include(CMakePackageConfigHelpers)

set(LOOM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Loom)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/loom DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/compat/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/loom/compat)
install(EXPORT LoomTargets NAMESPACE Loom:: DESTINATION ${LOOM_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/LoomConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/LoomConfig.cmake
                              INSTALL_DESTINATION ${LOOM_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/LoomConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/LoomConfig.cmake ${CMAKE_BINARY_DIR}/LoomConfigVersion.cmake
              ${CMAKE_SOURCE_DIR}/cmake/LoomAotLibrary.cmake
        DESTINATION ${LOOM_INSTALL_CMAKEDIR})

# pkg-config: `pkg-config --cflags --libs loom` (both include folders, so a Halide program's
# #include "Halide.h" builds unchanged).
# The prefix is the .pc file's own folder's relative (pkg-config's ${pcfiledir}), so the file is
# right under whatever prefix `cmake --install --prefix` chose.
file(RELATIVE_PATH LOOM_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" LOOM_PC_TO_PREFIX "${LOOM_PC_TO_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/loom.pc.in ${CMAKE_BINARY_DIR}/loom.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/loom.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
