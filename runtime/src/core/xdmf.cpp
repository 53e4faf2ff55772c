#include "stencilc/xdmf.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "stencilc/error.h"

namespace stencilc {

namespace {

std::string escape(const std::string &s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&apos;"; break;
    default: out += c;
    }
  }
  return out;
}

// XDMF lists dimensions slowest first, as HDF5 does: (NZ, NY, NX).
std::string dimensions(const std::vector<std::int64_t> &extents) {
  std::string s;
  for (auto it = extents.rbegin(); it != extents.rend(); ++it)
    s += (s.empty() ? "" : " ") + std::to_string(*it);
  return s;
}

// A uniform grid at the given indentation, with an optional <Time>.
std::string uniform(const std::string &name, const std::vector<std::int64_t> &extents,
                    const std::vector<XdmfAttribute> &attrs, const std::string &indent,
                    const std::int64_t *time) {
  if (!xdmf_describes(static_cast<int>(extents.size())))
    throw Error("XDMF describes grids of rank 2 and 3, not " + std::to_string(extents.size()));
  const bool three = extents.size() == 3;
  const std::string dims = dimensions(extents);
  const std::string vec = three ? "3" : "2";
  const std::string in = indent + "  ", in2 = in + "  ";
  std::string s = indent + "<Grid Name=\"" + escape(name) + "\" GridType=\"Uniform\">\n";
  if (time)
    s += in + "<Time Value=\"" + std::to_string(*time) + "\"/>\n";
  s += in + "<Topology TopologyType=\"" + (three ? "3DCoRectMesh" : "2DCoRectMesh") +
       "\" Dimensions=\"" + dims + "\"/>\n";
  // Origin 0 and spacing 1 in every dimension: the points are the cells' indices.
  s += in + "<Geometry GeometryType=\"" + (three ? "ORIGIN_DXDYDZ" : "ORIGIN_DXDY") + "\">\n";
  for (const char *what : {"Origin", "Spacing"})
    s += in2 + "<DataItem Name=\"" + what + "\" Dimensions=\"" + vec +
         "\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">" +
         (what[0] == 'O' ? (three ? "0 0 0" : "0 0") : (three ? "1 1 1" : "1 1")) + "</DataItem>\n";
  s += in + "</Geometry>\n";
  for (const auto &a : attrs) {
    s += in + "<Attribute Name=\"" + escape(a.name) +
         "\" AttributeType=\"Scalar\" Center=\"Node\">\n";
    s += in2 + "<DataItem Dimensions=\"" + dims + "\" NumberType=\"" +
         (a.integer ? "Int" : "Float") + "\" Precision=\"" + std::to_string(a.precision) +
         "\" Format=\"HDF\">" + escape(a.data) + "</DataItem>\n";
    s += in + "</Attribute>\n";
  }
  return s + indent + "</Grid>\n";
}

std::string document(const std::string &body) {
  return "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
         "<Xdmf Version=\"2.0\">\n  <Domain>\n" +
         body + "  </Domain>\n</Xdmf>\n";
}

} // namespace

XdmfAttribute xdmf_attribute(const GridRef &g, const std::string &data) {
  return std::visit(
      [&](const auto *grid) {
        using T = typename std::remove_pointer_t<decltype(grid)>::value_type;
        return XdmfAttribute{grid->name(), data, std::is_integral_v<T>, int(sizeof(T))};
      },
      g);
}

std::string xdmf_uniform(const std::string &name, const std::vector<std::int64_t> &extents,
                         const std::vector<XdmfAttribute> &attrs) {
  return document(uniform(name, extents, attrs, "    ", nullptr));
}

std::string xdmf_temporal(const std::string &name, const std::vector<std::int64_t> &extents,
                          const std::vector<XdmfStep> &steps) {
  std::string body = "    <Grid Name=\"" + escape(name) +
                     "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const auto &st : steps)
    body += uniform(name, extents, st.attrs, "      ", &st.step);
  return document(body + "    </Grid>\n");
}

void write_text_file(const std::string &path, const std::string &text) {
  const std::string tmp = path + ".tmp";
  std::FILE *f = std::fopen(tmp.c_str(), "wb");
  if (!f)
    throw Error(path + ": cannot open for writing: " + std::strerror(errno));
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  int err = ok ? 0 : errno;
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    std::remove(tmp.c_str());
    throw Error(path + ": cannot write: " + std::strerror(err));
  }
}

} // namespace stencilc
