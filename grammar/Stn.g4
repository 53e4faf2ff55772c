// Grammar of the stencilc language (.stn).
// The single source of truth for the syntax; CMake turns it into the C++ parser at build time.
grammar Stn;

program : stencilDecl decl* EOF ;

stencilDecl : 'stencil' ID ';' ;

decl
  : paramDecl
  | structDecl
  | gridDecl
  | initDecl
  | kernelDecl
  | reduceDecl
  | runDecl
  ;

paramDecl : 'param' scalarType paramItem (',' paramItem)* ';' ;
paramItem : ID ('=' expr)? ;

scalarType : 'int' | 'long' | 'float' | 'double' ;

// A struct element type: members of the scalar types, each a scalar or an array of constant
// extents. A grid of it is stored as one grid per member (structure of arrays, structs.cpp).
structDecl : 'struct' ID '{' structMember* '}' ';'? ;
structMember : scalarType ID ('[' INT ']')* ';' ;

gridDecl : 'grid' READONLY? (scalarType | structName=ID) gridItem (',' gridItem)* ';' ;
gridItem : ID gridShape boundaryClause? ;
gridShape
  : '[' expr (',' expr)* ']'   # ExplicitShape
  | 'like' ID                  # LikeShape
  ;
// `boundary KIND` for every face, or `boundary(KIND, x: KIND, y-: KIND, ...)`: an item
// without a face sets the default, items with a face override it (x y z w name dimensions
// 1 to 4; '-' is the low face, '+' the high one, neither both).
boundaryClause
  : 'boundary' bcKind                                # UniformBoundary
  | 'boundary' '(' bcItem (',' bcItem)* ')'          # FaceBoundary
  ;
bcItem : (face=ID side=('+' | '-')? ':')? bcKind ;
bcKind : ID ('(' expr ')')? ;

initDecl : 'init' ID '[' ID (',' ID)* ']' member? '=' expr ';' ;

// Indices, then (after ';') parameters bound at each call in the run block: `grid NAME` or a
// scalar `TYPE NAME`.
kernelDecl : 'kernel' ID '(' ID (',' ID)* (';' kernelParam (',' kernelParam)*)? ')' domain? block ;
kernelParam : ('grid' | scalarType) ID ;
domain
  : 'on' '[' range (',' range)* ']'         # RangeDomain
  | 'on' ID ('[' range (',' range)* ']')?   # ColourDomain
  ;
range : expr ':' expr ;

block : '{' stmt* '}' ;
stmt
  : gridAccess '=' expr ';'                                   # AssignStmt
  | 'let' ID '=' expr ';'                                     # LetStmt
  | 'var' ID '=' expr ';'                                     # VarStmt
  | ID '=' expr ';'                                           # SetStmt
  | 'if' '(' expr ')' block ('else' (block | elseIf=stmt))?   # IfStmt
  | 'for' ID 'in' '[' expr ':' expr ']' block                 # ForStmt
  ;

reduceDecl : 'reduce' ID '(' ID (',' ID)* ')' domain? '=' fname '(' expr ')' ';' ;

// The main run block (unnamed), and named blocks `run NAME: COUNT { ... }` that run before it,
// in order, and alone through the C++ API (run_NAME).
runDecl
  : 'run' expr '{' runStmt* '}'                       # StepsRun
  | 'run' 'until' expr 'max' expr '{' runStmt* '}'    # UntilRun
  | 'run' ID ':' expr '{' runStmt* '}'                # NamedRun
  ;
runStmt
  : ID ('(' (expr (',' expr)*)? ')')? ';'   # CallStmt
  | 'swap' ID ',' ID ';'                     # SwapStmt
  ;

// `max` is also a keyword of `run until ... max N`, hence fname.
fname : ID | 'max' ;

expr
  : '(' expr ')'                                  # ParenExpr
  | scalarType '(' expr ')'                       # ConvExpr
  | fname '(' expr (',' expr)* ')'                # CallExpr
  | gridAccess                                    # AccessExpr
  | ID                                            # NameExpr
  | INT                                           # IntExpr
  | FLOAT                                         # FloatExpr
  | op=('-' | '+' | '!') expr                     # UnaryExpr
  | expr op=('*' | '/' | '%') expr                # MulExpr
  | expr op=('+' | '-') expr                      # AddExpr
  | expr op=('<' | '<=' | '>' | '>=') expr        # CmpExpr
  | expr op=('==' | '!=') expr                    # EqExpr
  | expr op='&&' expr                             # AndExpr
  | expr op='||' expr                             # OrExpr
  | <assoc=right> expr op='?' expr ':' expr       # CondExpr
  ;

gridAccess : ID '[' expr (',' expr)* ']' member? ;
// A member of a struct element: `.name`, then an index per dimension of an array member.
member : '.' ID ('[' INT ']')* ;

READONLY : 'readonly' ;
ID    : [a-zA-Z_] [a-zA-Z_0-9]* ;
INT   : [0-9]+ ;
FLOAT : ([0-9]+ '.' [0-9]* | '.' [0-9]+) EXP? | [0-9]+ EXP ;
fragment EXP : [eE] [+-]? [0-9]+ ;

LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n]+ -> skip ;
