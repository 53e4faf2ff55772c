#include "model/machine.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "stencilc/error.h"

namespace stc {
const std::map<std::string, std::string> &embedded_machines();
}

namespace stc::model {

Machine machine_from_json_checked(const std::string &text, const std::string &origin);

Machine machine_from_json(const std::string &text, const std::string &origin) {
  try {
    return machine_from_json_checked(text, origin);
  } catch (const nlohmann::json::exception &e) {
    throw stencilc::Error(origin + ": bad machine profile: " + e.what());
  }
}

Machine machine_from_json_checked(const std::string &text, const std::string &origin) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    throw stencilc::Error(origin + ": not a JSON object");
  Machine m;
  auto num = [&](const char *key, double &out, bool required) {
    if (!j.contains(key)) {
      if (required)
        throw stencilc::Error(fmt::format("{}: machine profile has no \"{}\"", origin, key));
      return;
    }
    if (!j[key].is_number() || j[key].get<double>() < 0)
      throw stencilc::Error(fmt::format("{}: \"{}\" must be a non-negative number", origin, key));
    out = j[key].get<double>();
  };
  if (j.contains("name") && !j["name"].is_string())
    throw stencilc::Error(origin + ": \"name\" must be a string");
  if (j.contains("kind") && !j["kind"].is_string())
    throw stencilc::Error(origin + ": \"kind\" must be \"cpu\" or \"gpu\"");
  m.name = j.value("name", origin);
  m.kind = j.value("kind", std::string("cpu"));
  if (m.kind != "cpu" && m.kind != "gpu")
    throw stencilc::Error(origin + ": \"kind\" must be \"cpu\" or \"gpu\"");
  num("bandwidth", m.bandwidth, true);
  num("flops", m.flops, true);
  if (m.bandwidth <= 0 || m.flops <= 0)
    throw stencilc::Error(origin + ": \"bandwidth\" and \"flops\" must be positive");
  double v = 0;
  num("threads", v, false);
  m.threads = v > 0 ? static_cast<int>(v) : 1;
  num("cache_bytes", m.cache_bytes, m.kind == "cpu");
  num("shared_cache_bytes", m.shared_cache_bytes, false);
  num("shared_cache_flops", m.shared_cache_flops, false);
  num("barrier_seconds", m.barrier_seconds, false);
  num("wide_flops", m.wide_flops, false);
  num("sweep_bandwidth", m.sweep_bandwidth, false);
  num("sweep_bandwidth_2d", m.sweep_bandwidth_2d, false);
  num("engine_efficiency", m.engine_efficiency, false);
  num("wide_engine_efficiency", m.wide_engine_efficiency, false);
  num("engine_efficiency_2d", m.engine_efficiency_2d, false);
  num("engine_efficiency_f64", m.engine_efficiency_f64, false);
  num("engine_efficiency_coef", m.engine_efficiency_coef, false);
  num("xreg_engine_efficiency", m.xreg_engine_efficiency, false);
  num("xreg_engine_efficiency_2d", m.xreg_engine_efficiency_2d, false);
  num("wide_xreg_engine_efficiency", m.wide_xreg_engine_efficiency, false);
  num("row_seconds", m.row_seconds, false);
  num("wide_row_seconds", m.wide_row_seconds, false);
  num("call_seconds", m.call_seconds, false);
  num("stream_call_seconds", m.stream_call_seconds, false);
  num("stream_slowdown", m.stream_slowdown, false);
  num("few_streams_bandwidth", m.few_streams_bandwidth, false);
  num("peak_flops", m.peak_flops, false);
  num("l1_bandwidth", m.l1_bandwidth, false);
  num("l2_bandwidth", m.l2_bandwidth, false);
  num("l3_bandwidth", m.l3_bandwidth, false);
  num("probe_sweep_bandwidth", m.probe_sweep_bandwidth, false);
  num("probe_stencil_rate", m.probe_stencil_rate, false);
  num("handoff_seconds", m.handoff_seconds, false);
  // A list of [bytes, value] pairs in ascending bytes, bytes positive; values positive, or
  // shares (from 0 to 1).
  auto curve = [&](const char *key, const char *fraction, std::vector<std::array<double, 2>> &out) {
    const bool shares = fraction != nullptr;
    if (!j.contains(key))
      return;
    const auto &list = j[key];
    const std::string bad =
        shares ? fmt::format("{}: \"{}\" must be a list of [bytes, {}] pairs in ascending "
                             "bytes, bytes positive, {}s from 0 to 1",
                             origin, key, fraction, fraction)
               : fmt::format("{}: \"{}\" must be a list of [bytes, bytes/s] pairs of positive "
                             "numbers in ascending bytes",
                             origin, key);
    if (!list.is_array())
      throw stencilc::Error(bad);
    for (const auto &pt : list) {
      if (!pt.is_array() || pt.size() != 2 || !pt[0].is_number() || !pt[1].is_number())
        throw stencilc::Error(bad);
      const double bytes = pt[0].get<double>(), value = pt[1].get<double>();
      if (!(bytes > 0) || (shares ? !(value >= 0 && value <= 1) : !(value > 0)) ||
          (!out.empty() && bytes <= out.back()[0]))
        throw stencilc::Error(bad);
      out.push_back({bytes, value});
    }
  };
  curve("l3_load_curve", nullptr, m.l3_load_curve);
  curve("l3_sweep_curve", nullptr, m.l3_sweep_curve);
  curve("l3_reuse_curve", "share", m.l3_reuse_curve);
  curve("l3_ring_curve", "relative rate", m.l3_ring_curve);
  v = 0;
  num("sms", v, m.kind == "gpu");
  m.sms = static_cast<int>(v);
  v = 0;
  num("max_blocks_per_sm", v, m.kind == "gpu");
  m.max_blocks_per_sm = static_cast<int>(v);
  num("shared_bandwidth", m.shared_bandwidth, m.kind == "gpu");
  num("shared_bytes_per_block", m.shared_bytes_per_block, m.kind == "gpu");
  num("launch_seconds", m.launch_seconds, false);
  num("naive_traffic_factor", m.naive_traffic_factor, false);
  num("net_latency", m.net_latency, false);
  num("net_bandwidth", m.net_bandwidth, false);
  num("link_bandwidth", m.link_bandwidth, false);
  num("host_flops", m.host_flops, false);
  num("host_bandwidth", m.host_bandwidth, false);
  if (m.net_bandwidth <= 0)
    m.net_bandwidth = 1e10;
  // The SM's limits for the occupancy of kernels whose registers ptxas reported (optional).
  v = 0;
  num("registers_per_sm", v, false);
  if (v > 0)
    m.registers_per_sm = static_cast<int>(v);
  v = 0;
  num("max_threads_per_sm", v, false);
  if (v > 0)
    m.max_threads_per_sm = static_cast<int>(v);
  num("shared_bytes_per_sm", m.shared_bytes_per_sm, false);
  if (j.contains("arch") && !j["arch"].is_string())
    throw stencilc::Error(origin + ": \"arch\" must be a string (e.g. \"sm_90\")");
  m.arch = j.value("arch", std::string());
  if (m.kind == "gpu" && (m.shared_bandwidth <= 0 || m.sms <= 0 || m.max_blocks_per_sm <= 0))
    throw stencilc::Error(origin + ": a GPU profile needs positive \"shared_bandwidth\", \"sms\" "
                                   "and \"max_blocks_per_sm\"");
  return m;
}

std::string machine_to_json(const Machine &m, const std::string &description,
                            const std::string &sources) {
  nlohmann::ordered_json j;
  j["name"] = m.name;
  j["description"] = description;
  j["kind"] = m.kind;
  j["bandwidth"] = m.bandwidth;
  j["flops"] = m.flops;
  j["threads"] = m.threads;
  j["cache_bytes"] = m.cache_bytes;
  j["shared_cache_bytes"] = m.shared_cache_bytes;
  j["shared_cache_flops"] = m.shared_cache_flops;
  j["barrier_seconds"] = m.barrier_seconds;
  if (m.wide_flops > 0)
    j["wide_flops"] = m.wide_flops;
  if (m.sweep_bandwidth > 0)
    j["sweep_bandwidth"] = m.sweep_bandwidth;
  if (m.sweep_bandwidth_2d > 0)
    j["sweep_bandwidth_2d"] = m.sweep_bandwidth_2d;
  if (m.engine_efficiency > 0)
    j["engine_efficiency"] = m.engine_efficiency;
  if (m.wide_engine_efficiency > 0)
    j["wide_engine_efficiency"] = m.wide_engine_efficiency;
  if (m.engine_efficiency_2d > 0)
    j["engine_efficiency_2d"] = m.engine_efficiency_2d;
  if (m.engine_efficiency_f64 > 0)
    j["engine_efficiency_f64"] = m.engine_efficiency_f64;
  if (m.engine_efficiency_coef > 0)
    j["engine_efficiency_coef"] = m.engine_efficiency_coef;
  if (m.xreg_engine_efficiency > 0)
    j["xreg_engine_efficiency"] = m.xreg_engine_efficiency;
  if (m.xreg_engine_efficiency_2d > 0)
    j["xreg_engine_efficiency_2d"] = m.xreg_engine_efficiency_2d;
  if (m.wide_xreg_engine_efficiency > 0)
    j["wide_xreg_engine_efficiency"] = m.wide_xreg_engine_efficiency;
  if (m.row_seconds > 0)
    j["row_seconds"] = m.row_seconds;
  if (m.wide_row_seconds > 0)
    j["wide_row_seconds"] = m.wide_row_seconds;
  if (m.call_seconds > 0)
    j["call_seconds"] = m.call_seconds;
  if (m.stream_call_seconds > 0)
    j["stream_call_seconds"] = m.stream_call_seconds;
  if (m.stream_slowdown > 0)
    j["stream_slowdown"] = m.stream_slowdown;
  if (m.few_streams_bandwidth > 0)
    j["few_streams_bandwidth"] = m.few_streams_bandwidth;
  if (m.peak_flops > 0) { // measured by calibrate (CPU)
    j["peak_flops"] = m.peak_flops;
    j["l1_bandwidth"] = m.l1_bandwidth;
    j["l2_bandwidth"] = m.l2_bandwidth;
    j["l3_bandwidth"] = m.l3_bandwidth;
  }
  if (m.probe_sweep_bandwidth > 0 && m.probe_stencil_rate > 0) {
    j["probe_sweep_bandwidth"] = m.probe_sweep_bandwidth;
    j["probe_stencil_rate"] = m.probe_stencil_rate;
  }
  if (m.handoff_seconds > 0)
    j["handoff_seconds"] = m.handoff_seconds;
  if (!m.l3_load_curve.empty())
    j["l3_load_curve"] = m.l3_load_curve;
  if (!m.l3_sweep_curve.empty())
    j["l3_sweep_curve"] = m.l3_sweep_curve;
  if (!m.l3_reuse_curve.empty())
    j["l3_reuse_curve"] = m.l3_reuse_curve;
  if (!m.l3_ring_curve.empty())
    j["l3_ring_curve"] = m.l3_ring_curve;
  j["net_latency"] = m.net_latency;
  j["net_bandwidth"] = m.net_bandwidth;
  j["link_bandwidth"] = m.link_bandwidth;
  if (m.host_flops > 0) { // GPU: the host cores beside the device
    j["host_flops"] = m.host_flops;
    j["host_bandwidth"] = m.host_bandwidth;
  }
  j["sources"] = sources;
  return j.dump(2) + "\n";
}

Machine scaled_machine(const Machine &m, double memory, double compute) {
  if (!(memory > 0) || !(compute > 0))
    throw stencilc::Error("a machine's rates scaled by a factor that is not positive");
  Machine s = m;
  // Memory: what moves data between the DRAM and the cores.
  s.bandwidth *= memory;
  s.sweep_bandwidth *= memory;
  s.sweep_bandwidth_2d *= memory;
  s.few_streams_bandwidth *= memory;
  // The cores and their caches: the in-cache stencil rates, the roofline's ceilings, and what
  // the engine and the runtime spend per row and per barrier.
  s.flops *= compute;
  s.wide_flops *= compute;
  s.shared_cache_flops *= compute;
  s.peak_flops *= compute;
  s.l1_bandwidth *= compute;
  s.l2_bandwidth *= compute;
  s.l3_bandwidth *= compute;
  s.row_seconds /= compute;
  s.wide_row_seconds /= compute;
  s.call_seconds /= compute;
  s.stream_call_seconds /= compute;
  s.barrier_seconds /= compute;
  // The probes are the machine's as it was calibrated: the scaled profile keeps them, so its
  // factors stay relative to the calibration.
  return s;
}

std::vector<std::string> builtin_machines() {
  std::vector<std::string> names;
  for (const auto &[file, text] : embedded_machines())
    names.push_back(file.substr(0, file.size() - 5)); // drop ".json"
  return names;
}

std::string calibrated_machine_path() {
  const char *xdg = std::getenv("XDG_CONFIG_HOME");
  const char *home = std::getenv("HOME");
  const std::string base = xdg && *xdg ? xdg : std::string(home && *home ? home : ".") + "/.config";
  return base + "/stencilc/machine.json";
}

namespace {

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw stencilc::Error("cannot read machine profile '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace

Machine load_machine(const std::string &name_or_file, stencilc::Platform platform,
                     std::string &chosen_from) {
  const auto &builtin = embedded_machines();
  std::string name = name_or_file;
  if (name.empty()) {
    const bool gpu = platform == stencilc::Platform::Gpu;
    const std::string calibrated = calibrated_machine_path();
    if (!gpu && std::filesystem::exists(calibrated)) {
      chosen_from = "calibrated profile " + calibrated;
      return machine_from_json(read_file(calibrated), calibrated);
    }
    name = gpu ? "h100-sxm" : "generic-cpu";
    chosen_from = "built-in " + name + (gpu ? " (default for GPU targets)"
                                            : " (no calibrated profile; run stencilc calibrate)");
  } else {
    chosen_from = name;
  }
  auto it = builtin.find(name + ".json");
  if (it != builtin.end())
    return machine_from_json(it->second, name);
  if (std::filesystem::is_regular_file(name))
    return machine_from_json(read_file(name), name);
  std::string list;
  for (const auto &n : builtin_machines())
    list += (list.empty() ? "" : ", ") + n;
  throw stencilc::Error(fmt::format("--machine {}: no built-in profile or file of that name "
                                    "(built-in: {})",
                                    name, list));
}

} // namespace stc::model
