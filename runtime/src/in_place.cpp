#include "in_place.h"

#include "cuda_backend.h"
#include "runtime_state.h"

namespace gpu_autopar {
namespace detail {
namespace {

std::string named(const erased_map& m) {
  return m.name && *m.name ? "'" + std::string(m.name) + "'" : "a map's memory";
}

// The pool's device that is CUDA GPU `ordinal` (-1: none), and its name.
int device_of(int ordinal, std::string& name) {
  name = "CUDA GPU " + std::to_string(ordinal);
  const lease_pool* pool = runtime().pool.get();
  for (int d = 0; pool && d < pool->device_count(); ++d)
    if (pool->get(d).cuda_ordinal() == ordinal) {
      name = pool->get(d).name();
      return d;
    }
  return -1;
}

} // namespace

bool locate_in_place(const erased_map* maps, std::size_t count, std::vector<placement>& place,
                     in_place_memory& out) {
  const cuda_api* api = registered_cuda_api();
  if (!api || !api->pointer_attributes || count == 0)
    return false;
  place.assign(count, placement::copied);
  bool any = false;
  int gpu = -1; // the ordinal of the first device memory
  for (std::size_t k = 0; k < count; ++k) {
    const erased_map& m = maps[k];
    int type = 0, ordinal = -1;
    if (m.size() == 0 || api->pointer_attributes(m.host + m.lo * static_cast<long long>(m.element_size), &type,
                                                 &ordinal) != 0)
      continue;
    if (type != kCudaMemoryTypeDevice && type != kCudaMemoryTypeManaged)
      continue;
    any = true;
    out.written = out.written || m.body_writes();
    if (type == kCudaMemoryTypeManaged) {
      place[k] = placement::managed;
      continue;
    }
    place[k] = placement::device;
    std::string name;
    const int d = device_of(ordinal, name);
    if (gpu < 0) {
      gpu = ordinal;
      out.host_cannot = true;
      out.device = d;
      out.what = named(m) + " is device memory of " + name + (d < 0 ? " (not one of the runtime's devices)" : "");
    } else if (ordinal != gpu && out.device != -2) {
      out.device = -2; // no GPU can use both: said below
      out.what += " and " + named(m) + " of " + name + ", and no GPU can use both in place";
    }
  }
  if (out.device == -2)
    out.device = -1;
  if (any && out.what.empty())
    out.what = "the loop uses managed memory in place";
  return any;
}

std::string in_place_refusal(const device_context& dev, placement p, const in_place_memory& ip) {
  const bool cuda = dev.kind() == device_kind::cuda;
  if (p == placement::copied || (cuda && p == placement::managed))
    return {};
  if (cuda && ip.device >= 0 && dev.id() == runtime().pool->get(ip.device).id())
    return {};
  const std::string here = (cuda ? "cuda" : dev.kind() == device_kind::sim ? "sim" : "device ") + std::to_string(dev.id());
  return (p == placement::managed ? std::string("the loop uses managed memory") : ip.what) + ", which " + here +
         " cannot use in place";
}

} // namespace detail
} // namespace gpu_autopar
