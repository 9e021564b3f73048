// The CUDA runtime API functions the stand-in exports (devices, memory,
// copies, streams, events, errors), each checking its call against the model
// (model.h). Kernel registration and launches are in launch.cpp.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "model.h"

using namespace standin;

namespace {

constexpr unsigned char kPoison = 0xA5; // fresh device memory; a D2H destination until the copy lands

// Work on the calling thread's current device must find it usable.
#define STANDIN_CURRENT_DEVICE_OR_RETURN()                                                                       \
  auto guard = lock();                                                                                          \
  const int dev = current_device();                                                                             \
  if (cudaError_t e = check_device(dev))                                                                        \
    return fail(e);

std::string bytes_text(std::size_t n) { return std::to_string(n) + " bytes"; }

// Device memory named by a call must belong to the current device and be live.
bool check_device_range(const void* p, std::size_t n, int dev, const char* call) {
  allocation* a = find_allocation(p, true);
  if (!a)
    return true; // host memory
  if (a->freed) {
    violation("use-after-free", std::string(call) + " on " + describe(p) + " after cudaFree");
    return false;
  }
  auto lo = reinterpret_cast<std::uintptr_t>(p);
  if (lo + n > a->base + a->bytes) {
    violation("out-of-bounds", std::string(call) + " of " + bytes_text(n) + " at " + describe(p) +
                                   " runs past the end of its " + bytes_text(a->bytes) + " allocation");
    return false;
  }
  if (a->device != dev && !a->managed)
    violation("wrong-device", std::string(call) + " on " + describe(p) + " while device " + std::to_string(dev) +
                                  " is current");
  return true;
}

bool is_device(const void* p) { return find_allocation(p, false) != nullptr; }

std::uintptr_t addr(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// The destination of an asynchronous copy to the host is undefined until the
// copy lands; if it never runs (a fault before it lost the context), the
// memory is as it was.
void poison_until_landed(op& o, void* dst, std::size_t n) {
  auto before = std::make_shared<std::vector<unsigned char>>(static_cast<unsigned char*>(dst),
                                                              static_cast<unsigned char*>(dst) + n);
  std::memset(dst, kPoison, n);
  o.cancel = [dst, before] { std::memcpy(dst, before->data(), before->size()); };
}

// Enqueues a copy on `st`; the caller decides whether the host waits for it.
cudaError_t enqueue_copy(stream& st, void* dst, const void* src, std::size_t n, cudaMemcpyKind kind,
                         const char* call, bool async) {
  state& s = global();
  const int dev = current_device();
  if (st.device != dev)
    violation("foreign-stream", std::string(call) + " on stream " + std::to_string(st.id) + " of device " +
                                    std::to_string(st.device) + " while device " + std::to_string(dev) + " is current");
  const bool dst_dev = find_allocation(dst, true) != nullptr, src_dev = find_allocation(src, true) != nullptr;
  if (kind == cudaMemcpyDefault)
    kind = dst_dev ? (src_dev ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                   : (src_dev ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  if ((kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice) && !dst_dev)
    return fail(cudaErrorInvalidValue);
  if ((kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice) && !src_dev)
    return fail(cudaErrorInvalidValue);
  if (!check_device_range(dst, n, dev, call) || !check_device_range(src, n, dev, call))
    return fail(cudaErrorInvalidValue);
  counts& c = s.devices[dev].n;
  op o;
  o.accesses.push_back({addr(dst), addr(dst) + n, true});
  switch (kind) {
  case cudaMemcpyHostToDevice: {
    host_access(src, n, false, call);
    o.eng = engine::h2d;
    o.cost = copy_cost(n, async && pinned(src, n) ? link::pcie_pinned : link::pcie_pageable);
    if (async && pinned(src, n)) {
      // From pinned memory the device reads the source when the copy runs:
      // the host must leave it alone until then.
      o.accesses.push_back({addr(src), addr(src) + n, false});
      o.run = [dst, src, n] { std::memmove(dst, src, n); };
    } else {
      // From pageable memory the source is staged before the call returns, so
      // the host may reuse it at once (the call holds it meanwhile); the
      // device sees it when the op runs.
      auto staged = std::make_shared<std::vector<unsigned char>>(static_cast<const unsigned char*>(src),
                                                                 static_cast<const unsigned char*>(src) + n);
      o.run = [dst, staged] { std::memcpy(dst, staged->data(), staged->size()); };
      o.holds_host = true;
    }
    o.what = std::string(call) + " host to device of " + bytes_text(n);
    ++c.h2d;
    o.host_bytes = n;
    c.h2d_bytes += n;
    if (!pinned(src, n))
      c.h2d_pageable_bytes += n;
    break;
  }
  case cudaMemcpyDeviceToHost:
    if (async && pinned(dst, n)) {
      // Into pinned memory the device writes when the copy runs, in stream
      // order: work queued before it on this stream may still read it (a
      // section's copy in, then the chunk's results back into the same
      // memory). Other work touching it races, found when either runs.
      host_access(dst, n, true, call, st.id);
      o.accesses.push_back({addr(dst), addr(dst) + n, true});
      if (!pending_touch(dst, n))
        poison_until_landed(o, dst, n);
    } else {
      host_access(dst, n, true, call);
      if (async)
        poison_until_landed(o, dst, n);
    }
    o.accesses.push_back({addr(src), addr(src) + n, false});
    o.run = [dst, src, n] { std::memmove(dst, src, n); };
    o.what = std::string(call) + " device to host of " + bytes_text(n);
    o.eng = engine::d2h;
    o.cost = copy_cost(n, pinned(dst, n) ? link::pcie_pinned : link::pcie_pageable);
    o.holds_host = !pinned(dst, n); // into pageable memory the call returns when the copy is done
    ++c.d2h;
    o.host_bytes = n;
    c.d2h_bytes += n;
    if (!pinned(dst, n))
      c.d2h_pageable_bytes += n;
    break;
  case cudaMemcpyDeviceToDevice:
    o.accesses.push_back({addr(src), addr(src) + n, false});
    o.run = [dst, src, n] { std::memmove(dst, src, n); };
    o.cost = copy_cost(n, link::hbm);
    o.what = std::string(call) + " device to device of " + bytes_text(n);
    ++c.d2d;
    c.d2d_bytes += n;
    break;
  default:
    host_access(src, n, false, call);
    host_access(dst, n, true, call);
    std::memmove(dst, src, n);
    return cudaSuccess;
  }
  enqueue(st, std::move(o));
  // Synchronous cudaMemcpy: device to host returns once the data is there;
  // host to device from pageable memory once it is staged; device to device
  // does not wait at all.
  if (!async && kind == cudaMemcpyDeviceToHost)
    host_waits_for_stream(st);
  return cudaSuccess;
}

cudaError_t enqueue_memset(stream& st, void* p, int value, std::size_t n, const char* call) {
  const int dev = current_device();
  if (st.device != dev)
    violation("foreign-stream", std::string(call) + " on stream " + std::to_string(st.id) + " of device " +
                                    std::to_string(st.device) + " while device " + std::to_string(dev) + " is current");
  if (!is_device(p) || !check_device_range(p, n, dev, call))
    return fail(cudaErrorInvalidValue);
  counts& c = global().devices[dev].n;
  ++c.memsets;
  c.memset_bytes += n;
  op o;
  o.what = std::string(call) + " of " + bytes_text(n);
  o.accesses.push_back({addr(p), addr(p) + n, true});
  o.run = [p, value, n] { std::memset(p, value, n); };
  o.cost = memset_cost(n);
  enqueue(st, std::move(o));
  return cudaSuccess; // asynchronous with respect to the host, also without a stream argument
}

struct error_info {
  cudaError_t code;
  const char* name;
  const char* text;
};

// The errors the stand-in returns, with CUDA's names and messages.
const error_info& error_text(cudaError_t e) {
  static const error_info table[] = {
      {cudaSuccess, "cudaSuccess", "no error"},
      {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
      {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
      {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
      {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
       "CUDA driver version is insufficient for CUDA runtime version"},
      {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
      {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
      {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
      {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
       "no kernel image is available for execution on the device"},
      {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
      {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
      {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
      {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
      {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
  };
  static const error_info unknown{cudaErrorUnknown, "cudaErrorUnknown", "unknown error"};
  for (const auto& i : table)
    if (i.code == e)
      return i;
  return unknown;
}

bool injected(const std::vector<std::uint64_t>& at, std::uint64_t k) {
  return std::find(at.begin(), at.end(), k) != at.end();
}

} // namespace

extern "C" {

// ---- devices -------------------------------------------------------------

cudaError_t cudaGetDeviceCount(int* count) {
  auto guard = lock();
  const int n = int(global().devices.size());
  *count = n;
  return n == 0 ? fail(cudaErrorNoDevice) : cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int d) {
  auto guard = lock();
  if (d < 0 || d >= int(global().devices.size()))
    return fail(cudaErrorInvalidDevice);
  const device& dev = global().devices[d];
  std::memset(prop, 0, sizeof *prop);
  std::snprintf(prop->name, sizeof prop->name, "gpu-autopar CUDA stand-in %d", d);
  prop->totalGlobalMem = dev.memory;
  prop->major = dev.major;
  prop->minor = dev.minor;
  prop->multiProcessorCount = 4;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647;
  prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
  prop->sharedMemPerBlock = 48 << 10;
  prop->regsPerBlock = 65536;
  prop->totalConstMem = 64 << 10;
  prop->unifiedAddressing = 1;
  prop->pciDeviceID = d;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int d) {
  auto guard = lock();
  if (d < 0 || d >= int(global().devices.size()))
    return fail(cudaErrorInvalidDevice);
  const device& dev = global().devices[d];
  switch (attr) {
  case cudaDevAttrComputeCapabilityMajor: *value = dev.major; break;
  case cudaDevAttrComputeCapabilityMinor: *value = dev.minor; break;
  case cudaDevAttrMultiProcessorCount: *value = 4; break;
  case cudaDevAttrMaxThreadsPerBlock: *value = 1024; break;
  case cudaDevAttrWarpSize: *value = 32; break;
  case cudaDevAttrMaxGridDimX: *value = 2147483647; break;
  default: *value = 0; break;
  }
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int d) {
  auto guard = lock();
  if (d < 0 || d >= int(global().devices.size()))
    return fail(cudaErrorInvalidDevice);
  current_device() = d;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* d) {
  *d = current_device();
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  ++global().devices[dev].n.device_syncs;
  host_waits_for_device(dev);
  return fail(global().devices[dev].sticky);
}

// Releases everything of the current device and clears a poisoned context.
cudaError_t cudaDeviceReset(void) {
  auto guard = lock();
  state& s = global();
  const int dev = current_device();
  if (dev < 0 || dev >= int(s.devices.size()))
    return fail(cudaErrorInvalidDevice);
  for (const auto& st : s.streams)
    if (st->device == dev) {
      st->pending.clear();
      if (!st->legacy)
        st->destroyed = true;
    }
  for (auto& [base, a] : s.allocations)
    if (a.device == dev && !a.freed) {
      a.freed = true;
      ::mprotect(reinterpret_cast<void*>(a.base), a.mapped, PROT_NONE);
    }
  s.devices[dev].used = 0;
  s.devices[dev].sticky = cudaSuccess;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}

// ---- memory --------------------------------------------------------------

cudaError_t cudaMalloc(void** p, std::size_t bytes) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  state& s = global();
  device& d = s.devices[dev];
  *p = nullptr;
  const std::uint64_t k = ++s.alloc_calls;
  // Allocation synchronises the device (CUDA's implicit synchronisation).
  host_waits_for_device(dev);
  host_spends(h100::malloc_s);
  if (injected(s.fail_allocs, k) || d.used + bytes > d.memory) {
    if (injected(s.fail_allocs, k))
      log_line("note: injected out of memory at allocation " + std::to_string(k) + " (device " +
               std::to_string(dev) + ", " + bytes_text(bytes) + ")");
    return fail(cudaErrorMemoryAllocation);
  }
  const long page = ::sysconf(_SC_PAGESIZE);
  const std::size_t mapped = (std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
  void* m = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return fail(cudaErrorMemoryAllocation);
  std::memset(m, kPoison, bytes);
  s.allocations[reinterpret_cast<std::uintptr_t>(m)] = allocation{reinterpret_cast<std::uintptr_t>(m), bytes, mapped, dev};
  d.used += bytes;
  d.peak = std::max(d.peak, d.used);
  ++d.n.mallocs;
  d.n.malloc_bytes += bytes;
  *p = m;
  return cudaSuccess;
}

// Managed memory: an allocation of the current device that every device and
// the host may use (no page migration is modelled: it is host memory here).
cudaError_t cudaMallocManaged(void** p, std::size_t bytes, unsigned int) {
  auto guard = lock();
  const cudaError_t e = cudaMalloc(p, bytes);
  if (e == cudaSuccess)
    find_allocation(*p, false)->managed = true;
  return e;
}

// What CUDA says of a pointer (CUDA 11 and later): device or managed memory
// (an allocation, with its device), registered host memory, or unregistered
// host memory, which is no error.
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attr, const void* p) {
  auto guard = lock();
  if (!attr)
    return fail(cudaErrorInvalidValue);
  *attr = cudaPointerAttributes{};
  attr->type = cudaMemoryTypeUnregistered;
  attr->device = -2;
  if (const allocation* a = find_allocation(p, false)) {
    attr->type = a->managed ? cudaMemoryTypeManaged : cudaMemoryTypeDevice;
    attr->device = a->device;
    attr->devicePointer = const_cast<void*>(p);
    attr->hostPointer = a->managed ? const_cast<void*>(p) : nullptr;
  } else if (pinned(p, 1)) {
    attr->type = cudaMemoryTypeHost;
    attr->device = 0;
    attr->devicePointer = attr->hostPointer = const_cast<void*>(p);
  }
  return cudaSuccess;
}

cudaError_t cudaFree(void* p) {
  auto guard = lock();
  state& s = global();
  if (!p)
    return cudaSuccess;
  allocation* a = find_allocation(p, true);
  if (!a || a->base != reinterpret_cast<std::uintptr_t>(p)) {
    violation("invalid-free", "cudaFree(" + describe(p) + "): not an address cudaMalloc returned");
    return fail(cudaErrorInvalidValue);
  }
  if (a->freed) {
    violation("double-free", "cudaFree(" + describe(p) + ") twice");
    return fail(cudaErrorInvalidValue);
  }
  device& d = s.devices[a->device];
  if (d.sticky != cudaSuccess)
    return fail(d.sticky);
  // cudaFree synchronises the device the memory belongs to.
  host_waits_for_device(a->device);
  host_spends(h100::free_s);
  a->freed = true;
  // Keep the address range reserved (never reused) but inaccessible: a later
  // access through a stale pointer faults instead of reading someone's data.
  ::madvise(p, a->mapped, MADV_DONTNEED);
  ::mprotect(p, a->mapped, PROT_NONE);
  d.used -= a->bytes;
  ++d.n.frees;
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  const device& d = global().devices[dev];
  *free_bytes = d.memory - d.used;
  *total = d.memory;
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t n, cudaMemcpyKind kind) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  return enqueue_copy(legacy_stream(dev), dst, src, n, kind, "cudaMemcpy", false);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t n, cudaMemcpyKind kind, cudaStream_t s) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  stream* st = resolve_stream(s, "cudaMemcpyAsync");
  if (!st)
    return fail(cudaErrorInvalidResourceHandle);
  return enqueue_copy(*st, dst, src, n, kind, "cudaMemcpyAsync", true);
}

// Peer access: every pair of distinct fake GPUs can, unless
// GPU_AUTOPAR_STANDIN_PEER=0.
cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer) {
  auto guard = lock();
  state& s = global();
  if (!can || device < 0 || peer < 0 || device >= int(s.devices.size()) || peer >= int(s.devices.size()))
    return fail(cudaErrorInvalidDevice);
  *can = s.peers && device != peer ? 1 : 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  state& s = global();
  if (flags != 0)
    return fail(cudaErrorInvalidValue);
  if (peer < 0 || peer >= int(s.devices.size()))
    return fail(cudaErrorInvalidDevice);
  if (!s.peers || peer == dev)
    return fail(cudaErrorPeerAccessUnsupported);
  if (!s.peer_access.insert({dev, peer}).second)
    return fail(cudaErrorPeerAccessAlreadyEnabled);
  log_line("note: peer access from device " + std::to_string(dev) + " to device " + std::to_string(peer));
  return cudaSuccess;
}

// A copy between two GPUs' memories, queued on a stream of the current
// device (the runtime's: the receiving GPU's). Both ranges must be live
// allocations of the devices named; the copy is counted on the receiving one.
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t n,
                                cudaStream_t s) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  static const char* call = "cudaMemcpyPeerAsync";
  stream* st = resolve_stream(s, call);
  if (!st)
    return fail(cudaErrorInvalidResourceHandle);
  if (st->device != dev)
    violation("foreign-stream", std::string(call) + " on stream " + std::to_string(st->id) + " of device " +
                                    std::to_string(st->device) + " while device " + std::to_string(dev) + " is current");
  if (!is_device(dst) || !is_device(src)) {
    violation("not-device-memory", std::string(call) + " between " + describe(dst) + " and " + describe(src));
    return fail(cudaErrorInvalidValue);
  }
  if (!check_device_range(dst, n, dst_device, call) || !check_device_range(src, n, src_device, call))
    return fail(cudaErrorInvalidValue);
  if (!global().peer_access.count({dst_device, src_device}))
    violation("peer-access", std::string(call) + " from device " + std::to_string(src_device) + " to device " +
                                 std::to_string(dst_device) + " without cudaDeviceEnablePeerAccess: it would go "
                                 "through the host");
  op o;
  o.accesses.push_back({addr(dst), addr(dst) + n, true});
  o.accesses.push_back({addr(src), addr(src) + n, false});
  o.run = [dst, src, n] { std::memmove(dst, src, n); };
  o.eng = engine::p2p; // the receiving GPU's, over NVLink
  o.cost = copy_cost(n, link::nvlink);
  o.what = std::string(call) + " from device " + std::to_string(src_device) + " of " + bytes_text(n);
  counts& c = global().devices[std::size_t(dst_device)].n;
  ++c.p2p;
  c.p2p_bytes += n;
  enqueue(*st, std::move(o));
  return cudaSuccess;
}

cudaError_t cudaMemset(void* p, int value, std::size_t n) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  return enqueue_memset(legacy_stream(dev), p, value, n, "cudaMemset");
}

cudaError_t cudaMemsetAsync(void* p, int value, std::size_t n, cudaStream_t s) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  stream* st = resolve_stream(s, "cudaMemsetAsync");
  if (!st)
    return fail(cudaErrorInvalidResourceHandle);
  return enqueue_memset(*st, p, value, n, "cudaMemsetAsync");
}

// Page-locks host memory: copies from and to it run asynchronously (the
// timeline's copies no longer hold the host thread) and read or write it when
// they run.
cudaError_t cudaHostRegister(void* p, std::size_t n, unsigned int) {
  auto guard = lock();
  state& s = global();
  const auto lo = addr(p), hi = lo + n;
  if (!p || n == 0 || is_device(p))
    return fail(cudaErrorInvalidValue);
  for (const auto& r : s.registered)
    if (r.first < hi && lo < r.second)
      return fail(cudaErrorHostMemoryAlreadyRegistered);
  s.registered.emplace_back(lo, hi);
  ++s.host_registers;
  if (s.trace)
    log_line("cudaHostRegister " + describe(p) + " " + std::to_string(n) + " bytes");
  host_registers(n);
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* p) {
  auto guard = lock();
  state& s = global();
  for (auto it = s.registered.begin(); it != s.registered.end(); ++it)
    if (it->first == addr(p)) {
      // Work still queued on it would read or write memory that is no longer locked.
      host_access(p, it->second - it->first, true, "cudaHostUnregister");
      if (s.trace)
        log_line("cudaHostUnregister " + describe(p) + " " + std::to_string(it->second - it->first) + " bytes");
      host_unregisters(it->second - it->first);
      s.registered.erase(it);
      ++s.host_unregisters;
      return cudaSuccess;
    }
  return fail(cudaErrorHostMemoryNotRegistered);
}

// Page-locked host memory the CUDA runtime allocates: pinned without a
// registration (not counted as one).
cudaError_t cudaMallocHost(void** p, std::size_t n) {
  auto guard = lock();
  if (!p)
    return fail(cudaErrorInvalidValue);
  *p = std::malloc(n ? n : 1);
  if (!*p)
    return fail(cudaErrorMemoryAllocation);
  global().host_allocated.emplace_back(addr(*p), addr(*p) + n);
  host_spends(h100::malloc_s);
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void* p) {
  auto guard = lock();
  auto& blocks = global().host_allocated;
  for (auto it = blocks.begin(); it != blocks.end(); ++it)
    if (it->first == addr(p)) {
      // Work still queued on it would write memory that is gone.
      host_access(p, it->second - it->first, true, "cudaFreeHost");
      blocks.erase(it);
      std::free(p);
      return cudaSuccess;
    }
  return fail(cudaErrorInvalidValue);
}

// ---- streams -------------------------------------------------------------

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int flags) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  stream& st = new_stream(dev, !(flags & cudaStreamNonBlocking));
  ++global().devices[dev].n.streams_created;
  *s = handle_of(st);
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }

cudaError_t cudaStreamDestroy(cudaStream_t s) {
  auto guard = lock();
  if (reinterpret_cast<std::uintptr_t>(s) <= 2)
    return fail(cudaErrorInvalidResourceHandle);
  stream* st = resolve_stream(s, "cudaStreamDestroy");
  if (!st)
    return fail(cudaErrorInvalidResourceHandle);
  // Pending work still completes (CUDA releases the stream once it is idle);
  // the host does not learn that it did.
  st->destroyed = true;
  ++global().devices[st->device].n.streams_destroyed;
  return fail(global().devices[st->device].sticky);
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  auto guard = lock();
  stream* st = resolve_stream(s, "cudaStreamSynchronize");
  if (!st)
    return fail(cudaErrorInvalidResourceHandle);
  device& d = global().devices[st->device];
  ++d.n.stream_syncs;
  host_waits_for_stream(*st);
  for (const auto& [dev, k] : global().lose_at_waits)
    if (dev == st->device && k == d.n.stream_syncs && d.sticky == cudaSuccess) {
      d.sticky = cudaErrorIllegalAddress;
      log_line("note: device " + std::to_string(dev) + ": context lost after its stream synchronize " +
               std::to_string(k) + " (GPU_AUTOPAR_STANDIN_LOSE_AT_WAIT); every later call on it fails");
    }
  return fail(d.sticky);
}

// Pending work has not run yet (it runs when waited for): not ready.
cudaError_t cudaStreamQuery(cudaStream_t s) {
  auto guard = lock();
  stream* st = resolve_stream(s, "cudaStreamQuery");
  if (!st)
    return fail(cudaErrorInvalidResourceHandle);
  if (cudaError_t e = global().devices[st->device].sticky)
    return fail(e);
  return st->pending.empty() ? cudaSuccess : cudaErrorNotReady;
}

// ---- events --------------------------------------------------------------

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned int) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  auto ev = std::make_unique<event>();
  ev->device = dev;
  global().events.push_back(std::move(ev));
  *e = reinterpret_cast<cudaEvent_t>(global().events.size()); // index + 1, never 0
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* e) { return cudaEventCreateWithFlags(e, 0); }

static event* resolve_event(cudaEvent_t e, const char* call) {
  auto i = reinterpret_cast<std::uintptr_t>(e);
  if (i == 0 || i > global().events.size() || global().events[i - 1]->destroyed) {
    violation("invalid-event", std::string(call) + " with an event that does not exist (or was destroyed)");
    return nullptr;
  }
  return global().events[i - 1].get();
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  STANDIN_CURRENT_DEVICE_OR_RETURN();
  event* ev = resolve_event(e, "cudaEventRecord");
  stream* st = resolve_stream(s, "cudaEventRecord");
  if (!ev || !st)
    return fail(cudaErrorInvalidResourceHandle);
  if (st->device != ev->device)
    violation("foreign-stream", "cudaEventRecord of an event of device " + std::to_string(ev->device) +
                                    " on a stream of device " + std::to_string(st->device));
  ev->recorded = true;
  ev->at = st->tail;
  ev->device_at = st->device_tail;
  ev->stamp = event_recorded(st->device_tail);
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  auto guard = lock();
  event* ev = resolve_event(e, "cudaEventSynchronize");
  if (!ev)
    return fail(cudaErrorInvalidResourceHandle);
  ++global().devices[ev->device].n.event_syncs;
  host_waits_for(ev->at, &ev->device_at);
  return fail(global().devices[ev->device].sticky);
}

cudaError_t cudaEventQuery(cudaEvent_t e) {
  auto guard = lock();
  event* ev = resolve_event(e, "cudaEventQuery");
  if (!ev)
    return fail(cudaErrorInvalidResourceHandle);
  for (const auto& [sid, id] : ev->at) {
    const auto& pending = global().streams[sid]->pending;
    if (!pending.empty() && pending.front().id <= id)
      return cudaErrorNotReady;
  }
  return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int) {
  auto guard = lock();
  event* ev = resolve_event(e, "cudaStreamWaitEvent");
  stream* st = resolve_stream(s, "cudaStreamWaitEvent");
  if (!ev || !st)
    return fail(cudaErrorInvalidResourceHandle);
  join(st->tail, ev->at); // the stream's next op comes after what the event covers
  join(st->device_tail, ev->device_at);
  return cudaSuccess;
}

// The modelled time between the two events (the timeline's, as every time
// the stand-in gives): a runtime that sizes work by device time sees the
// H100 figures, not how long the host took to emulate the kernels.
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  auto guard = lock();
  event* a = resolve_event(start, "cudaEventElapsedTime");
  event* b = resolve_event(end, "cudaEventElapsedTime");
  if (!a || !b || !ms)
    return fail(cudaErrorInvalidResourceHandle);
  if (!a->recorded || !b->recorded || !a->stamp || !b->stamp)
    return fail(cudaErrorInvalidResourceHandle);
  for (const event* ev : {a, b})
    for (const auto& [sid, id] : ev->at) {
      const auto& pending = global().streams[sid]->pending;
      if (!pending.empty() && pending.front().id <= id)
        return fail(cudaErrorNotReady); // what CUDA says of an event not reached yet
    }
  *ms = float((event_time(b->stamp) - event_time(a->stamp)) * 1e3);
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e) {
  auto guard = lock();
  event* ev = resolve_event(e, "cudaEventDestroy");
  if (!ev)
    return fail(cudaErrorInvalidResourceHandle);
  ev->destroyed = true;
  return cudaSuccess;
}

// ---- errors --------------------------------------------------------------

// A poisoned context keeps reporting its error; anything else is cleared by
// cudaGetLastError.
static cudaError_t last_error_of_thread(bool clear) {
  auto guard = lock();
  const int dev = current_device();
  if (dev >= 0 && dev < int(global().devices.size()) && global().devices[dev].sticky != cudaSuccess)
    return global().devices[dev].sticky;
  cudaError_t e = last_error();
  if (clear)
    last_error() = cudaSuccess;
  return e;
}

cudaError_t cudaGetLastError(void) { return last_error_of_thread(true); }

cudaError_t cudaPeekAtLastError(void) { return last_error_of_thread(false); }

const char* cudaGetErrorName(cudaError_t e) { return error_text(e).name; }

const char* cudaGetErrorString(cudaError_t e) { return error_text(e).text; }

} // extern "C"

// Exit checks run after every static destructor and atexit handler of the
// program (the runtime's teardown included), from the loader's fini pass.
__attribute__((destructor)) static void standin_at_exit() {
  auto guard = lock();
  check_at_exit();
}
