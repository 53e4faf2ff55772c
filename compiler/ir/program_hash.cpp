// Apart from ir.cpp, which the fuzzers build without the runtime.
#include "ir/ir.h"

#include "stencilc/checkpoint.h"

namespace stc::ir {

std::string program_hash(const Program &p) { return stencilc::fingerprint(print(p), {}); }

} // namespace stc::ir
