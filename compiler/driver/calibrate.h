// `stencilc calibrate`: measures this machine (bandwidth, in-cache stencil rates, caches,
// barriers, messages between MPI ranks) and writes the model's machine profile.
#pragma once
#include <string>

#include "target/target.h"

namespace stc {

struct CalibrateOptions {
  std::string output; // default: model::calibrated_machine_path()
  std::string cxx;
  std::string target = kDefaultTarget; // whose compiler builds the measuring program
  bool verbose = false;
  bool mpi = true; // also measure messages between 2 ranks under mpirun
  bool engine = true; // also time a generated heat3d program (B_s and engine_efficiency)
};

int calibrate(const CalibrateOptions &opts);

} // namespace stc
