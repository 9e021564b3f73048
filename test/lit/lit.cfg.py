# lit configuration for gpu-autopar's tool tests.
#
# Substitutions:
#   %gpu-autopar   the tool under test
#   %cxx           the host C++ compiler, with the runtime's include path
#   %runtime       the runtime library to link (with -pthread)
#   %expect-exit N cmd   runs cmd and requires exit status N
#   %nvcc          the CUDA compiler (only where the 'cuda' feature is present)
#   %e2e --out DIR SOURCE   rewrite, build, run under each device setting and
#                  compare with the serial build (see e2e_check.py)
#   %run-corpus equal|witness --out DIR SOURCE DRIVER   a dependence corpus run through its driver:
#                  accepted loops equal to serial on cpu and sim:3; witnesses confirmed (analysis/run_corpus.py)
#   %convert-check --accept omp,acc --out DIR SOURCE...   --convert changes only
#                  the directives and rewrites like --accept (see convert_check.py)
import os
import lit.formats

config.name = "gpu-autopar"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".c", ".cu", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "expect_exit.py", "e2e_check.py",
                   "compile_accepted.py", "notes_add_information.py", "convert_check.py"]
config.test_source_root = config.source_root
config.test_exec_root = config.binary_root

# FileCheck, not and count come from LLVM 22.
config.environment["PATH"] = os.pathsep.join([config.llvm_tools_dir, config.environment.get("PATH", "")])
# Rewritten programs run on CPU threads unless a test asks for other devices.
for var in ["GPU_AUTOPAR_DEVICES", "GPU_AUTOPAR_REPORT", "GPU_AUTOPAR_LOG", "GPU_AUTOPAR_THREADS",
            "GPU_AUTOPAR_PROGRESS", "CUDA_VISIBLE_DEVICES"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

import sys
config.substitutions.append(("%expect-exit", "%s %s" % (sys.executable, os.path.join(config.source_root, "expect_exit.py"))))
config.substitutions.append(("%convert-check", "%s %s --tool %s" % (
    sys.executable, os.path.join(config.source_root, "convert_check.py"), config.gpu_autopar_tool)))
config.substitutions.append(("%gpu-autopar", config.gpu_autopar_tool))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%cxx", "%s -std=c++17 -O1 -Wall -I%s" % (config.cxx, config.runtime_include)))
config.substitutions.append(("%runtime", "%s -pthread" % config.runtime_lib))
if config.have_cuda:
    config.available_features.add("cuda")
    # The bare compiler, for tests that show what the documented flags prevent.
    config.substitutions.append(("%{nvcc-bin}", config.cuda_compiler))
    config.substitutions.append(("%{check-ptx}", "%s %s --check-ptx" % (
        sys.executable, os.path.join(config.source_root, "e2e_check.py"))))
    config.substitutions.append(("%nvcc", "%s -std=c++17 --extended-lambda --expt-relaxed-constexpr "
                                 "--diag-error 20011,20013 -arch=sm_75 -I%s"
                                 % (config.cuda_compiler, config.runtime_include)))

# Runs a dependence corpus through its driver: `%run-corpus equal|witness --out DIR SOURCE DRIVER` (run_corpus.py).
config.substitutions.append(("%run-corpus", "%s %s --tool %s --cxx %s --include %s --runtime %s" % (
    sys.executable, os.path.join(config.source_root, "analysis", "run_corpus.py"), config.gpu_autopar_tool,
    config.cxx, config.runtime_include, config.runtime_lib)))
config.substitutions.append(("%compile-accepted", "%s %s --tool %s --cxx %s --include %s %s" % (
    sys.executable, os.path.join(config.source_root, "compile_accepted.py"), config.gpu_autopar_tool, config.cxx,
    config.runtime_include, ("--nvcc " + config.cuda_compiler) if config.have_cuda else "")))
# The device settings every end-to-end program runs under: CPU threads, one
# simulated device, three, four of uneven speed, and three of which one fails
# its second chunk and another runs out of memory on its first (the chunks are
# retried elsewhere; the output must not change).
e2e_devices = "cpu;sim:1;sim:3;sim:4,speed=1:2:1:1;sim:3,fail=1@2,oom=2@1"
# With nvcc, the CUDA build of every end-to-end program also runs against the
# CUDA stand-in (test/standin/README.md): 1, 2 and 4 fake GPUs; uneven memory
# (the small ones cannot hold every chunk); out of memory injected at the
# first, second and fifth allocation; and a launch that faults, poisoning its
# GPU's context.
e2e_standin = ";".join([
    "devices=1", "devices=2", "devices=4",
    "devices=4 memory=1G:96K:256K:1M",
    "devices=2 fail_alloc=1", "devices=2 fail_alloc=2", "devices=3 fail_alloc=5",
    "devices=3 fault_launch=2",
])
cuda_args = ""
if config.have_cuda:
    cuda_args = "--nvcc %s --standin %s --standin-settings '%s'" % (config.cuda_compiler, config.standin_lib_dir,
                                                                     e2e_standin)
    # `lit --param gpu=1`: also run every CUDA build on this machine's GPUs (docs/runtime.md).
    if lit_config.params.get("gpu"):
        cuda_args += " --gpu"
config.substitutions.append(("%e2e", "%s %s --tool %s --cxx %s --include %s --runtime %s --standard '%s' %s" % (
    sys.executable, os.path.join(config.source_root, "e2e_check.py"), config.gpu_autopar_tool, config.cxx,
    config.runtime_include, config.runtime_lib, e2e_devices, cuda_args)))
