# embed.cmake -- writes the bytes of IN as a C array NAME (NUL-terminated,
# with NAME_len) into OUT: cmake -DIN=... -DOUT=... -DNAME=... -P embed.cmake
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
get_filename_component(src ${IN} NAME)
file(WRITE ${OUT}.tmp
  "/* ${NAME}: the bytes of ${src}, written by cmake/embed.cmake. */\n"
  "#include <stddef.h>\n"
  "extern const char ${NAME}[];\n"
  "extern const size_t ${NAME}_len;\n"
  "const char ${NAME}[] = {${bytes}0x00};\n"
  "const size_t ${NAME}_len = sizeof ${NAME} - 1u;\n")
file(RENAME ${OUT}.tmp ${OUT})
