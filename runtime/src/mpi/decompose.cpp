#include "stencilc/mpi/decompose.h"

#include <algorithm>
#include <cctype>

#include "stencilc/error.h"

namespace stencilc::mpi {

Block block(std::int64_t n, int p, int c) {
  const std::int64_t base = n / p, extra = n % p;
  return {c * base + std::min<std::int64_t>(c, extra), base + (c < extra ? 1 : 0)};
}

std::vector<int> parse_procs(const std::string &text) {
  const std::string bad =
      "--procs " + text + ": expected process counts per dimension, x first, like 2x1x1";
  std::vector<int> procs;
  std::size_t i = 0;
  while (true) {
    std::size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
      ++j;
    if (j == i || j - i > 6)
      throw Error(bad);
    const int v = std::stoi(text.substr(i, j - i));
    if (v < 1)
      throw Error(bad);
    procs.push_back(v);
    if (j == text.size())
      break;
    if (text[j] != 'x')
      throw Error(bad);
    i = j + 1;
  }
  if (procs.size() > static_cast<std::size_t>(kMaxRank))
    throw Error(bad + " (at most " + std::to_string(kMaxRank) + " dimensions)");
  return procs;
}

std::string procs_text(const std::vector<int> &procs) {
  std::string s;
  for (std::size_t d = 0; d < procs.size(); ++d)
    s += (d ? "x" : "") + std::to_string(procs[d]);
  return s;
}

std::vector<int> order_procs(int nranks, int ndims, const std::vector<int> &given_procs,
                             const std::vector<int> &balanced, unsigned whole) {
  std::vector<int> given = given_procs;
  if (ndims == 4 && given.size() == 3)
    given.push_back(1); // AxBxC for a rank-4 program: its fourth dimension stays whole
  if (!given.empty()) {
    long long product = 1;
    for (int v : given)
      product *= v;
    if (static_cast<int>(given.size()) != ndims)
      throw Error("--procs " + procs_text(given) + ": the program's grids have " +
                  std::to_string(ndims) + " dimension" + (ndims == 1 ? "" : "s") + ", not " +
                  std::to_string(given.size()));
    if (product != nranks)
      throw Error("--procs " + procs_text(given) + " makes " + std::to_string(product) +
                  " processes, but the job has " + std::to_string(nranks));
    for (int d = 0; d < ndims; ++d)
      if (((whole >> d) & 1u) && given[static_cast<std::size_t>(d)] != 1)
        throw Error("--procs " + procs_text(given) + " splits dimension " + std::to_string(d + 1) +
                    ", which the program keeps whole (it reads it at an absolute index, or one of "
                    "its grids of lower rank does not have it): give 1 there");
    return given;
  }
  std::vector<int> v = balanced;
  std::sort(v.begin(), v.end()); // smallest first: x gets the fewest processes
  if (!whole)
    return v;
  std::vector<int> out(static_cast<std::size_t>(ndims), 1);
  std::size_t next = 0;
  for (int d = 0; d < ndims; ++d)
    if (!((whole >> d) & 1u) && next < v.size())
      out[static_cast<std::size_t>(d)] = v[next++];
  long long product = 1;
  for (int x : out)
    product *= x;
  if (product != nranks)
    throw Error("the program keeps every dimension whole (each is read at an absolute index or "
                "missing from one of its grids of lower rank), so none can be split over " +
                std::to_string(nranks) + " processes: run it on 1");
  return out;
}

std::string split_error(const std::vector<int> &procs, const std::string &name, int rank,
                        const Extents &extent, const Halos &halo) {
  for (int d = 0; d < static_cast<int>(procs.size()); ++d) {
    const int p = procs[d];
    if (p == 1)
      continue;
    const std::string where = "grid '" + name + "' cannot be split over " + std::to_string(p) +
                              " processes in dimension " + std::to_string(d + 1) + " (--procs " +
                              procs_text(procs) + "): ";
    if (d >= rank)
      return where + "it has " + std::to_string(rank) + " dimension" + (rank == 1 ? "" : "s");
    if (extent[d] < p)
      return where + "it has only " + std::to_string(extent[d]) + " cells there";
    if (extent[d] / p < halo[d])
      return where + "a block of " + std::to_string(extent[d] / p) +
             " cells is narrower than its ghost layers (" + std::to_string(halo[d]) + ")";
  }
  return "";
}

std::int64_t colour_cells(int rank, const Extents &extent, int colour) {
  // Along x, a row of n cells starting with parity q has (n + 1 - q) / 2 cells of parity 0;
  // the rows' parities alternate, so count rows of each starting parity.
  std::int64_t rows[2] = {1, 0}; // rows of the outer dimensions by the parity of y + z + w
  for (int d = 1; d < rank; ++d) {
    const std::int64_t n = extent[d], even = (n + 1) / 2, odd = n / 2;
    const std::int64_t r0 = rows[0] * even + rows[1] * odd;
    const std::int64_t r1 = rows[0] * odd + rows[1] * even;
    rows[0] = r0;
    rows[1] = r1;
  }
  const std::int64_t n0 = extent[0];
  // A row of parity q holds (n0 + 1) / 2 cells of colour q and n0 / 2 of the other.
  return rows[colour] * ((n0 + 1) / 2) + rows[1 - colour] * (n0 / 2);
}

} // namespace stencilc::mpi
