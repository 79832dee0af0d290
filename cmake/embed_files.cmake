# Writes OUT: a C++ file with a function FUNC returning every file matching
# DIR/*.EXT as (name, text), declared in HEADER.
file(GLOB files ${DIR}/*.${EXT})
list(SORT files)
set(body "")
foreach(f ${files})
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} text)
  set(body "${body}      {\"${name}\", R\"acedrex_embed(${text})acedrex_embed\"},\n")
endforeach()
file(WRITE ${OUT}.tmp "// Generated from ${DIR}/*.${EXT}; do not edit.\n#include \"${HEADER}\"\n\nnamespace acedrex {\n\nconst std::vector<std::pair<std::string, std::string>>& ${FUNC}() {\n  static const std::vector<std::pair<std::string, std::string>> files = {\n${body}  };\n  return files;\n}\n\n}  // namespace acedrex\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
