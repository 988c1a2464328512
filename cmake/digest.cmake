# digest.cmake -- the sha256 of the sources that make hawk, so that a
# build cache keyed by it never serves what another hawk wrote:
#   cmake -DROOT=<source tree> -DOUT=<file.c> -P digest.cmake
# Every file under lib/ and include/hawk/, in name order, as "path sha256"
# lines; the digest is the sha256 of those lines.  Without OUT it prints
# the digest alone.
file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE ${ROOT}
     ${ROOT}/lib/* ${ROOT}/include/hawk/*)
list(SORT files)
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
file(WRITE ${OUT}.tmp
  "/* hk_source_digest: the sha256 of hawk's sources (lib/, include/hawk/),\n"
  " * written by cmake/digest.cmake. */\n"
  "extern const char hk_source_digest[];\n"
  "const char hk_source_digest[] = \"${digest}\";\n")
file(RENAME ${OUT}.tmp ${OUT})
