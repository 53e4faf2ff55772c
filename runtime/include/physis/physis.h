/* The Physis API as stencilc reads it (docs/PHYSIS.md): a Physis program includes this header,
 * and `stencilc check|run|emit|build|verify|explain|import prog.c` parses the program with
 * Clang against it. The kernels and the PSStencilMap/PSStencilRun/PSReduce calls become a
 * stencilc program. `stencilc build prog.c` keeps the host code, rewritten to call the
 * __stencilc_ps_* functions at the end, and links it with the generated NAME_physis.cpp, which
 * defines them and the rest of the host API (PSInit, PSGrid*New, PSGridCopyin, ...). Macros
 * dispatch on the grid's type with C11 _Generic, so Clang checks the element type of every
 * PSGridGet and PSGridEmit as a C compiler would. */
#ifndef STENCILC_PHYSIS_H
#define STENCILC_PHYSIS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int64_t PSIndex;

void PSInit(int *argc, char ***argv, int grid_num_dims, ...);
void PSFinalize(void);

/* A grid handle points to a struct whose one member, __elem, has the element type: never
 * accessed, it lets PSGridGet give a value of the element type, for user-defined types too. */
#define STENCILC_PS_GRID_TYPES(D)                                                                  \
  typedef struct __PSGrid##D##Float {                                                              \
    float __elem;                                                                                  \
  } * PSGrid##D##Float;                                                                            \
  typedef struct __PSGrid##D##Double {                                                             \
    double __elem;                                                                                 \
  } * PSGrid##D##Double;                                                                           \
  typedef struct __PSGrid##D##Int {                                                                \
    int __elem;                                                                                    \
  } * PSGrid##D##Int;                                                                              \
  typedef struct __PSGrid##D##Long {                                                               \
    long __elem;                                                                                   \
  } * PSGrid##D##Long;
STENCILC_PS_GRID_TYPES(1D)
STENCILC_PS_GRID_TYPES(2D)
STENCILC_PS_GRID_TYPES(3D)
#undef STENCILC_PS_GRID_TYPES

/* Grids of a user-defined element type (a struct): DeclareGrid3D(Point, struct Point) declares
 * PSGrid3DPoint and PSGrid3DPointNew. Kernels read a member, PSGridGet(g, x, y, z).p, and write
 * one, PSGridEmitUtype(g.q, v) (or a whole element, PSGridEmitUtype(g2, PSGridGet(g1, ...))).
 * stencilc stores each member as a grid of its own (docs/PHYSIS.md). */
void *__stencilc_ps_new_grid(int rank, PSIndex nx, PSIndex ny, PSIndex nz);
#define DeclareGrid1D(name, type)                                                                  \
  typedef struct __PSGrid1D##name {                                                                \
    type __elem;                                                                                   \
  } * PSGrid1D##name;                                                                              \
  static inline PSGrid1D##name PSGrid1D##name##New(PSIndex nx) {                                   \
    return (PSGrid1D##name)__stencilc_ps_new_grid(1, nx, 1, 1);                                    \
  }
#define DeclareGrid2D(name, type)                                                                  \
  typedef struct __PSGrid2D##name {                                                                \
    type __elem;                                                                                   \
  } * PSGrid2D##name;                                                                              \
  static inline PSGrid2D##name PSGrid2D##name##New(PSIndex nx, PSIndex ny) {                       \
    return (PSGrid2D##name)__stencilc_ps_new_grid(2, nx, ny, 1);                                   \
  }
#define DeclareGrid3D(name, type)                                                                  \
  typedef struct __PSGrid3D##name {                                                                \
    type __elem;                                                                                   \
  } * PSGrid3D##name;                                                                              \
  static inline PSGrid3D##name PSGrid3D##name##New(PSIndex nx, PSIndex ny, PSIndex nz) {           \
    return (PSGrid3D##name)__stencilc_ps_new_grid(3, nx, ny, nz);                                  \
  }

PSGrid1DFloat PSGrid1DFloatNew(PSIndex nx);
PSGrid1DDouble PSGrid1DDoubleNew(PSIndex nx);
PSGrid1DInt PSGrid1DIntNew(PSIndex nx);
PSGrid1DLong PSGrid1DLongNew(PSIndex nx);
PSGrid2DFloat PSGrid2DFloatNew(PSIndex nx, PSIndex ny);
PSGrid2DDouble PSGrid2DDoubleNew(PSIndex nx, PSIndex ny);
PSGrid2DInt PSGrid2DIntNew(PSIndex nx, PSIndex ny);
PSGrid2DLong PSGrid2DLongNew(PSIndex nx, PSIndex ny);
PSGrid3DFloat PSGrid3DFloatNew(PSIndex nx, PSIndex ny, PSIndex nz);
PSGrid3DDouble PSGrid3DDoubleNew(PSIndex nx, PSIndex ny, PSIndex nz);
PSGrid3DInt PSGrid3DIntNew(PSIndex nx, PSIndex ny, PSIndex nz);
PSGrid3DLong PSGrid3DLongNew(PSIndex nx, PSIndex ny, PSIndex nz);

void PSGridCopyin(void *g, const void *buf);
void PSGridCopyout(void *g, void *buf);
void PSGridFree(void *g);

typedef struct { PSIndex local_min[1], local_max[1]; } PSDomain1D;
typedef struct { PSIndex local_min[2], local_max[2]; } PSDomain2D;
typedef struct { PSIndex local_min[3], local_max[3]; } PSDomain3D;
PSDomain1D PSDomain1DNew(PSIndex minx, PSIndex maxx);
PSDomain2D PSDomain2DNew(PSIndex minx, PSIndex maxx, PSIndex miny, PSIndex maxy);
PSDomain3D PSDomain3DNew(PSIndex minx, PSIndex maxx, PSIndex miny, PSIndex maxy, PSIndex minz,
                         PSIndex maxz);

/* Reads and writes inside kernels: one function per grid type, chosen by _Generic. */
#define STENCILC_PS_ACCESS(D, T, C, ...)                                                       \
  C __PSGridGet##D##T(PSGrid##D##T g, __VA_ARGS__);                                            \
  C __PSGridGetPeriodic##D##T(PSGrid##D##T g, __VA_ARGS__);                                    \
  void __PSGridEmit##D##T(PSGrid##D##T g, C v);
#define STENCILC_PS_ACCESS_ALL(D, ...)                                                         \
  STENCILC_PS_ACCESS(D, Float, float, __VA_ARGS__)                                             \
  STENCILC_PS_ACCESS(D, Double, double, __VA_ARGS__)                                           \
  STENCILC_PS_ACCESS(D, Int, int, __VA_ARGS__)                                                 \
  STENCILC_PS_ACCESS(D, Long, long, __VA_ARGS__)
STENCILC_PS_ACCESS_ALL(1D, PSIndex i)
STENCILC_PS_ACCESS_ALL(2D, PSIndex i, PSIndex j)
STENCILC_PS_ACCESS_ALL(3D, PSIndex i, PSIndex j, PSIndex k)
#undef STENCILC_PS_ACCESS_ALL
#undef STENCILC_PS_ACCESS

#define STENCILC_PS_DISPATCH(F, g)                                                                 \
  _Generic((g), PSGrid1DFloat                                                                      \
           : F##1DFloat, PSGrid1DDouble                                                            \
           : F##1DDouble, PSGrid1DInt                                                              \
           : F##1DInt, PSGrid1DLong                                                                \
           : F##1DLong, PSGrid2DFloat                                                              \
           : F##2DFloat, PSGrid2DDouble                                                            \
           : F##2DDouble, PSGrid2DInt                                                              \
           : F##2DInt, PSGrid2DLong                                                                \
           : F##2DLong, PSGrid3DFloat                                                              \
           : F##3DFloat, PSGrid3DDouble                                                            \
           : F##3DDouble, PSGrid3DInt                                                              \
           : F##3DInt, PSGrid3DLong                                                                \
           : F##3DLong, default                                                                    \
           : __PSGridUserType)
/* A read of a grid of numbers calls the function of its type; of a user-defined type, it is
 * the element itself (g)[at].__elem, so that .member applies (stencilc translates both). */
int __PSGridUserType(void *g, ...);
PSIndex __PSGridGetUserAt(PSIndex i, ...);
PSIndex __PSGridGetPeriodicUserAt(PSIndex i, ...);
#define STENCILC_PS_READ(F, AT, g, ...)                                                            \
  _Generic((g)->__elem, float                                                                      \
           : STENCILC_PS_DISPATCH(F, g)((g), __VA_ARGS__), double                                  \
           : STENCILC_PS_DISPATCH(F, g)((g), __VA_ARGS__), int                                     \
           : STENCILC_PS_DISPATCH(F, g)((g), __VA_ARGS__), long                                    \
           : STENCILC_PS_DISPATCH(F, g)((g), __VA_ARGS__), default                                 \
           : (g)[AT(__VA_ARGS__)].__elem)
#define PSGridGet(g, ...) STENCILC_PS_READ(__PSGridGet, __PSGridGetUserAt, g, __VA_ARGS__)
#define PSGridGetPeriodic(g, ...)                                                                  \
  STENCILC_PS_READ(__PSGridGetPeriodic, __PSGridGetPeriodicUserAt, g, __VA_ARGS__)
#define PSGridEmit(g, v) STENCILC_PS_DISPATCH(__PSGridEmit, g)((g), (v))
/* The target is the grid parameter and the member as written, g.q or g.r[1][0] (or g alone
 * for a whole element): stencilc reads the text. */
void __PSGridEmitUtype(const char *target, ...);
#define PSGridEmitUtype(target, v) __PSGridEmitUtype(#target, (v))

/* Maps and runs: a kernel is any function; the cast keeps Clang from comparing its prototype
 * with a generic pointer's (stencilc checks the arguments against the kernel itself). */
typedef struct __PSStencil *PSStencil;
typedef void (*__PSKernel)(void);
PSStencil __PSStencilMap(__PSKernel kernel, ...);
PSStencil __PSStencilMapRedBlack(__PSKernel kernel, ...);
#define PSStencilMap(kernel, ...) __PSStencilMap((__PSKernel)(kernel), __VA_ARGS__)
#define PSStencilMapRedBlack(kernel, ...) __PSStencilMapRedBlack((__PSKernel)(kernel), __VA_ARGS__)
void PSStencilRun(PSStencil s, ...); /* maps..., then the number of iterations */

typedef enum { PS_MAX, PS_MIN, PS_SUM, PS_PROD } PSReduceOp;
void PSReduce(void *out, PSReduceOp op, void *g);

/* What stencilc's rewrite of the host code calls instead of what it compiled: PSGrid*New(...)
 * becomes __stencilc_ps_bind(PSGrid*New(...), "grid"), PSStencilRun(maps..., n)
 * __stencilc_ps_run(n) (the main run block; another block's PSStencilRun
 * __stencilc_ps_run_block("block", n)), PSReduce(&v, op, g) __stencilc_ps_reduce("v", type of v,
 * &v, g). */
void *__stencilc_ps_bind(void *grid, const char *name);
/* A grid of a user-defined type: its struct's size, then the grid stencilc keeps each member
 * in and the member's offset in the struct, ending with a null name. */
void *__stencilc_ps_bind_struct(void *grid, const char *name, long size, ...);
void __stencilc_ps_run(long long iterations);
void __stencilc_ps_run_block(const char *block, long long iterations);
void __stencilc_ps_reduce(const char *name, char type, void *out, void *grid);

#ifdef __cplusplus
}
#endif
#endif
