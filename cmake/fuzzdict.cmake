# fuzzdict.cmake -- the libFuzzer dictionary of HIR (-DROOT=<source>
# -DOUT=<file>): every mnemonic of lib/IR/ops.def, every role of
# lib/IR/roles.def, the predicates, types, keywords and punctuation, one
# "token" a line, so mutations splice whole words of the language.
file(READ ${ROOT}/lib/IR/ops.def ops)
file(READ ${ROOT}/lib/IR/roles.def roles)
string(REGEX MATCHALL "\nOP\\([A-Z0-9_]+, *\"[a-z_0-9]+\"" op_rows "${ops}")
string(REGEX MATCHALL "\nROLE\\([A-Z0-9_]+, *\"[a-z_0-9]+\"" role_rows "${roles}")
set(words)
foreach(row ${op_rows} ${role_rows})
  string(REGEX REPLACE ".*\"([a-z_0-9]+)\"" "\\1" w "${row}")
  list(APPEND words "${w}")
endforeach()
list(APPEND words kernel func attributes to max iter else case mix true
     false guard sink default none active_set plain atomic compensated
     banded segmented fused_lanes two_path jvp vjp
     f64 f32 i64 i32 u32 i1 nan inf -inf
     oeq one olt ole ogt oge ueq une ult ule ugt uge ord uno
     eq ne slt sle sgt sge)
list(REMOVE_DUPLICATES words)
set(text "# HIR words (cmake/fuzzdict.cmake)\n")
foreach(w ${words})
  string(APPEND text "\"${w}\"\n")
endforeach()
foreach(p " = " " : " ", " "%" "@" "<3 x f64>" "<2 x 2 x f32>" "<? x f64>"
          " {\\x0a" "}\\x0a" "} else {\\x0a" "yield" "ret\\x0a" "[" "]" "->"
          "0x1.8p+1" "1e308" "-0.0" "9223372036854775807")
  string(APPEND text "\"${p}\"\n")
endforeach()
file(WRITE ${OUT} "${text}")
