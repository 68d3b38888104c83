// SPDX-License-Identifier: Apache-2.0
// Benchmark results in a Markdown file that several programs write (docs/performance.md: sgu-bench
// and sgu-bench-kernels). Each program owns one section between two marker comments and
// rewrites only that; everything else in the file is kept as it is.
#ifndef SGU_TB_BENCH_DOC_H_
#define SGU_TB_BENCH_DOC_H_

#include <string>

namespace sgu::tb {

// Replaces the text between "<!-- NAME: begin ... -->" and "<!-- NAME: end -->" in `path` with
// `body` (the markers stay); a file without the markers gets the section appended, a missing
// file is created with `title` ("# SGU performance") first. The file is replaced atomically
// (written beside it, then renamed). Throws std::runtime_error when it cannot be read or written,
// or holds a begin marker without its end.
void WriteDocSection(const std::string& path, const std::string& title, const std::string& name,
                     const std::string& body);

// "model name" of /proc/cpuinfo, for the record of where numbers were measured.
std::string CpuName();

}  // namespace sgu::tb

#endif  // SGU_TB_BENCH_DOC_H_
