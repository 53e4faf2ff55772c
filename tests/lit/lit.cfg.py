# lit configuration of the stencilc golden-codegen, diagnostics and CLI tests.
#
# Normally run through CMake (`ctest -R lit`, or lit on <build>/tests/lit, where CMake writes
# lit.site.cfg.py with the paths of that build). Running lit on this source directory works
# too: pass the binary with `--param stencilc=PATH` (and `--param llvm_tools_dir=DIR` if
# FileCheck is not in /usr/lib/llvm-14/bin).
import os
import shutil

import lit.formats

config.name = "stencilc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".stn", ".c"]  # .c: Physis programs (tests/lit/physis)
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

if not getattr(config, "stencilc", None):
    config.stencilc = lit_config.params.get("stencilc") or shutil.which("stencilc")
    if not config.stencilc:
        lit_config.fatal("no stencilc binary: configure with CMake or pass --param stencilc=PATH")
if not getattr(config, "llvm_tools_dir", None):
    config.llvm_tools_dir = lit_config.params.get("llvm_tools_dir", "/usr/lib/llvm-14/bin")
if not getattr(config, "test_exec_root", None):
    config.test_exec_root = os.path.join(lit_config.params.get("build_dir", "/tmp"),
                                         "stencilc-lit")

for tool in ("FileCheck", "not", "count", "split-file"):
    path = os.path.join(config.llvm_tools_dir, tool)
    if not os.access(path, os.X_OK):
        lit_config.fatal("cannot find %s in %s (Debian: llvm-14-tools)" % (tool, config.llvm_tools_dir))

# Whole words only: 'not' must not match inside 'cannot', nor 'FileCheck' inside a path.
config.substitutions.append(("%stencilc", config.stencilc))
config.substitutions.append((r"(?<![\w./-])FileCheck(?![\w.-])",
                             os.path.join(config.llvm_tools_dir, "FileCheck")))
config.substitutions.append((r"(?<![\w./-])not(?![\w.-])",
                             os.path.join(config.llvm_tools_dir, "not")))
config.substitutions.append((r"(?<![\w./-])split-file(?![\w.-])",
                             os.path.join(config.llvm_tools_dir, "split-file")))
config.substitutions.append((r"(?<![\w./-])count(?![\w.-])",
                             os.path.join(config.llvm_tools_dir, "count")))

# No calibrated machine profile, whoever runs the tests: the plans the goldens show are the
# model's choice for its built-in default profile (tests that mean another name --machine).
# lit does not pass HOME through, so without this the profile would be looked up relative to
# each test's working directory.
config_home = os.path.join(config.test_exec_root, "config-home")
os.makedirs(config_home, exist_ok=True)
if os.listdir(config_home):
    lit_config.fatal("%s must be empty: it stands for a user without a machine profile" % config_home)
config.environment["XDG_CONFIG_HOME"] = config_home
config.environment["HOME"] = config_home

# Messages (strerror texts) must not depend on the user's locale.
config.environment["LC_ALL"] = "C"
config.environment["OMP_NUM_THREADS"] = "2"
