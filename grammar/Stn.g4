// Grammar of the stencilc language (.stn), version 1.
// The single source of truth for the syntax; CMake turns it into the C++ parser at build time.
grammar Stn;

program : stencilDecl decl* EOF ;

stencilDecl : 'stencil' ID ';' ;

decl
  : paramDecl
  | gridDecl
  | kernelDecl
  | runDecl
  ;

paramDecl : 'param' scalarType paramItem (',' paramItem)* ';' ;
paramItem : ID ('=' expr)? ;

scalarType : 'int' | 'float' | 'double' ;

gridDecl : 'grid' READONLY? scalarType gridItem (',' gridItem)* ';' ;
gridItem : ID gridShape boundaryClause? ;
gridShape
  : '[' expr (',' expr)* ']'   # ExplicitShape
  | 'like' ID                  # LikeShape
  ;
boundaryClause : 'boundary' ID ('(' expr ')')? ;

kernelDecl : 'kernel' ID '(' ID (',' ID)* ')' '{' stmt* '}' ;

stmt : gridAccess '=' expr ';' ;

gridAccess : ID '[' expr (',' expr)* ']' ;

runDecl : 'run' expr '{' runStmt* '}' ;
runStmt
  : ID ';'                 # CallStmt
  | 'swap' ID ',' ID ';'   # SwapStmt
  ;

expr
  : '(' expr ')'                     # ParenExpr
  | op=('-' | '+') expr              # UnaryExpr
  | expr op=('*' | '/') expr         # MulExpr
  | expr op=('+' | '-') expr         # AddExpr
  | gridAccess                       # AccessExpr
  | ID                               # NameExpr
  | INT                              # IntExpr
  | FLOAT                            # FloatExpr
  ;

READONLY : 'readonly' ;
ID    : [a-zA-Z_] [a-zA-Z_0-9]* ;
INT   : [0-9]+ ;
FLOAT : ([0-9]+ '.' [0-9]* | '.' [0-9]+) EXP? | [0-9]+ EXP ;
fragment EXP : [eE] [+-]? [0-9]+ ;

LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n]+ -> skip ;
