#include "stencilc/hdf5.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "stencilc/error.h"
#include "stencilc/grid.h"
#include "stencilc/npy.h"
#include "stencilc/xdmf.h"
#include "test_support.h"

using namespace stencilc;
using stencilc::test::error_of;

namespace {

class RuntimeHdf5 : public ::testing::Test {
protected:
  std::string path(const std::string &name) const { return scratch_.path(name); }
  static std::string read(const std::string &p) { return test::ScratchDir::read(p); }

  test::ScratchDir scratch_{"stencilc_h5"};
};

// Every interior cell gets a value of its own (and ghosts another), so a transposed or shifted
// copy cannot pass.
template <typename T> Grid<T> numbered(const std::string &name, int rank, const Extents &e) {
  Grid<T> g(name, rank, e, {2, 1, 1, 1});
  g.fill(T(-1));
  for (std::int64_t w = 0; w < g.extent(3); ++w)
    for (std::int64_t z = 0; z < g.extent(2); ++z)
      for (std::int64_t y = 0; y < g.extent(1); ++y)
        for (std::int64_t x = 0; x < g.extent(0); ++x)
          g.at(x, y, z, w) =
              T(x + 10 * y + 100 * z + 1000 * w) + T(std::is_integral_v<T> ? 0 : 0.5);
  return g;
}

template <typename T> void expect_same_interior(const Grid<T> &a, const Grid<T> &b) {
  for (std::int64_t w = 0; w < a.extent(3); ++w)
    for (std::int64_t z = 0; z < a.extent(2); ++z)
      for (std::int64_t y = 0; y < a.extent(1); ++y)
        for (std::int64_t x = 0; x < a.extent(0); ++x)
          ASSERT_EQ(a.at(x, y, z, w), b.at(x, y, z, w)) << x << "," << y << "," << z << "," << w;
}

template <typename T> void round_trip(const std::string &file) {
  const Extents e{5, 3, 4, 2};
  for (int rank = 1; rank <= 4; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const Grid<T> src = numbered<T>("u", rank, e);
    save_grid(src, file);                    // by the extension
    Grid<T> dst("u", rank, e, {0, 3, 0, 2}); // other halos: another storage layout
    load_grid(dst, file);
    expect_same_interior(src, dst);
    if (rank >= 2)
      EXPECT_EQ(dst.at(0, -1, 0, 0), T(0)); // the halo is not touched
  }
}

} // namespace

TEST(RuntimeHdf5Paths, Names) {
  EXPECT_TRUE(is_hdf5_path("a/u.h5"));
  EXPECT_TRUE(is_hdf5_path("u.hdf5"));
  EXPECT_FALSE(is_hdf5_path("u.npy"));
  EXPECT_FALSE(is_hdf5_path("h5"));
  EXPECT_FALSE(is_hdf5_path("u.h5.npy"));
  EXPECT_EQ(xdmf_path_of("out/u.h5"), "out/u.xmf");
  EXPECT_EQ(xdmf_path_of("u.hdf5"), "u.xmf");
  EXPECT_EQ(xdmf_data_ref("out/dir/u.h5", "/u/000040"), "u.h5:/u/000040");
  EXPECT_EQ(xdmf_data_ref("u.h5", "/u"), "u.h5:/u");
}

TEST_F(RuntimeHdf5, RoundTripEveryTypeAndRank) {
  round_trip<float>(path("f.h5"));
  round_trip<double>(path("d.hdf5"));
  round_trip<std::int32_t>(path("i.h5"));
}

// Loading what an .h5 holds and saving it as .npy gives the .npy of the original, byte for byte.
TEST_F(RuntimeHdf5, SameValuesAsNpy) {
  const Grid<double> g = numbered<double>("p", 3, {6, 5, 4, 1});
  save_grid(g, path("p.h5"));
  save_grid(g, path("p.npy"));
  Grid<double> h("p", 3, {6, 5, 4, 1}, {0, 0, 0, 0});
  load_grid(h, path("p.h5"));
  save_grid(h, path("q.npy"));
  EXPECT_EQ(read(path("p.npy")), read(path("q.npy")));
}

TEST_F(RuntimeHdf5, XdmfSidecar) {
  save_grid(numbered<float>("u", 3, {6, 5, 4, 1}), path("u.h5"));
  const std::string x = read(path("u.xmf"));
  EXPECT_CONTAINS(x, "<Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"4 5 6\"/>");
  EXPECT_CONTAINS(x, "<Geometry GeometryType=\"ORIGIN_DXDYDZ\">");
  EXPECT_CONTAINS(x, "<Attribute Name=\"u\" AttributeType=\"Scalar\" Center=\"Node\">");
  EXPECT_CONTAINS(x, "<DataItem Dimensions=\"4 5 6\" NumberType=\"Float\" Precision=\"4\" "
                     "Format=\"HDF\">u.h5:/u</DataItem>");

  save_grid(numbered<std::int32_t>("cells", 2, {7, 3, 1, 1}), path("life.hdf5"));
  const std::string y = read(path("life.xmf"));
  EXPECT_CONTAINS(y, "<Topology TopologyType=\"2DCoRectMesh\" Dimensions=\"3 7\"/>");
  EXPECT_CONTAINS(y, "<Geometry GeometryType=\"ORIGIN_DXDY\">");
  EXPECT_CONTAINS(y, "<DataItem Dimensions=\"3 7\" NumberType=\"Int\" Precision=\"4\" "
                     "Format=\"HDF\">life.hdf5:/cells</DataItem>");

  save_grid(numbered<double>("d", 2, {2, 2, 1, 1}), path("d.h5"));
  EXPECT_CONTAINS(read(path("d.xmf")), "NumberType=\"Float\" Precision=\"8\"");

  // XDMF meshes are 2D or 3D: no sidecar for ranks 1 and 4.
  save_grid(numbered<float>("a", 1, {5, 1, 1, 1}), path("a.h5"));
  save_grid(numbered<float>("b", 4, {2, 2, 2, 2}), path("b.h5"));
  EXPECT_TRUE(std::filesystem::exists(path("a.h5")));
  EXPECT_FALSE(std::filesystem::exists(path("a.xmf")));
  EXPECT_FALSE(std::filesystem::exists(path("b.xmf")));
}

TEST(RuntimeXdmf, Uniform) {
  const Grid<float> u("u", 2, {3, 2, 1, 1}, {0, 0, 0, 0});
  EXPECT_EQ(xdmf_uniform("heat", {3, 2}, {xdmf_attribute(&u, "o.h5:/u")}),
            R"(<?xml version="1.0" ?>
<!DOCTYPE Xdmf SYSTEM "Xdmf.dtd" []>
<Xdmf Version="2.0">
  <Domain>
    <Grid Name="heat" GridType="Uniform">
      <Topology TopologyType="2DCoRectMesh" Dimensions="2 3"/>
      <Geometry GeometryType="ORIGIN_DXDY">
        <DataItem Name="Origin" Dimensions="2" NumberType="Float" Precision="8" Format="XML">0 0</DataItem>
        <DataItem Name="Spacing" Dimensions="2" NumberType="Float" Precision="8" Format="XML">1 1</DataItem>
      </Geometry>
      <Attribute Name="u" AttributeType="Scalar" Center="Node">
        <DataItem Dimensions="2 3" NumberType="Float" Precision="4" Format="HDF">o.h5:/u</DataItem>
      </Attribute>
    </Grid>
  </Domain>
</Xdmf>
)");
  // File names are XML-escaped.
  EXPECT_CONTAINS(xdmf_uniform("h", {3, 2}, {xdmf_attribute(&u, "a&b<c>.h5:/u")}),
                  ">a&amp;b&lt;c&gt;.h5:/u<");
  EXPECT_CONTAINS(error_of([&] { xdmf_uniform("h", {3}, {}); }), "rank 2 and 3, not 1");
}

TEST(RuntimeXdmf, Temporal) {
  const Grid<double> u("u", 3, {3, 2, 2, 1}, {0, 0, 0, 0});
  const std::string x = xdmf_temporal(
      "heat", {3, 2, 2},
      {{4, {xdmf_attribute(&u, "s.h5:/u/000004")}}, {7, {xdmf_attribute(&u, "s.h5:/u/000007")}}});
  EXPECT_CONTAINS(x, "<Grid Name=\"heat\" GridType=\"Collection\" CollectionType=\"Temporal\">");
  const std::size_t a = x.find("<Time Value=\"4\"/>"), b = x.find("<Time Value=\"7\"/>");
  ASSERT_NE(a, std::string::npos);
  ASSERT_NE(b, std::string::npos);
  EXPECT_LT(a, x.find("s.h5:/u/000004"));
  EXPECT_LT(x.find("s.h5:/u/000004"), b);
  EXPECT_LT(b, x.find("s.h5:/u/000007"));
  EXPECT_CONTAINS(x, "Dimensions=\"2 2 3\" NumberType=\"Float\" Precision=\"8\"");
}

TEST_F(RuntimeHdf5, SeveralDatasetsInOneFile) {
  const Grid<float> u = numbered<float>("u", 2, {4, 3, 1, 1});
  const Grid<std::int32_t> m = numbered<std::int32_t>("m", 2, {4, 3, 1, 1});
  h5_save_grids(path("both.h5"), "prog", {&u, &m});
  Grid<float> u2("u", 2, {4, 3, 1, 1}, {1, 1, 0, 0});
  Grid<std::int32_t> m2("m", 2, {4, 3, 1, 1}, {0, 0, 0, 0});
  load_grid(u2, path("both.h5"));
  load_grid(m2, path("both.h5"));
  expect_same_interior(u, u2);
  expect_same_interior(m, m2);
  const std::string x = read(path("both.xmf"));
  EXPECT_CONTAINS(x, "<Grid Name=\"prog\" GridType=\"Uniform\">");
  EXPECT_CONTAINS(x, "Precision=\"4\" Format=\"HDF\">both.h5:/u</DataItem>");
  EXPECT_CONTAINS(x, "NumberType=\"Int\" Precision=\"4\" Format=\"HDF\">both.h5:/m</DataItem>");
}

TEST_F(RuntimeHdf5, LoadErrors) {
  Grid<float> u("u", 2, {4, 3, 1, 1}, {1, 1, 0, 0});
  const std::string missing = path("missing.h5");
  EXPECT_EQ(error_of([&] { load_grid(u, missing); }),
            missing + ": cannot open: No such file or directory");
  std::filesystem::create_directory(path("dir.h5"));
  EXPECT_EQ(error_of([&] { load_grid(u, path("dir.h5")); }),
            path("dir.h5") + ": cannot read: it is a directory");
  save_grid(u, path("u.npy"));
  std::filesystem::rename(path("u.npy"), path("npy.h5"));
  EXPECT_EQ(error_of([&] { load_grid(u, path("npy.h5")); }), path("npy.h5") + ": not an HDF5 file");

  // Another grid's file: the dataset is missing, and the message lists what is there.
  save_grid(numbered<float>("v", 2, {4, 3, 1, 1}), path("v.h5"));
  EXPECT_EQ(error_of([&] { load_grid(u, path("v.h5")); }),
            path("v.h5") + ": no dataset '/u' for grid 'u' (the file has /v)");

  // A time series holds a group per grid.
  {
    H5File f(path("series.h5"));
    f.write("/u/000010", u);
    f.close();
  }
  EXPECT_EQ(error_of([&] { load_grid(u, path("series.h5")); }),
            path("series.h5") +
                ": '/u' is not a dataset but a group (a time series? its datasets are '/u/STEP')");

  // Element types must match (int and float of one size too).
  save_grid(numbered<double>("u", 2, {4, 3, 1, 1}), path("d.h5"));
  EXPECT_EQ(error_of([&] { load_grid(u, path("d.h5")); }),
            path("d.h5") + ": dataset '/u' of type '<f8' does not match grid 'u' of type float "
                           "('<f4')");
  save_grid(numbered<std::int32_t>("u", 2, {4, 3, 1, 1}), path("i.h5"));
  EXPECT_EQ(error_of([&] { load_grid(u, path("i.h5")); }),
            path("i.h5") + ": dataset '/u' of type '<i4' does not match grid 'u' of type float "
                           "('<f4')");

  // Shapes: the extents reversed, nothing else.
  save_grid(numbered<float>("u", 2, {3, 4, 1, 1}), path("t.h5"));
  EXPECT_EQ(error_of([&] { load_grid(u, path("t.h5")); }),
            path("t.h5") + ": dataset '/u' of shape (4, 3) does not match grid 'u' of shape "
                           "(4, 3): expected (3, 4) (the extents reversed: C order, x fastest)");
  save_grid(numbered<float>("u", 3, {4, 3, 2, 1}), path("r.h5"));
  EXPECT_CONTAINS(error_of([&] { load_grid(u, path("r.h5")); }),
                  "dataset '/u' of shape (2, 3, 4) does not match grid 'u' of shape (4, 3)");
  Grid<float> r1("u", 1, {12, 1, 1, 1}, {0, 0, 0, 0});
  EXPECT_EQ(error_of([&] { load_grid(r1, path("v.h5")); }),
            path("v.h5") + ": no dataset '/u' for grid 'u' (the file has /v)");
  EXPECT_CONTAINS(error_of([&] { load_grid(r1, path("t.h5")); }),
                  "dataset '/u' of shape (4, 3) does not match grid 'u' of shape (12,): expected "
                  "(12,)");
}

TEST_F(RuntimeHdf5, WriteErrors) {
  const Grid<float> u = numbered<float>("u", 2, {4, 3, 1, 1});
  const std::string p = path("no/such/dir/u.h5");
  EXPECT_EQ(error_of([&] { save_grid(u, p); }),
            p + ": cannot open for writing: No such file or directory");
  std::filesystem::create_directory(path("d.h5"));
  EXPECT_EQ(error_of([&] { save_grid(u, path("d.h5")); }),
            path("d.h5") + ": cannot open for writing: Is a directory");
  EXPECT_TRUE(std::filesystem::is_directory(path("d.h5")));
  Grid<float> empty;
  EXPECT_CONTAINS(error_of([&] { save_grid(empty, path("e.h5")); }), "has no storage");
  EXPECT_CONTAINS(error_of([&] { load_grid(empty, path("e.h5")); }), "has no storage");
  EXPECT_FALSE(std::filesystem::exists(path("e.h5")));
  // A dataset that exists already cannot be written twice.
  H5File f(path("twice.h5"));
  f.write("/u", u);
  EXPECT_CONTAINS(error_of([&] { f.write("/u", u); }),
                  path("twice.h5") + ": cannot create dataset '/u': ");
  EXPECT_CONTAINS(error_of([&] { write_text_file(path("no/dir/x.xmf"), "x"); }),
                  "no/dir/x.xmf: cannot open for writing: No such file or directory");
}
