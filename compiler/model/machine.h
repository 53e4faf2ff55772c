// Machine profiles: the built-in JSON profiles, files written by `stencilc calibrate`, and the
// default choice. (The model itself, model.h, never reads files.)
#pragma once
#include <string>
#include <vector>

#include "model/model.h"
#include "stencilc/plan.h"

namespace stc::model {

/// Parses a profile; throws stencilc::Error naming `origin` for bad JSON or missing fields.
Machine machine_from_json(const std::string &text, const std::string &origin);
std::string machine_to_json(const Machine &m, const std::string &description,
                            const std::string &sources);

/// A CPU profile for the machine in another spell (tune's probes, beside its candidates): its
/// memory rates (B, B_s, B_9 and the short copies) times `memory`, its cores' rates (the stencil
/// rates, the roofline's ceilings, per-row and barrier times) times `compute`; the engine's
/// efficiencies, caches and network unchanged. Throws for a factor that is not positive.
Machine scaled_machine(const Machine &m, double memory, double compute);

std::vector<std::string> builtin_machines();

/// Where `calibrate` writes by default: $XDG_CONFIG_HOME/stencilc/machine.json or
/// ~/.config/stencilc/machine.json.
std::string calibrated_machine_path();

/// `--machine NAME|FILE`: a built-in name, else a file. Empty: the calibrated profile if
/// present, else generic-cpu for CPU targets and h100-sxm for GPU ones. `chosen_from` says
/// which (for explain's output).
Machine load_machine(const std::string &name_or_file, stencilc::Platform platform,
                     std::string &chosen_from);

} // namespace stc::model
