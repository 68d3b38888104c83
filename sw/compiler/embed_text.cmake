# SPDX-License-Identifier: Apache-2.0
# Writes a C++ file that holds a text file as one string constant, so that the compiler carries
# the SGU kernel header (and an installed `sgu` does not need the source tree).
#   cmake -DINPUT=<text file> -DOUTPUT=<.cc> -DSYMBOL=<name> -DSOURCE_NAME=<name for the comment>
#         -P embed_text.cmake
# The constant is sgu::compiler::internal::<SYMBOL> (declared in sw/compiler/frontend.h).
file(READ "${INPUT}" text)
set(delimiter "sgu_embed")
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains )${delimiter}\" and cannot be embedded as a raw string")
endif()
set(content "// Generated from ${SOURCE_NAME} by sw/compiler/embed_text.cmake: do not edit.
namespace sgu::compiler::internal {
extern const char ${SYMBOL}[] = R\"${delimiter}(${text})${delimiter}\";
}  // namespace sgu::compiler::internal
")
# Rewrite only on change, so that an unchanged header does not recompile anything.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
