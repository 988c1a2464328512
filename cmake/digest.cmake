# digest.cmake -- the sha256 of the sources that make hawk, so that a
# build cache keyed by it never serves what another hawk wrote:
#   cmake -DROOT=<source tree> [-DOUT=<file.c> -DCONFIG=<file>] -P digest.cmake
# Every file under lib/, include/hawk/, tools/ and cmake/, and the
# CMakeLists.txt that sets hawk's options and flags, in name order, as
# "path sha256" lines; the digest is the sha256 of those lines.  Without
# OUT it prints the digest alone.  CONFIG names the file (one line, made
# when hawk is configured) that says how this hawk was compiled: it
# becomes hk_build_config, the cache key's "built" term.
cmake_policy(SET CMP0009 NEW)   # a symbolic link in the tree is not followed
file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE ${ROOT}
     ${ROOT}/lib/* ${ROOT}/include/hawk/* ${ROOT}/tools/* ${ROOT}/cmake/*)
list(APPEND files CMakeLists.txt)   # the top file alone: a recursive glob
list(SORT files)                    # of its name would take every one
set(lines "")
foreach(f ${files})
  file(SHA256 ${ROOT}/${f} h)
  string(APPEND lines "${f} ${h}\n")
endforeach()
string(SHA256 digest "${lines}")
if(NOT OUT)
  message("${digest}")
  return()
endif()
file(READ ${CONFIG} config)
string(STRIP "${config}" config)
string(REPLACE "\\" "\\\\" config "${config}")
string(REPLACE "\"" "\\\"" config "${config}")
file(WRITE ${OUT}.tmp
  "/* hk_source_digest: the sha256 of hawk's sources (lib/, include/hawk/,\n"
  " * tools/, cmake/, CMakeLists.txt); hk_build_config: how they were\n"
  " * compiled.  Written by cmake/digest.cmake. */\n"
  "extern const char hk_source_digest[];\n"
  "const char hk_source_digest[] = \"${digest}\";\n"
  "extern const char hk_build_config[];\n"
  "const char hk_build_config[] = \"${config}\";\n")
file(RENAME ${OUT}.tmp ${OUT})
