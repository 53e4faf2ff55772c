# The rule that generates the .stn lexer and parser (C++, namespace stn) from Stn.g4 at build
# time (never committed), shared by the main build (compiler/CMakeLists.txt) and the fuzz
# build (tests/fuzz/project/CMakeLists.txt), a CMake project of its own. Needs ANTLR4_TOOL.
#
#   stn_generate_parser(DIR)   adds the rule writing Stn{Lexer,Parser}.{cpp,h} into DIR and
#                              sets STN_GEN_SOURCES (the two .cpp files) in the caller's scope.
#
# The rule belongs to the calling directory: compile STN_GEN_SOURCES in a target defined there.
function(stn_generate_parser dir)
  set(grammar ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/Stn.g4)
  set(sources ${dir}/StnLexer.cpp ${dir}/StnParser.cpp)
  add_custom_command(
    OUTPUT ${sources} ${dir}/StnLexer.h ${dir}/StnParser.h
    COMMAND ${ANTLR4_TOOL} -Dlanguage=Cpp -no-listener -no-visitor -package stn
            -Xexact-output-dir -o ${dir} ${grammar}
    DEPENDS ${grammar}
    COMMENT "Generating the .stn parser with ANTLR4")
  set(STN_GEN_SOURCES ${sources} PARENT_SCOPE)
endfunction()
