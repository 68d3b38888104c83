# SPDX-License-Identifier: Apache-2.0
# AXI4 slave memory model (library sgu_axi_mem) and its unit test (sgu_axi_mem_test).
# Included from tb/CMakeLists.txt; expects enable_testing(), find_package(GTest) and
# include(GoogleTest) to have been done by the includer.
add_library(sgu_axi_mem STATIC ${CMAKE_CURRENT_LIST_DIR}/axi_mem.cc)
target_include_directories(sgu_axi_mem PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_compile_features(sgu_axi_mem PUBLIC cxx_std_17)

add_executable(sgu_axi_mem_test ${CMAKE_CURRENT_LIST_DIR}/axi_mem_test.cc)
target_link_libraries(sgu_axi_mem_test PRIVATE sgu_axi_mem GTest::gtest_main)
gtest_discover_tests(sgu_axi_mem_test)
