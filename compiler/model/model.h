// The analytic performance model: kernel costs and a machine in, predicted times out.
// Pure: no I/O, no globals, deterministic. docs/MODEL.md gives every equation and where each
// symbol comes from; tests/unit/model_test.cpp checks them against hand-computed numbers.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "stencilc/plan.h"

namespace stc::model {

/// Figures of one machine (a CPU node or one GPU), from a profile or from `calibrate`.
struct Machine {
  std::string name;
  std::string kind = "cpu"; // "cpu" or "gpu"
  // Compute and memory.
  double flops = 0;           // F: sustained flop/s of stencil code on data in cache (all cores;
                              // CPU: in the private L2)
  double bandwidth = 0;       // B: sustained streaming bandwidth, bytes/s (all cores)
  double sweep_bandwidth = 0; // CPU: B_s, the memory rate a stencil sweep gets, in the model's
                              // bytes (a write counts its read for ownership); 0: B
  double sweep_bandwidth_2d = 0; // CPU: B_s of rank-2 programs' naive sweeps (0: B_s)
  int threads = 1;            // CPU: threads the measurement used
  double cache_bytes = 0;     // CPU: the private cache of one core (L2)
  double shared_cache_bytes = 0; // CPU: the cache all threads share (L3; 0: none)
  double shared_cache_flops = 0; // CPU: F with each thread's share of the shared cache full
                                 // (kSharedCacheShare of it / threads; 0: flops)
  double barrier_seconds = 0; // CPU: one OpenMP barrier
  double wide_flops = 0;      // CPU: F of row functions on 512-bit vectors (a temporal plan's
                              // vec=512; 0: not to be had, or not measured)
  double engine_efficiency = 0; // CPU: the engine's 256-bit stages' rate over the row
                                // benchmark's F, measured by calibrate through the engine; 0: 1
  double wide_engine_efficiency = 0; // CPU: the same for vec=512 stages over F_w (0: as
                                     // engine_efficiency)
  double engine_efficiency_2d = 0;   // CPU: engine_efficiency of rank-2 programs' stages (0: as
                                     // engine_efficiency)
  double engine_efficiency_f64 = 0;  // CPU: engine_efficiency of stages on 8-byte cells (0: as
                                     // engine_efficiency; cpu_lanes halves F for them)
  double engine_efficiency_coef = 0; // CPU: engine_efficiency of rank-3 stages that read
                                     // coefficients (calibrate: himeno's; 0: as
                                     // engine_efficiency)
  // CPU: the same for stages whose row functions shift x neighbours in registers (xshift=reg,
  // 256 bits) over F, of rank 3 and rank 2 programs (0: not measured, such plans not offered).
  double xreg_engine_efficiency = 0, xreg_engine_efficiency_2d = 0;
  // CPU: the same on 512-bit vectors (vec=512,xshift=reg) over F_w, rank 3 (0: not measured,
  // such plans not offered).
  double wide_xreg_engine_efficiency = 0;
  // CPU: what a temporal stage (or a naive sweep) spends per x-row it computes beyond the row's
  // cells, one thread (the row function's call and its vector loop's ends, the row's x ghosts,
  // the engine's walk): calibrate fits it from heat3d's stages on 510- and 126-cell rows (0:
  // none).
  double row_seconds = 0;
  // CPU: the same for stages on 512-bit vectors (vec=512), fitted the same way from the 512-bit
  // plan (0: not measured, such stages cost row_seconds).
  double wide_row_seconds = 0;
  // CPU: what a temporal stage of heat3d spends each time it starts on a plane of a tile (a
  // (tile, plane, stage) call), one thread, beyond its rows: the engine's set-up of the call,
  // its carried rows' copies, its row cursors (other stages: stream_call_seconds for each plane
  // stream beyond heat3d's, call_weight without it). calibrate fits it
  // from heat3d's k=4 plan on 16- and 64-row tiles (0: none).
  double call_seconds = 0;
  // CPU: what such a call spends for each plane stream it starts beyond heat3d's kCallStreams
  // (coefficients, more results: segments a tile's rows long that the prefetchers start over
  // on). calibrate fits it from himeno's stage (17 plane streams) on 8- and 32-row tiles (0:
  // none; the call then costs call_seconds times call_weight).
  double stream_call_seconds = 0;
  // CPU: how much longer memory time grows per grid streamed at once beyond kFewStreams
  // (DRAM pages and prefetch streams shared among more of them): calibrate's sum of 16 grids
  // against 8 (0: none).
  double stream_slowdown = 0;
  // CPU: the memory rate that sum reached with kFewStreams streams (B_9, the model's bytes; 0:
  // not measured). Where it is above the sweep rate B_s, a sweep of many grids slows only once
  // the many-stream rate B_9 / (1 + stream_slowdown (S - 9)) falls below B_s (streams_factor).
  double few_streams_bandwidth = 0;
  // CPU roofline, from calibrate (0: not measured): the vector flop peak (FMA chains in
  // registers) and the load bandwidth from each cache level, all threads. Reported by explain;
  // the plans' predictions do not use them yet.
  double peak_flops = 0;
  double l1_bandwidth = 0, l2_bandwidth = 0, l3_bandwidth = 0;
  // CPU: calibrate's two quick probes of the machine as it was at calibration (0: not
  // measured), which `tune` repeats beside its candidates to price them for the machine as it
  // is then (scaled_machine): the hand-written naive sweep's memory rate (the model's bytes)
  // and the 7-point stencil's cells/s with its grids in half the L2.
  double probe_sweep_bandwidth = 0, probe_stencil_rate = 0;
  // CPU: the round trip of a cache line between two of the threads, measured right after the
  // streaming bandwidth (seconds; 0: not measured). Where a host moves its vCPUs between cores
  // (which moves the memory rate and the L3 each thread has), it tells where the calibration
  // ran (tune compares its rounds' with it).
  double handoff_seconds = 0;
  // CPU: calibrate's load rates summed over all threads' buffers, {bytes in all, bytes/s}, from
  // the L3's size (shared_cache_bytes) on in ascending sizes, down to memory's (empty: not
  // measured). A naive sweep whose grids are a little past the L3 still finds part of them
  // there (l3_spill_gain, where there is no l3_sweep_curve).
  std::vector<std::array<double, 2>> l3_load_curve;
  // CPU: calibrate's naive sweep over grids of 1, 2 and 4 times the L3 in all and far past it,
  // {bytes of the grids, bytes/s} in ascending sizes (empty: not measured). What l3_spill_gain
  // reads where it is there: the sweep's own gain, which on the AMD EPYC VM was a fraction of
  // what the load sums gave (MODEL.md §3.1).
  std::vector<std::array<double, 2>> l3_sweep_curve;
  // CPU: of the data a thread reads again after touching {bytes} (per thread), the share that
  // comes from memory, in ascending bytes ending at share 1 (empty: not measured; the model
  // then assumes a thread's share of the L3, M_3 / threads, keeps all of it up to its size):
  // calibrate's (and tune's) re-read probe (reuse_shares). The L3 is shared with other cores
  // and tenants, whose lines take part of it.
  std::vector<std::array<double, 2>> l3_reuse_curve;
  // CPU: the rate of ring-like traffic (each thread cycling {bytes} as planes, reading three and
  // writing the next) relative to the small sizes', in ascending bytes per thread, the last one
  // memory's (empty: not measured; rings then fit up to the share, kSharedCacheShare of
  // M_3 / threads): calibrate's (and tune's) ring probe (relative_rates). How much a temporal
  // plan's stages slow down with rings past the share (ring_slowdown).
  std::vector<std::array<double, 2>> l3_ring_curve;
  // GPU.
  int sms = 0;                    // streaming multiprocessors (CUs)
  int max_blocks_per_sm = 0;      // resident blocks per SM at the modelled block size (when the
                                  // kernels' registers are not known)
  int registers_per_sm = 65536;   // GPU: the SM's register file (32-bit registers)
  int max_threads_per_sm = 2048;  // GPU: resident threads per SM
  double shared_bytes_per_sm = 0; // GPU: shared memory per SM (0: only the per-block limit)
  std::string arch;               // GPU: the architecture ptxas names (sm_90), to pick its lines
  double shared_bandwidth = 0;    // bytes/s of shared memory (all SMs)
  double shared_bytes_per_block = 0;
  double launch_seconds = 0;      // one kernel launch
  double naive_traffic_factor = 1; // naive GPU kernels re-read neighbours through L2: bytes x this
  // Node interconnect (MPI) and host-device link.
  double net_latency = 0;    // seconds per message
  double net_bandwidth = 0;  // bytes/s per message stream
  double link_bandwidth = 0; // GPU: host<->device bytes/s (0 = GPU-aware MPI, no staging)
  // GPU: the host cores beside one device (its share of the node's), for overlap=host, where
  // they compute each rank's boundary region: F and B as a CPU profile's (0: not known, and
  // overlap=host not offered).
  double host_flops = 0, host_bandwidth = 0;
};

/// What ptxas reports for the kernels of one plan (the widest of the program's sweeps).
struct KernelRegisters {
  int registers = 0;      // per thread; 0: not known (then the profile's max_blocks_per_sm)
  double spill_bytes = 0; // spill stores + loads per thread and point
};

/// What one time step of a kernel group costs per interior cell, from the IR analysis.
struct Cost {
  double flops_per_cell = 0;
  double bytes_per_cell = 0;     // streamed bytes per cell per step, no temporal reuse
  double written_bytes_per_cell = 0; // the part of bytes_per_cell that writes results (a tile
                                     // writes its own cells only: no halo factor on these)
  double direct_written_bytes_per_cell = 0; // the part of written_bytes_per_cell that the CPU
                                            // engine's last stage stores straight into the
                                            // results (ordinary stores: the read for ownership
                                            // is paid); the rest streams out past the caches
  double elem_bytes = 4;         // size of one grid element
  double loads_per_cell = 0;     // distinct reads per cell (shared-memory traffic on GPUs)
  double offset_read_bytes_per_cell = 0; // the part of the reads from grids read at offsets
                                         // (a GPU block loads these with its halo; the others,
                                         // read at the centre only, without)
  double ghost_read_bytes_per_cell = 0; // inputs read at offsets also read their ghost ring:
                                        // sum over such reads of elem * sum_d 2 r_d / n_d
  double padded_bytes_per_cell = 0;     // bytes_per_cell as a CPU sweep moves them: whole padded
                                        // rows (x ghosts and alignment), and the ghost rows and
                                        // planes of grids read at offsets (0: bytes_per_cell)
  double readonly_bytes_per_cell = 0; // the part of bytes_per_cell read from grids no kernel
                                      // of the step writes (coefficients): a temporal tile
                                      // streams these at every stage
  // The GPU temporal plan's block (codegen/gpu.cpp) reads the grid read at offsets from its
  // rings and the others from memory, and writes only the grid the swap makes the next input:
  double centre_read_bytes_per_cell = 0;     // grids read at the centre only, not written
  double swapped_written_bytes_per_cell = 0; // written grids that a swap of the run block pairs
  double offset_loads_per_cell = 0;          // distinct reads of grids read at offsets, not written
  double xy_loads_per_cell = 0;              // ... of them at an x or y offset
  double dead_written_bytes_per_cell = 0;    // written or swapped grids whose value from before
                                             // the step it never reads (a ping-pong swap's
                                             // target): a CPU temporal run's last block writes
                                             // them, the blocks before it skip them
  bool single_array = false;     // the step's one kernel reads only grids it writes or the swap
                                 // pairs: a GPU temporal block keeps a column in registers
  int radius = 1;                // widest stencil offset
  int step_radius = 1;           // how far one step reaches in dimensions 1.. (the lowering's
                                 // step_reach): a tile's ghost zone per step
  int halo_per_step = 1;         // how far one step reaches in any dimension (step_reach):
                                 // the ghost depth per step of an MPI halo
  unsigned whole_dims = 0;       // bit d: dimension d never split among ranks (read at an
                                 // absolute index, or missing from a grid: ir::unsplit_dims)
  // The naive CPU sweep's other work per step, bytes per cell (planner.cpp): ghost cells its
  // fills refresh (a face of x-rows costs a line read and one written per row and side) and
  // the grids its reductions read.
  double fill_bytes_per_cell = 0;
  double reduce_bytes_per_cell = 0;
  // ... and the rows those loops visit per cell (each a row's overhead t_row, as a sweep's).
  double extra_rows_per_cell = 0;
  // The storage of every grid the step's kernels and reductions touch (ghosts and row padding
  // included), each once, per cell: what stays in a cache between steps if it fits (0: not
  // known, then bytes_per_cell without the written lines' read for ownership).
  double footprint_bytes_per_cell = 0;
  int stages = 1;                // kernel calls per step
  int x_shift_stages = 0;        // of them, calls of kernels with xshift=reg row functions
  int grids = 1;                 // grids a step reads (their planes share a cache)
  int streams = 1;               // grids one stage reads or writes (streamed at once)
  int plane_streams = 0;         // planes the stages of a step read or write, summed: a grid
                                 // read at offsets r along the streamed dimension 2r + 1, any
                                 // other read 1, a written one 1 (heat3d 4, himeno 17)
  int rank = 3;
  std::array<std::int64_t, 4> extent{1, 1, 1, 1}; // interior cells per dimension
  std::int64_t steps = 0;        // steps of the run (0: unknown; blocks of k steps assumed)
  KernelRegisters naive_kernel, stream_kernel; // GPU, from ptxas (explain --ptxas)
  // ... and the temporal kernels': [k] the instance that fuses k steps with the column in
  // registers (1..kMaxRegisterFused of codegen/gpu.cpp), [0] the loop over any k.
  std::map<int, KernelRegisters> temporal_kernels;
  double cells() const;
};

/// A plan of the model: the typed plan every stage shares (runtime/include/stencilc/plan.h).
using Plan = stencilc::Plan;

struct Prediction {
  Plan plan;
  double seconds_per_step = 0;
  std::string bound;        // compute, memory, shared memory, communication, cache
  std::string note;         // one-line why (e.g. "working set 3.1 MB > cache 2 MB")
  // The terms behind the time, per step, for explain.
  double t_compute = 0, t_memory = 0, t_shared = 0, t_comm = 0, redundancy = 1;
  double t_extra = 0;      // CPU naive: the step's ghost fills and reductions (Cost's bytes)
  double t_rows = 0;       // CPU: the stages' or the sweeps' per-row costs (in t_compute)
  double t_calls = 0;      // CPU temporal, rank 3: the (tile, plane) calls' share of t_rows
  // CPU temporal, rings in cache: t_memory's parts (the state's trip through memory, the
  // coefficients' re-reads, the carried rows').
  double t_state = 0, t_coefficients = 0, t_carry = 0;
  // CPU temporal: the run's last block's extra results, per step (last_block_seconds).
  double t_last = 0;
  double global_bytes = 0; // GPU: bytes per cell-update to and from device memory (t_memory's)
  double occupancy = 0;    // GPU, when the registers are known: resident threads / the SM's
  // Distributed: the terms of one exchange period (k steps), seconds: the inner region, the
  // boundary, the faces to the host, the messages, the ghost cells back (docs/MODEL.md §4).
  double t_inner = 0, t_boundary = 0, t_d2h = 0, t_mpi = 0, t_h2d = 0;
};

/// The plane streams of the heat3d stage call that Machine::call_seconds is measured on.
constexpr double kCallStreams = 4;

/// The cost of a step's CPU temporal stage calls on one (tile, plane) over heat3d's one call:
/// plane_streams / kCallStreams (at least one stream).
double call_weight(const Cost &c);

/// The grids a stage of calibrate's heat3d streams (one read, one written): its 512-bit rows'
/// rate (Machine::wide_flops, wide_engine_efficiency) is measured on such stages.
constexpr int kWideMeasuredStreams = 2;

/// Whether a CPU temporal plan's vec=512 is priced at calibrate's 512-bit rates: rank 3, 4-byte
/// cells and at most kWideMeasuredStreams grids a stage, as the stages those rates were measured
/// on. Other programs' 512-bit rows are priced as their 256-bit ones (and not offered as
/// candidates): the width's gain is not measured for them, and where it was checked it was not
/// there (heat2d; heat3d in double and himeno M: PERFORMANCE.md, 2026-12-06).
bool wide_priced(const Cost &c);

/// Threads per block of the naive GPU kernels (codegen/gpu.cpp).
constexpr int kNaiveGpuThreads = 128;

/// The occupancy from which a memory-bound GPU kernel reaches the device's bandwidth: below it
/// the bandwidth falls in proportion (an assumption, as the CUDA guide's rule of thumb that
/// about half the SM's threads hide memory latency; docs/MODEL.md §3.4).
constexpr double kSaturatingOccupancy = 0.5;

/// Bytes per cell-update a GPU kernel must move to and from device memory at least: every
/// input once, with the ghost ring of those read at offsets, every output once (a GPU writes
/// whole sectors back without reading them first: no write-allocate). The CPU execution layer
/// counts the same bytes per launch (tests/e2e/gpu_traffic.py checks the two agree).
double gpu_min_bytes(const Cost &c);
/// Bytes per cell a naive CPU sweep moves through memory: Cost::padded_bytes_per_cell (the
/// planner's), else bytes_per_cell.
double cpu_sweep_bytes(const Cost &c);

/// Grids streamed at once up to which memory runs at its sweep rate (Machine::stream_slowdown).
constexpr int kFewStreams = 9;
/// Memory time of a sweep that streams c.streams grids at once over that of a few:
/// q (1 + stream_slowdown * (streams - kFewStreams)) beyond kFewStreams, at least 1, else 1;
/// q = B_s / few_streams_bandwidth, at most 1 (1 where that was not measured).
double streams_factor(const Cost &c, const Machine &m);

/// Roofline time of `cells` cells: max(cells f / F, cells b / B).
double roofline(double cells, double flops_per_cell, double bytes_per_cell, const Machine &m);

/// Average redundant work of overlapped (trapezoid) tiles that take k steps at once: level j
/// of k computes (tx + 2r(k-j)) (ty + 2r(k-j)) cells for tx ty useful ones.
double redundancy(int k, int r, int tx, int ty);

/// Bytes a 3.5D tile keeps in cache: (2r+1) planes per time level and grid, k levels.
double tile_working_set(const Cost &c, int k, int tx, int ty);

/// The openmp temporal plan (runtime/src/cpu/engine.cpp): a tile of `rows` rows computes, at
/// stage j of k steps, rows + 2 R (k - j) rows (R = step_radius); the average over the steps
/// per useful row, 1 + R (k - 1) / rows (`rows` may be an average tile size).
double row_redundancy(int k, int r, double rows);

/// The same for the engine's carried tiles: each thread's run of consecutive tiles computes
/// the margins once, as one tile of n / threads rows would (n / tiles where there are fewer
/// tiles than threads).
double carried_redundancy(int k, int r, std::int64_t n, std::int64_t tiles, int threads);

/// Bytes per cell-update the carried tiles copy to and from their thread's carry store: 2R
/// rows out (with the stores' read for ownership) and back in per stage output and tile, for
/// `rows_avg` rows computed, on the tiles that are not a thread's first; the last stage's
/// results are not carried. 0 for rank 2.
double carry_bytes(const Cost &c, int k, std::int64_t tiles, int threads, double rows_avg);

/// Seconds per step of those copies on `cells` cells: the store, laid out by plane-step, goes out
/// and comes back as one sequential stream per tile, its bytes at B_s.
double carry_seconds(const Cost &c, const Machine &m, int k, std::int64_t tiles, double rows_avg,
                     double cells);

/// How many times a block reads the state's rows from memory (rank 3): a lone tile of rho
/// rows reads rho + 2Rk of them (its first stage's ghost zone, which the tiles beside it read
/// too, a whole sweep earlier); a carried one rho + 2R (only its first stage's reach beyond the
/// rows shifted up by its margin). 1 for rank 2.
double input_rows(const Cost &c, int k, std::int64_t tiles, int threads, double rows_avg,
                  bool carry);

/// Bytes an openmp temporal tile keeps in cache: the stages' rings ((2r+1) planes each, one
/// for the last), plus (2r+1) planes of its input, each plane rows + 2Rk rows of whole x-rows.
/// carried: what a carried tile touches of them, planes of rows + 2R rows (rank 3).
double ring_working_set(const Cost &c, int k, int rows, bool carried = false);

/// The fraction of a thread's reads of ring planes that miss the L2 when a plane-step (a new
/// plane of every ring) touches `bytes`: none up to 0.25 M_c, all from 0.6 M_c, linear between
/// (the rest of the L2 holds the planes streaming in and out; measured: PERFORMANCE.md).
double l2_miss(double bytes, const Machine &m);

/// F of a temporal plan's stages on vec-bit vectors: the row benchmark's rate (F_w for vec=512
/// where calibrate measured it, else F) times the engine's efficiency on those vectors (calibrate
/// runs the engine on each width: its ghosts, copies and result streams besides the rows).
/// A rank-2 program's stages run at engine_efficiency_2d instead of engine_efficiency where it
/// was measured, and on 512 bits at wide_engine_efficiency scaled by the same ratio. With
/// x-shifts in registers (xshift=reg, 256 bits), the share `xreg` of the stages that have such
/// row functions runs at F times xreg_engine_efficiency (xreg_engine_efficiency_2d at rank 2),
/// the rest as without: the rates mixed by time (harmonically); on 512 bits (vec=512,xshift=reg,
/// rank 3) likewise at F_w times wide_xreg_engine_efficiency against the 512-bit rate.
double stage_flops(const Machine &m, int vec, int rank = 3, double xreg = 0);

/// How much faster (or slower) a program's stages run for the size of their cells than the
/// 4-byte ones calibrate's engine_efficiency was measured on, beyond cpu_lanes: on 8-byte cells
/// engine_efficiency_f64 / engine_efficiency where calibrate measured both (heat3d in double),
/// else 1. It scales stage_flops whatever the vectors.
double cell_size_factor(const Cost &c, const Machine &m);

/// How much faster (or slower) a rank-3 program's stages that read coefficients (grids no stage
/// writes) run than heat3d's, which engine_efficiency was measured on: engine_efficiency_coef /
/// engine_efficiency where calibrate measured both (himeno's stage), else 1. It scales
/// stage_flops as cell_size_factor does.
double coefficient_factor(const Cost &c, const Machine &m);

/// The share of a CPU temporal plan's stages that xshift=reg moves to its measured x-shift
/// rates (stage_flops' xreg): the stages with x-shifts over all, 0 where the stages are priced
/// at engine_efficiency_coef (coefficient_factor not 1: the gain is measured without
/// coefficients). Candidates with xshift=reg are offered only where it is positive and faster.
double xreg_share(const Cost &c, const Machine &m);

/// The share of the loads' time a stencil's plane streams lose to the L3 over the L2 (on the AMD
/// EPYC VM, PERFORMANCE.md 2026-12-06 20:24).
constexpr double kL3StreamShare = 0.5;

/// Seconds a stage spends per byte of a plane stream it reads from the L3 rather than the L2:
/// kL3StreamShare of 1/B_L3 - 1/B_L2 (calibrate's load bandwidths); without them, from the
/// stencil's rates F_3 and F. The load bandwidths' difference held at 2.1-2.6 ps/B over 17
/// calibrations of 2026-12-06 where F_3's (F_3 1-15% under F) swung 0.07-1.16.
double l3_stream_seconds(const Machine &m);

/// The stages' flop rate with a thread's rings of `ws` bytes: a stage streams 2r+2 planes (its
/// input's 2r+1 and the ring slot it overwrites), of which the 2r+1 that were computed or read
/// plane-steps before miss the L2 as l2_miss(ws / (2r+1)); each adds e tau per cell, tau =
/// l3_stream_seconds times l3_depth_factor: f / (f/F + stages m e tau). F when nothing misses.
/// l2_flops: F of the plan's stages (stage_flops; 0: m.flops).
double ring_flops(const Cost &c, const Machine &m, double ws, double l2_flops = 0);

/// The fraction of a temporal plan's per-stage coefficient re-reads that miss the L2 (1 without
/// coefficients, below rank 3 or without a shared cache): l2_miss of the bytes one plane-step
/// touches between two stages' reads of the same coefficient plane (the rings' planes, ws /
/// (2r+1), and every stage's coefficient plane), mixed by tiles (lone: the fraction of lone
/// tiles, with ws; the carried ones with ws_carried and planes of `rows` rows).
double coefficient_misses(const Cost &c, const Machine &m, int k, int rows, double lone, double ws,
                          double ws_carried);

/// How many bytes of calibrate's re-read probe a byte a plane-step touches counts as. Fitted:
/// in nine tunes of himeno M on the AMD EPYC VM (2026-12-06 12:32-15:44) the re-reads of its
/// 64-row plans at k >= 8 (10-13 MB touched a thread) cost what the curve gives at 1.5 times
/// their bytes: at 1 those plans ran 0.78-0.84 of their prices and the model's choice (k=10)
/// 0.87-0.93 of the fastest, at 1.5 the choice 0.97-1.0 in all nine. Why the stencil's
/// re-reads keep less of the L3 than the probe's sums (stores streaming through the caches
/// besides, twelve grids' planes in its sets, the longer time between re-reads) is not settled.
constexpr double kCoefficientReach = 1.5;

/// The fraction of a temporal plan's coefficient re-reads that come from memory when a tile
/// touches `touched` bytes between two stages' reads of a plane: the profile's l3_reuse_curve
/// at kCoefficientReach times that size (linear between its points, its first share below
/// them, 1 past them); without
/// one, none while the threads' tiles fit the L3 together (M_3 / threads each), all from twice
/// that, linear between (MODEL.md 3.3).
double coefficient_memory_share(double touched, const Machine &m);

/// The l3_reuse_curve from the re-read probe's rates, {bytes per thread, bytes/s} in ascending
/// bytes, the last one memory's: at each size but the last, the share s of re-reads from memory
/// that gives its rate, 1/r = (1 - s)/r_0 + s/r_m, with r_0 the faster of the first two (the
/// L3's) and r_m the last; never less than at a smaller size; then {last bytes, 1}. Empty
/// where there are fewer than three points or the last is not below r_0 (no drop to memory).
std::vector<std::array<double, 2>> reuse_shares(const std::vector<std::array<double, 2>> &rates);

/// The l3_ring_curve from the ring probe's rates, {bytes per thread, bytes/s} in ascending bytes,
/// the last one memory's: each rate over r_0, the faster of the first two, never above 1 nor
/// above the ratio at a smaller size. Empty where there are fewer than three points or the last
/// is not below r_0.
std::vector<std::array<double, 2>> relative_rates(const std::vector<std::array<double, 2>> &rates);

/// How many times longer a temporal plan's stages take with a thread's rings of `ws` bytes (its
/// lone tile's, for its carried tiles too) than with rings that fit its share of the L3
/// (kSharedCacheShare of M_3 / threads): 1 up to the share, past it the l3_ring_curve's
/// relative rate at the share over its rate at `ws` (linear between its points); 1 without a
/// curve. ring_limit: the largest rings priced so (the curve's last size before
/// memory's; the share without a curve): past it the plan streams from memory.
double ring_slowdown(double ws, const Machine &m);
double ring_limit(const Machine &m);

/// Seconds per byte of a temporal plan's per-stage coefficient re-reads, mixed by tiles as
/// coefficient_misses: the L2's misses come from the L3 at B_3 (B without it) and, the
/// coefficient_memory_share of what a tile touches in a plane-step (its rings whole and every
/// stage's coefficient plane), from memory at B_s. 1/B_3 without coefficients or an L3.
double coefficient_seconds(const Cost &c, const Machine &m, int k, int rows, double lone, double ws,
                           double ws_carried);

/// How much more a byte of ring planes costs from the L3 when a thread's rings hold `ws` bytes:
/// 1 up to where calibrate measured F_3 and B_3 (8 L2s per thread, at most the thread's share of
/// the L3), then growing linearly to B_3 / B (memory's cost) at the share, beyond which the plan
/// streams from memory: the deeper the rings reach into the L3, the more of their lines the
/// other cores and tenants evict (measured: heat3d fp64 510^3 rings of 28-58 MB per thread ran
/// 16-26% below F_3's prediction, MODEL.md 3.3). 1 without B_3.
double l3_depth_factor(double ws, const Machine &m);

/// A CPU's stencil rates F and F_3 are measured on 4-byte cells; its vectors hold half as many
/// 8-byte ones, so kernels on doubles (or 64-bit integers) compute at 4 / e of them.
double cpu_lanes(const Cost &c);
/// The memory rate of a CPU sweep's streams: the profile's B_s (calibrate's naive 7-point
/// sweep), else B.
double sweep_bandwidth(const Machine &m);
/// The same for the naive sweeps of program `c`: a rank-2 program's B_s,2 (calibrate's heat2d
/// naive sweep) where the profile has one, else sweep_bandwidth(m).
double sweep_bandwidth(const Cost &c, const Machine &m);

/// How much faster than memory's sweep rate a CPU sweep streams grids of `footprint` bytes in
/// all past the L3: the sweep curve's rate at that size (log-linear between its points) over its
/// slowest, or the load curve's where the profile has no sweep curve; 1 without either, below
/// the curve's first point or past its last.
double l3_spill_gain(const Machine &m, double footprint);

/// The part of the shared cache (L3) the threads' rings may fill together; the rest holds the
/// planes streaming through and other processes' lines (PERFORMANCE.md measures the knee).
constexpr double kSharedCacheShare = 0.5;
/// A CPU's naive plan is chosen over a temporal one predicted less than this fraction faster:
/// the model prices the engine's stages less surely than a plain sweep (MODEL.md §5).
constexpr double kNaiveMargin = 0.03;

/// A CPU temporal run's last block writes the grids the blocks before it skip
/// (Cost::dead_written_bytes_per_cell; runtime Options::all_results): once per run, streamed
/// to the shadows past the caches, so per step cells * those bytes / B_s / steps (0 when the
/// steps are unknown). Measured: heat3d fp64 510^3 ran 12 steps 0.03-0.04 s longer with the
/// last block writing them than without (PERFORMANCE.md, 2026-12-07 12:19).
double last_block_seconds(const Cost &c, const Machine &m, double cells);

/// Steps per block on average when a run of `steps` steps is split into the fewest blocks of at
/// most k (runtime: block_steps): steps / ceil(steps / k); k when steps is unknown (< 1).
double effective_k(int k, std::int64_t steps);

/// The deepest of those blocks (the first ones): ceil(effective_k). A CPU temporal plan's rings
/// and ghost zones are that block's, not k's: tune's runs of heat3d 510^3 (33 steps) ran k=16 as
/// blocks of 11, and k=16,rows=64 measured 1.15 of the price k's rings and ghosts gave it
/// (PERFORMANCE.md, 2026-12-06 20:24).
int block_depth(int k, std::int64_t steps);

/// GPU wave quantisation: useful fraction of the last wave of `blocks` thread blocks.
double tail_factor(std::int64_t blocks, const Machine &m);

/// One MPI exchange period of k steps (seconds):
///   overlap:    max(T_inner, T_d2h + T_mpi + T_h2d) + T_boundary
///   no overlap: T_inner + T_d2h + T_mpi + T_h2d + T_boundary
double period(double t_inner, double t_boundary, double t_comm, bool overlap);

Prediction predict(const Cost &c, const Machine &m, const Plan &p);

/// Candidates sorted fastest first: on a CPU, moves the naive plan to the front when it is
/// predicted within kNaiveMargin of the fastest (a temporal one), with a note saying so.
void prefer_naive(std::vector<Prediction> &sorted, const Machine &m);

/// Every candidate plan of a target with these rules (`ranks` MPI processes for a distributed
/// one), predicted and sorted fastest first; ties go to the smaller k, then the plan's text, so
/// the order is deterministic.
std::vector<Prediction> candidates(const Cost &c, const Machine &m,
                                   const stencilc::PlanRules &rules, int ranks = 1);

} // namespace stc::model
